/**
 * The embedded server's append-only log, compacted after an index run. A start replays the log,
 * and replaying logged graph writes is far slower than loading a snapshot (a 150 MB log of index
 * writes took over a minute), while an index writes to the log far more (every statement) than its
 * graph takes as a snapshot. The server compacts on its own only when its log has doubled (Redis's
 * default): each compaction forks it and writes every graph again, and at a quarter's growth a
 * 100,000-file index compacted 24 times, 20 s of CPU on the cores the index needs. After a run,
 * cgraph asks for one compaction when the log grew by a quarter since the last (and by more than
 * 16 MB), so what a start replays stays small. Other servers are left as their owners set them.
 */
import type { Db } from "./client.ts";
import { EMBEDDED_ORIGIN } from "./embedded.ts";

const MB = 1024 * 1024;
/** A log this much larger than its last compaction is compacted after a run... */
const GROWTH = 1.25;
/** ...once it is at least this large. */
const AT_LEAST = 16 * MB;

/** The fields of an `INFO persistence` reply this reads. */
export interface LogState {
  enabled: boolean;
  /** A compaction is running or scheduled. */
  busy: boolean;
  size: number;
  base: number;
}

export function logState(info: string): LogState {
  const field = (k: string) => Number(info.match(new RegExp(`^${k}:(\\d+)`, "m"))?.[1] ?? NaN);
  return {
    enabled: field("aof_enabled") === 1,
    busy: field("aof_rewrite_in_progress") === 1 || field("aof_rewrite_scheduled") === 1,
    size: field("aof_current_size"),
    base: field("aof_base_size"),
  };
}

/** Whether a log in this state is worth compacting now. */
export function worthCompacting(s: LogState): boolean {
  return s.enabled && !s.busy && s.size >= AT_LEAST && s.size >= s.base * GROWTH;
}

/**
 * Asks the embedded server to compact its log in the background (BGREWRITEAOF) if it grew enough;
 * true when asked. Never throws: the log is compacted later (by the server itself at worst).
 */
export async function compactLog(db: Db): Promise<boolean> {
  if (db.endpoint.origin !== EMBEDDED_ORIGIN) return false;
  try {
    if (!worthCompacting(logState(String(await db.command(["INFO", "persistence"]))))) return false;
    await db.command(["BGREWRITEAOF"]);
    return true;
  } catch {
    return false;
  }
}
