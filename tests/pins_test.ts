/** Every place that names FalkorDB's image names the tested one; none uses a moving tag or runner. */
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

Deno.test("no moving `latest` tag or runner label in workflows, Dockerfile, compose, src/db", async () => {
  const files = ["Dockerfile", "docker-compose.yml"];
  for (const dir of [".github/workflows", "src/db"]) {
    for await (const e of Deno.readDir(`${ROOT}/${dir}`)) {
      if (e.isFile) files.push(`${dir}/${e.name}`);
    }
  }
  assert.ok(files.some((f) => f.endsWith("ci.yml")) && files.some((f) => f.endsWith("client.ts")));
  for (const file of files) {
    const text = await Deno.readTextFile(`${ROOT}/${file}`);
    const hits = text.split("\n").map((line, i) => `${file}:${i + 1}: ${line.trim()}`)
      .filter((l) => /latest/i.test(l.slice(l.indexOf(": ") + 2)));
    assert.deepEqual(hits, [], `a moving 'latest' in ${file}`);
    if (file.startsWith(".github/")) {
      for (const m of text.matchAll(/runs-on:\s*(\S+)/g)) {
        assert.match(m[1], /^(ubuntu|macos|windows)-\d+(\.\d+)?$/, `${file}: runs-on ${m[1]}`);
      }
    }
  }
});
