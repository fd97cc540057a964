/**
 * The walk a long-lived process keeps between runs, and its update from the paths file events
 * named: a watched edit re-stats the files it touched instead of listing and stat-ing the whole
 * repository. Anything that could change more than those files' own entries (a directory, a
 * symlink, a deletion, `.gitignore`, a project file, a C or C++ file coming that can change what
 * language a header is) makes the caller walk in full, as does a kept walk older than
 * keptWalkMs() (a dropped event is caught then).
 */
import { join } from "node:path";
import { isManifestName, languageOf } from "../lang/registry.ts";
import type { Manifests } from "./manifests.ts";
import { type Candidate, fileStatOf, ignoreList, isIgnoredPath, type WalkResult } from "./walk.ts";

export interface KeptWalk {
  /** The walk as it was (candidates in path order, the walk's own skipped files). */
  walk: WalkResult;
  /** When the tree was last walked in full (ms since the epoch). */
  walkedAt: number;
  /** Every path the walk listed, supported or not. */
  listed: Set<string>;
  manifests: Manifests;
}

/** What to keep of a walk (copied: the run goes on to add to its skipped list). */
export function keepWalk(walk: WalkResult, manifests: Manifests, walkedAt = Date.now()): KeptWalk {
  return {
    walk: { ...walk, files: [...walk.files], skipped: [...walk.skipped] },
    walkedAt,
    listed: new Set(walk.listed),
    manifests,
  };
}

const C_FAMILY = /\.(c|cc|cpp|cxx|c\+\+|h|hh|hpp|hxx)$/i;

/**
 * How long a kept walk stands in for a full one (CGRAPH_WATCH_WALK_MS, default 30 s): an event the
 * system dropped is caught by the next full walk.
 */
export function keptWalkMs(): number {
  const n = Number(Deno.env.get("CGRAPH_WATCH_WALK_MS"));
  return Deno.env.get("CGRAPH_WATCH_WALK_MS") !== undefined && Number.isFinite(n) && n >= 0
    ? n
    : 30_000;
}

/**
 * The walk after `changed` (relative paths) changed, from the kept one; undefined when only a
 * full walk can say.
 */
export function updateWalk(
  root: string,
  kept: KeptWalk,
  changed: string[],
): { walk: WalkResult; kept: KeptWalk } | undefined {
  if (Date.now() - kept.walkedAt > keptWalkMs()) return undefined;
  const ignores = ignoreList();
  const updated = new Map<string, Candidate>();
  const known = new Set(kept.walk.files.map((c) => c.path));
  const added: string[] = [];
  const addedCandidates: Candidate[] = [];
  let unsupported = kept.walk.unsupported;
  for (const path of new Set(changed)) {
    if (!path || isIgnoredPath(path, ignores)) continue;
    const name = path.slice(path.lastIndexOf("/") + 1);
    if (name === ".gitignore" || isManifestName(name)) return undefined;
    let st: Deno.FileInfo;
    try {
      st = Deno.lstatSync(join(root, path));
    } catch {
      // Gone: a deletion (or a directory moved away) is left to the full walk; a file that came
      // and went between two runs changes nothing.
      if (kept.listed.has(path)) return undefined;
      const dir = `${path}/`;
      for (const p of kept.listed) if (p.startsWith(dir)) return undefined;
      continue;
    }
    if (!st.isFile) return undefined; // a directory, a symlink
    if (known.has(path)) {
      updated.set(path, { ...kept.walk.files.find((c) => c.path === path)!, stat: fileStatOf(st) });
      continue;
    }
    if (kept.walk.skipped.some((s) => s.path === path)) return undefined;
    if (kept.listed.has(path)) continue; // an unsupported file, still there
    if (C_FAMILY.test(path)) return undefined;
    const language = languageOf(path, false);
    added.push(path);
    if (!language) unsupported++;
    else addedCandidates.push({ path, abs: join(root, path), language, stat: fileStatOf(st) });
  }
  let files = kept.walk.files.map((c) => updated.get(c.path) ?? c);
  let listed = kept.walk.listed;
  if (added.length) {
    const byPath = (a: { path: string }, b: { path: string }) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
    files = [...files, ...addedCandidates].sort(byPath);
    listed = [...listed, ...added].sort();
  }
  const walk: WalkResult = {
    files,
    skipped: [...kept.walk.skipped],
    unsupported,
    manifests: kept.walk.manifests,
    listed,
  };
  const next: KeptWalk = {
    walk: { ...walk, files: [...files], skipped: [...walk.skipped] },
    walkedAt: kept.walkedAt,
    listed: added.length ? new Set(listed) : kept.listed,
    manifests: kept.manifests,
  };
  return { walk, kept: next };
}
