/** Every place that names FalkorDB's image names the tested one; none uses a moving tag. */
import assert from "node:assert/strict";
import {
  FALKORDB_IMAGE,
  FALKORDB_VERSION,
  serverWarning,
  versionWarning,
} from "../src/db/version.ts";
import { IMAGE } from "../src/db/docker.ts";

const ROOT = new URL("..", import.meta.url).pathname;

Deno.test("FalkorDB image: one pinned version everywhere it is named", async () => {
  assert.equal(IMAGE, FALKORDB_IMAGE);
  for (
    const file of [
      ".github/workflows/ci.yml",
      ".github/workflows/release.yml",
      "docker-compose.yml",
    ]
  ) {
    const text = await Deno.readTextFile(`${ROOT}/${file}`);
    const images = [...text.matchAll(/falkordb\/falkordb(?::[\w.-]+)?/g)].map((m) => m[0]);
    assert.ok(images.length > 0, `${file} names FalkorDB's image`);
    for (const image of images) assert.equal(image, FALKORDB_IMAGE, `${file}: ${image}`);
  }
});

Deno.test("FalkorDB version: outside the tested line is warned about", () => {
  assert.equal(versionWarning(FALKORDB_VERSION), undefined);
  assert.equal(versionWarning("4.16.9"), undefined);
  assert.match(versionWarning("4.18.1") ?? "", /outside the tested 4\.16 line/);
});

Deno.test("Redis / Valkey version: outside the tested range is warned about", () => {
  assert.equal(serverWarning("Redis", "8.2.3"), undefined);
  assert.equal(serverWarning("Valkey", "7.2.4"), undefined);
  assert.match(serverWarning("Redis", "7.0.15") ?? "", /older than cgraph supports/);
  assert.match(serverWarning("Valkey", "9.0.0") ?? "", /newer than cgraph is tested with/);
  assert.match(serverWarning("Redis", "weird") ?? "", /could not be read/);
});
