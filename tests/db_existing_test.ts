/**
 * Auto-init finding a server already running on localhost. CGRAPH_LOCAL_PORT points the check at a
 * test port (the machine's 6379 may be anything). Real servers, the real CLI.
 */
import assert from "node:assert/strict";
import { runCgraph, silentListener, startServer, withDataDir } from "./helpers/db.ts";

Deno.test("a FalkorDB already on the local port is used; nothing else is started", async () => {
  const server = await startServer();
  try {
    await withDataDir(async (dir) => {
      const env = { CGRAPH_LOCAL_PORT: String(server.port), CGRAPH_DATA_DIR: dir };
      const status = await runCgraph(["db", "status", "--json"], env);
      assert.equal(status.code, 0, status.stderr);
      const report = JSON.parse(status.stdout);
      assert.equal(report.source, "existing");
      assert.equal(report.address, `127.0.0.1:${server.port}`);

      const start = await runCgraph(["db", "start"], env);
      assert.equal(start.code, 0, start.stderr);
      assert.match(start.stdout, new RegExp(`ready: existing at 127\\.0\\.0\\.1:${server.port}`));
      await assert.rejects(Deno.stat(`${dir}/instance.json`));
    });
  } finally {
    await server.stop();
  }
});

Deno.test("a plain Redis on the local port is not used: clear note, clear error in external mode", async () => {
  const plain = await startServer({ module: false });
  try {
    await withDataDir(async (dir) => {
      const env = { CGRAPH_LOCAL_PORT: String(plain.port), CGRAPH_DATA_DIR: dir };
      const status = await runCgraph(["db", "status", "--mode", "external"], env);
      assert.equal(status.code, 1);
      assert.match(
        status.stdout,
        new RegExp(
          `existing +skipped +127\\.0\\.0\\.1:${plain.port}: .*without the FalkorDB graph module`,
        ),
      );
      const start = await runCgraph(["db", "start"], { ...env, CGRAPH_DB: "external" });
      assert.equal(start.code, 1);
      assert.match(start.stderr, /CGRAPH_DB=external: no FalkorDB configured and none usable/);
      assert.match(start.stderr, /without the FalkorDB graph module/);
      await assert.rejects(Deno.stat(`${dir}/instance.json`));
    });
  } finally {
    await plain.stop();
  }
});

Deno.test("a password-protected server on the local port is skipped with a hint", async () => {
  const locked = await startServer({ password: "pw" });
  try {
    await withDataDir(async (dir) => {
      const r = await runCgraph(["db", "start", "--mode", "external"], {
        CGRAPH_LOCAL_PORT: String(locked.port),
        CGRAPH_DATA_DIR: dir,
      });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /requires a password \(set FALKORDB_URL/);
    });
  } finally {
    await locked.stop();
  }
});

Deno.test("something else entirely on the local port: no hang, clear note", async () => {
  const silent = silentListener();
  const http = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => new Response("hello"),
  );
  try {
    await withDataDir(async (dir) => {
      const hung = await runCgraph(["db", "status", "--mode", "external"], {
        CGRAPH_LOCAL_PORT: String(silent.port),
        CGRAPH_DATA_DIR: dir,
      });
      assert.equal(hung.code, 1);
      assert.match(hung.stdout, /existing +skipped +127\.0\.0\.1:\d+: no answer within/);
      assert.ok(hung.ms < 30_000, `took ${hung.ms} ms`);

      const other = await runCgraph(["db", "start", "--mode", "external"], {
        CGRAPH_LOCAL_PORT: String(http.addr.port),
        CGRAPH_DATA_DIR: dir,
      });
      assert.equal(other.code, 1);
      assert.match(other.stderr, /127\.0\.0\.1:\d+: something that is not Redis answered/);
    });
  } finally {
    silent.close();
    await http.shutdown();
  }
});
