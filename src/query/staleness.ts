/**
 * Is a graph behind its working tree? Cheap: `git ls-files` (or a walk) and one stat per file, no
 * reads. The fingerprint of (path, size, mtime) is compared with the one stored at indexing time;
 * when it differs, changed files are counted as those modified after indexing plus those indexed
 * but gone. A moved HEAD alone is reported, not counted as staleness: the graph follows the files.
 */
import type { Db } from "../db/client.ts";
import { fileStatOf, maxFileBytes, statDigestOf, walkRepository } from "../index/walk.ts";
import type { GraphInfo } from "../project/catalog.ts";
import { headCommit } from "../project/identity.ts";
import { keysFor } from "../project/names.ts";

export interface Staleness {
  /** Files changed since indexing (modified after it, added, or deleted). */
  changed: number;
  /** The commit indexed and HEAD now, when they differ. */
  indexed_commit?: string;
  head?: string;
}

/** Undefined when it cannot be told (no root on this machine, no fingerprint stored). */
export async function checkStaleness(db: Db, info: GraphInfo): Promise<Staleness | undefined> {
  const root = info.root;
  if (!root || !info.stat_digest) return undefined;
  try {
    if (!(await Deno.stat(root)).isDirectory) return undefined;
  } catch {
    return undefined;
  }
  const walk = await walkRepository(root);
  const limit = maxFileBytes();
  const files: { path: string; size: number; mtime: number }[] = [];
  for (const c of walk.files) {
    try {
      // The walk's own stat, when it took one (no second syscall per file).
      const st = c.stat ?? fileStatOf(Deno.statSync(c.abs));
      if (st.size > limit) continue;
      files.push({ path: c.path, size: st.size, mtime: st.mtime });
    } catch {
      // vanished between listing and stat: counts as deleted below
    }
  }
  const out: Staleness = { changed: 0 };
  const head = info.commit ? await headCommit(root) : undefined;
  if (head && info.commit && head !== info.commit) {
    out.indexed_commit = info.commit;
    out.head = head;
  }
  if (statDigestOf(files) === info.stat_digest) return out;
  const indexedAt = Date.parse(String(info.indexed_at ?? ""));
  const indexed = new Set(
    await db.command<string[]>(["HKEYS", keysFor(info.project, info.branch).files]),
  );
  const present = new Set(files.map((f) => f.path));
  let changed = 0;
  for (const f of files) {
    if (Number.isFinite(indexedAt) ? f.mtime > indexedAt : !indexed.has(f.path)) changed++;
  }
  for (const p of indexed) if (!present.has(p)) changed++;
  out.changed = changed;
  return out;
}

/** The header note for a stale graph, or undefined when it is fresh. */
export function stalenessNote(s: Staleness | undefined): string | undefined {
  if (!s || s.changed === 0) return undefined;
  const files = `${s.changed} file${s.changed === 1 ? "" : "s"}`;
  const head = s.head && s.indexed_commit
    ? ` (HEAD ${s.indexed_commit.slice(0, 8)} -> ${s.head.slice(0, 8)})`
    : "";
  return `stale: ${files} changed since indexing${head}; call index_repo`;
}
