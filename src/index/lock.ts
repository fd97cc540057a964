/**
 * One indexer per (project, branch): a Redis key that says who holds it (host, pid, start, last
 * heartbeat), set with NX and a short expiry the holder renews every few seconds.
 *
 * - A holder on this host whose process is gone is taken over at once (compare-and-set, so two
 *   waiters cannot both take it), and the caller is told so; so is one left by an ended run of
 *   this very process (a long-lived server whose release never reached a restarting database).
 * - A live holder: the caller waits up to `waitMs`, told who holds it and for how long, then gets
 *   a clear error.
 * - A holder on another host is trusted until its heartbeat lapses (the key expires).
 */
import type { Db } from "../db/client.ts";
import { isAlive } from "../db/proc.ts";
import { CgraphError } from "../errors.ts";

/** The key lapses this long after its holder's last heartbeat. */
export const LOCK_TTL_MS = 10_000;
const BEAT_MS = LOCK_TTL_MS / 4;
const POLL_MS = 250;

export interface LockHolder {
  host: string;
  pid: number;
  /** Epoch ms the holder took the lock, and of its latest heartbeat. */
  started: number;
  beat: number;
  token: string;
}

export interface LockOptions {
  /** How long to wait for a live holder (0: fail at once). */
  waitMs?: number;
  /** Called while waiting (about once a second) and on a takeover, with a line to show. */
  onWait?: (message: string) => void;
}

/** Replace the value only if it is still the one read (no two takeovers of one dead lock). */
const SWAP = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return false`;

const RENEW = `local v = redis.call('GET', KEYS[1])
if v and string.find(v, ARGV[1], 1, true) then
  return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return false`;

const host = (() => {
  try {
    return Deno.hostname();
  } catch {
    return "localhost";
  }
})();

/** Tokens of the locks this process holds now. */
const live = new Set<string>();

/**
 * A holder on this host that no longer holds the lock: its process is gone, or it is this process
 * and the run that took it has ended (its release was lost, e.g. the database restarted meanwhile).
 */
function isGone(h: LockHolder): boolean {
  return h.pid === Deno.pid ? !live.has(h.token) : !isAlive(h.pid);
}

export function parseHolder(value: string | null): LockHolder | undefined {
  if (!value) return undefined;
  try {
    const h = JSON.parse(value) as LockHolder;
    return typeof h.pid === "number" && typeof h.host === "string" ? h : undefined;
  } catch {
    // A lock written by an older cgraph ("pid:uuid"): its pid, on this host.
    const pid = Number(value.split(":")[0]);
    return Number.isInteger(pid) ? { host, pid, started: 0, beat: 0, token: value } : undefined;
  }
}

function describe(h: LockHolder, now: number): string {
  const since = h.started ? `${Math.round((now - h.started) / 1000)} s` : "a while";
  return `pid ${h.pid} on ${h.host === host ? "this host" : h.host}, for ${since}`;
}

export async function withLock<T>(
  db: Db,
  key: string,
  what: string,
  fn: () => Promise<T>,
  opts: LockOptions = {},
): Promise<T> {
  const started = Date.now();
  const token = crypto.randomUUID();
  const mine = (): string =>
    JSON.stringify({ host, pid: Deno.pid, started, beat: Date.now(), token } satisfies LockHolder);
  const deadline = started + (opts.waitMs ?? 0);
  let lastNote = 0;
  for (;;) {
    const ok = await db.command<string | null>([
      "SET",
      key,
      mine(),
      "NX",
      "PX",
      String(LOCK_TTL_MS),
    ]);
    if (ok === "OK") break;
    const raw = await db.command<string | null>(["GET", key]);
    const holder = parseHolder(raw);
    if (raw && holder && holder.host === host && isGone(holder)) {
      const swapped = await db.command<string | null>([
        "EVAL",
        SWAP,
        "1",
        key,
        raw,
        mine(),
        String(LOCK_TTL_MS),
      ]);
      if (swapped === "OK") {
        opts.onWait?.(
          holder.pid === Deno.pid
            ? `took over the index lock of ${what} left by an earlier run of this process`
            : `took over the index lock of ${what} from pid ${holder.pid}, which is gone`,
        );
        break;
      }
      continue;
    }
    const now = Date.now();
    if (now >= deadline) {
      throw new CgraphError(
        `Another cgraph is indexing ${what} right now (${
          holder ? describe(holder, now) : "unknown holder"
        }).`,
        `Wait for it to finish, or run again with a longer wait; a holder that dies is replaced at once on this host, within ${
          LOCK_TTL_MS / 1000
        } s elsewhere.`,
      );
    }
    if (opts.onWait && now - lastNote >= 1000) {
      lastNote = now;
      opts.onWait(
        `waiting for the indexer of ${what} (${holder ? describe(holder, now) : "unknown holder"})`,
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  live.add(token);
  // The heartbeat renews the lock only while it is still ours.
  const timer = setInterval(() => {
    db.command(["EVAL", RENEW, "1", key, token, mine(), String(LOCK_TTL_MS)]).catch(() => {});
  }, BEAT_MS);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
    live.delete(token);
    try {
      const held = parseHolder(await db.command<string | null>(["GET", key]));
      if (held?.token === token) await db.command(["DEL", key]);
    } catch {
      // The database went away: the lock expires by itself.
    }
  }
}
