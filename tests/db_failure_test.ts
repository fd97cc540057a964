/**
 * Failures on the way: a server dying mid-session, a plain Redis, a port that never answers. Each
 * must end promptly in a CgraphError naming the address, never a hang or a crash.
 */
import assert from "node:assert/strict";
import { CgraphError } from "../src/errors.ts";
import { Db } from "../src/db/client.ts";
import { ensureDbDetailed } from "../src/db/ensure.ts";
import { connectVerified } from "../src/db/probe.ts";
import { isAlive } from "../src/db/proc.ts";
import { silentListener, startServer, withDataDir } from "./helpers/db.ts";

function names(address: RegExp) {
  return (err: unknown) => {
    assert.ok(err instanceof CgraphError, `not a CgraphError: ${err}`);
    assert.match(err.message, address);
    return true;
  };
}

Deno.test("server killed mid-session: the next query fails promptly, naming the address", async () => {
  const server = await startServer();
  const db = await Db.connect({ host: "127.0.0.1", port: server.port, origin: "test server" });
  try {
    assert.deepEqual(await db.query("t", "RETURN 1 AS one"), [{ one: 1 }]);
    await server.stop(); // SIGKILL
    const t0 = performance.now();
    await assert.rejects(
      db.query("t", "RETURN 1 AS one", undefined, { timeoutMs: 10_000 }),
      names(new RegExp(`127\\.0\\.0\\.1:${server.port} \\(test server\\) stopped answering`)),
    );
    assert.ok(performance.now() - t0 < 12_000);
  } finally {
    await db.close();
  }
});

Deno.test("embedded server killed mid-session: error, then ensureDb starts a new one", async () => {
  await withDataDir(async (dir) => {
    const first = await ensureDbDetailed({ mode: "embedded", quiet: true, dataDir: dir });
    try {
      Deno.kill(first.instance!.pid, "SIGKILL");
      await assert.rejects(
        first.db.query("t", "RETURN 1", undefined, { timeoutMs: 10_000 }),
        names(new RegExp(`${first.address.replace(/\./g, "\\.")} \\(embedded server\\)`)),
      );
    } finally {
      await first.db.close();
    }
    const second = await ensureDbDetailed({ mode: "embedded", quiet: true, dataDir: dir });
    try {
      assert.notEqual(second.instance!.pid, first.instance!.pid);
      assert.ok(isAlive(second.instance!.pid));
      assert.deepEqual(await second.db.query("t", "RETURN 2 AS two"), [{ two: 2 }]);
    } finally {
      await second.db.close();
    }
  });
});

Deno.test("a plain Redis (no graph module) is refused with a clear message", async () => {
  const plain = await startServer({ module: false });
  try {
    await assert.rejects(
      connectVerified({ host: "127.0.0.1", port: plain.port, origin: "test" }),
      (err: unknown) => {
        assert.ok(err instanceof CgraphError);
        assert.match(err.message, /is a Redis without the FalkorDB graph module/);
        assert.match(err.message, new RegExp(`127\\.0\\.0\\.1:${plain.port}`));
        assert.match(err.hint ?? "", /--loadmodule/);
        return true;
      },
    );
  } finally {
    await plain.stop();
  }
});

Deno.test("a port that accepts but never answers: refused within the deadline", async () => {
  const silent = silentListener();
  try {
    const t0 = performance.now();
    await assert.rejects(
      connectVerified({ host: "127.0.0.1", port: silent.port, origin: "test" }, {
        probeTimeoutMs: 1000,
      }),
      names(new RegExp(`127\\.0\\.0\\.1:${silent.port} \\(test\\): no answer within 1000 ms`)),
    );
    assert.ok(performance.now() - t0 < 10_000);
  } finally {
    silent.close();
  }
});
