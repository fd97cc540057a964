/**
 * The stat cache: which files an incremental run need not read. Per file, the (size, mtime,
 * ctime, inode) seen when it was last hashed is stored beside its hash (`{project}:{branch}_stat`);
 * a file whose walk stat is the same is taken as unchanged without being read or hashed. An entry
 * is stored only once the file has been still for racyMs() (git's "racy clean" rule): a file
 * written again within its timestamp's resolution after being read would otherwise look unchanged.
 */
import type { ReadFile } from "./scan.ts";
import type { Candidate, FileStat } from "./walk.ts";

/**
 * A file changed this recently (ms) is always read; its stat is stored on a later run.
 * CGRAPH_STAT_RACY_MS changes it (tests set 0 to exercise the cache at once).
 */
export function racyMs(): number {
  const n = Number(Deno.env.get("CGRAPH_STAT_RACY_MS"));
  return Deno.env.get("CGRAPH_STAT_RACY_MS") !== undefined && Number.isFinite(n) && n >= 0
    ? n
    : RACY_DEFAULT_MS;
}

export const RACY_DEFAULT_MS = 2000;

/** The stored form of a stat: `size mtime ctime inode`. */
export function statEntry(s: FileStat): string {
  return `${s.size} ${s.mtime} ${s.ctime} ${s.ino}`;
}

/** Whether a stat may be trusted later: no change to the file for RACY_MS before `now`. */
export function settled(s: FileStat, now: number, racy = racyMs()): boolean {
  return Math.max(s.mtime, s.ctime) < now - racy;
}

/**
 * The lookup readCandidates uses: the stored hash of a candidate whose walk stat equals its stored
 * entry, else undefined (the file is read).
 */
export function statLookup(
  stored: ReadonlyMap<string, string>,
  hashes: ReadonlyMap<string, string>,
): (c: Candidate) => string | undefined {
  return (c) => {
    if (!c.stat) return undefined;
    const entry = stored.get(c.path);
    return entry !== undefined && entry === statEntry(c.stat) ? hashes.get(c.path) : undefined;
  };
}

/**
 * The stat cache after a run: an entry per file read (or vouched for) and settled, none for the
 * rest. `indexed` says which paths the graph holds (only their hashes can be vouched for).
 * Returns the whole map and what changed against `stored` (entries to set, paths to delete).
 */
export function nextStatCache(
  read: ReadFile[],
  indexed: (path: string) => boolean,
  stored: ReadonlyMap<string, string>,
  now: number,
): { entries: Map<string, string>; set: Record<string, string>; del: string[] } {
  const entries = new Map<string, string>();
  const set: Record<string, string> = {};
  const racy = racyMs();
  for (const f of read) {
    const path = f.candidate.path;
    if (!indexed(path) || !settled(f.stat, now, racy)) continue;
    const entry = statEntry(f.stat);
    entries.set(path, entry);
    if (stored.get(path) !== entry) set[path] = entry;
  }
  const del = [...stored.keys()].filter((p) => !entries.has(p));
  return { entries, set, del };
}
