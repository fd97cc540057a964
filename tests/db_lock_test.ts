/** The start/download lock: exclusive, waits for a live holder, breaks an abandoned one. */
import assert from "node:assert/strict";
import { hostname } from "node:os";
import { join } from "node:path";
import { CgraphError } from "../src/errors.ts";
import { acquireLock } from "../src/db/lock.ts";

const opts = { waitMs: 300, staleMs: 60_000, purpose: "testing", quiet: true };

Deno.test("lock: exclusive while held, free again after release", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-testlock-" });
  try {
    const path = join(dir, "x.lock");
    const release = await acquireLock(path, opts);
    await assert.rejects(acquireLock(path, opts), (err: unknown) => {
      assert.ok(err instanceof CgraphError);
      assert.match(err.message, new RegExp(`another cgraph process \\(pid ${Deno.pid}\\) testing`));
      assert.match(err.hint ?? "", /delete .*x\.lock/);
      return true;
    });
    await release();
    await assert.rejects(Deno.stat(path));
    const again = await acquireLock(path, opts);
    await again();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lock: a lock whose owner is gone, or that is too old, is broken", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-testlock-" });
  try {
    const path = join(dir, "x.lock");
    await Deno.writeTextFile(
      path,
      JSON.stringify({ pid: 999_999, host: hostname(), at: Date.now() }),
    );
    await (await acquireLock(path, opts))();
    await Deno.writeTextFile(
      path,
      JSON.stringify({ pid: Deno.pid, host: hostname(), at: Date.now() - 120_000 }),
    );
    await (await acquireLock(path, opts))();
    // Unreadable (half-written by a crashed process) and old: broken too.
    await Deno.writeTextFile(path, "{");
    await Deno.utime(path, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    await (await acquireLock(path, opts))();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lock: a waiter gets the lock as soon as the holder releases it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-testlock-" });
  try {
    const path = join(dir, "x.lock");
    const release = await acquireLock(path, opts);
    const waiting = acquireLock(path, { ...opts, waitMs: 5000 });
    await new Promise((r) => setTimeout(r, 300));
    await release();
    await (await waiting)();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
