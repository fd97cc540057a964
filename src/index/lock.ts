/**
 * One indexer per (project, branch): a Redis key set with NX and an expiry, refreshed while the
 * indexer runs, so a crashed indexer's lock lapses on its own.
 */
import type { Db } from "../db/client.ts";
import { CgraphError } from "../errors.ts";

const TTL_MS = 60_000;

export async function withLock<T>(
  db: Db,
  key: string,
  what: string,
  fn: () => Promise<T>,
): Promise<T> {
  const token = `${Deno.pid}:${crypto.randomUUID()}`;
  const ok = await db.command<string | null>(["SET", key, token, "NX", "PX", String(TTL_MS)]);
  if (ok !== "OK") {
    throw new CgraphError(
      `Another cgraph is indexing ${what} right now.`,
      "Wait for it to finish (its lock expires within a minute if it died), then run again.",
    );
  }
  const timer = setInterval(() => {
    db.command(["SET", key, token, "XX", "PX", String(TTL_MS)]).catch(() => {});
  }, TTL_MS / 3);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
    try {
      const held = await db.command<string | null>(["GET", key]);
      if (held === token) await db.command(["DEL", key]);
    } catch {
      // The database went away: the lock expires by itself.
    }
  }
}
