/**
 * Auto-init with a configured server (FALKORDB_URL / FALKORDB_HOST): used as given, or a clear
 * error naming it; never replaced by another server. Runs the real CLI against real servers.
 */
import assert from "node:assert/strict";
import { runCgraph, silentListener, startServer, withDataDir } from "./helpers/db.ts";
import { freePort } from "../src/db/proc.ts";

Deno.test("configured FALKORDB_URL is used by status and start", async () => {
  const server = await startServer();
  try {
    await withDataDir(async (dir) => {
      const env = { FALKORDB_URL: server.url, CGRAPH_DATA_DIR: dir };
      const status = await runCgraph(["db", "status"], env);
      assert.equal(status.code, 0, status.stdout + status.stderr);
      assert.match(
        status.stdout,
        new RegExp(`In use: configured at 127\\.0\\.0\\.1:${server.port}`),
      );
      // The server's own versions, against the tested ones (the bundle: Redis 8.2, FalkorDB 4.16).
      assert.match(status.stdout, /\n {2}server +Redis 8\.\d+\.\d+ \(standalone\)\n/);
      assert.match(status.stdout, /\n {2}FalkorDB +4\.16\.\d+ \(tested: 4\.16\.3\)/);
      assert.doesNotMatch(status.stdout, /warning/);
      const json = JSON.parse((await runCgraph(["db", "status", "--json"], env)).stdout);
      assert.equal(json.server.server, "Redis");
      assert.deepEqual(json.server.warnings, []);
      const start = await runCgraph(["db", "start"], env);
      assert.equal(start.code, 0, start.stderr);
      assert.match(start.stdout, /FalkorDB \d+\.\d+\.\d+ ready: configured at 127\.0\.0\.1:\d+/);
      // Nothing embedded was started beside it.
      await assert.rejects(Deno.stat(`${dir}/instance.json`));
    });
  } finally {
    await server.stop();
  }
});

Deno.test("configured FALKORDB_HOST/PORT/PASSWORD, and a wrong password is named", async () => {
  const server = await startServer({ password: "s3cret" });
  try {
    await withDataDir(async (dir) => {
      const base = {
        FALKORDB_HOST: "127.0.0.1",
        FALKORDB_PORT: String(server.port),
        CGRAPH_DATA_DIR: dir,
      };
      const ok = await runCgraph(["db", "status", "--json"], {
        ...base,
        FALKORDB_PASSWORD: "s3cret",
      });
      assert.equal(ok.code, 0, ok.stderr);
      const report = JSON.parse(ok.stdout);
      assert.equal(report.source, "configured");
      assert.equal(report.usable, true);

      const bad = await runCgraph(["db", "start"], { ...base, FALKORDB_PASSWORD: "wrong" });
      assert.equal(bad.code, 1);
      assert.match(bad.stderr, new RegExp(`127\\.0\\.0\\.1:${server.port}`));
      assert.match(bad.stderr, /refused the credentials/);

      const none = await runCgraph(["db", "start"], base);
      assert.equal(none.code, 1);
      assert.match(none.stderr, /requires a password/);
    });
  } finally {
    await server.stop();
  }
});

Deno.test("unreachable configured server: clear error naming the address, non-zero, no fallback", async () => {
  await withDataDir(async (dir) => {
    const port = freePort();
    const env = { FALKORDB_URL: `redis://127.0.0.1:${port}`, CGRAPH_DATA_DIR: dir };
    const start = await runCgraph(["db", "start"], env);
    assert.equal(start.code, 1);
    assert.match(
      start.stderr,
      new RegExp(`Cannot reach FalkorDB at 127\\.0\\.0\\.1:${port} \\(FALKORDB_URL\\)`),
    );
    assert.match(start.stderr, /unset it to let cgraph/);
    assert.ok(start.ms < 30_000, `took ${start.ms} ms`);
    // It was not silently replaced by an embedded server.
    await assert.rejects(Deno.stat(`${dir}/instance.json`));

    const status = await runCgraph(["db", "status"], env);
    assert.equal(status.code, 1);
    assert.match(status.stdout, /configured +failed +Cannot reach FalkorDB/);
  });
});

Deno.test("configured address that accepts but never answers: error within the deadline", async () => {
  const silent = silentListener();
  try {
    await withDataDir(async (dir) => {
      const r = await runCgraph(["db", "start"], {
        FALKORDB_URL: `redis://127.0.0.1:${silent.port}`,
        CGRAPH_DATA_DIR: dir,
      });
      assert.equal(r.code, 1);
      assert.match(r.stderr, new RegExp(`127\\.0\\.0\\.1:${silent.port}`));
      assert.match(r.stderr, /no answer within/);
      assert.ok(r.ms < 30_000, `took ${r.ms} ms`);
    });
  } finally {
    silent.close();
  }
});

Deno.test("configured plain Redis without the graph module: clear message", async () => {
  const plain = await startServer({ module: false });
  try {
    await withDataDir(async (dir) => {
      const r = await runCgraph(["db", "start"], { FALKORDB_URL: plain.url, CGRAPH_DATA_DIR: dir });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /is a Redis without the FalkorDB graph module/);
      assert.match(r.stderr, new RegExp(`127\\.0\\.0\\.1:${plain.port}`));
    });
  } finally {
    await plain.stop();
  }
});

Deno.test("CGRAPH_DB=embedded with FALKORDB_URL set is a conflict, not a silent choice", async () => {
  await withDataDir(async (dir) => {
    const r = await runCgraph(["db", "start"], {
      FALKORDB_URL: `redis://127.0.0.1:${freePort()}`,
      CGRAPH_DB: "embedded",
      CGRAPH_DATA_DIR: dir,
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /CGRAPH_DB=embedded conflicts with FALKORDB_URL/);
  });
});

Deno.test("bad CGRAPH_DB and bad FALKORDB_URL are reported", async () => {
  const mode = await runCgraph(["db", "status"], { CGRAPH_DB: "cloud" });
  assert.equal(mode.code, 1);
  assert.match(mode.stderr, /CGRAPH_DB=cloud is not a known mode/);
  const url = await runCgraph(["db", "status"], { FALKORDB_URL: "http://example:1" });
  assert.equal(url.code, 1);
  assert.match(url.stderr, /expected redis:\/\//);
});

Deno.test("db --help and per-command --help", async () => {
  const top = await runCgraph(["db", "--help"], {});
  assert.equal(top.code, 0);
  assert.match(top.stdout, /status \[--json\]/);
  for (const sub of ["status", "start", "stop"]) {
    const r = await runCgraph(["db", sub, "--help"], {});
    assert.equal(r.code, 0);
    assert.match(r.stdout, new RegExp(`Usage: cgraph db ${sub}`));
  }
  const bad = await runCgraph(["db", "status", "--nope"], {});
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /Usage: cgraph db status/);
});
