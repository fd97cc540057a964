/**
 * Graph and key names for a (project, branch). The scheme is `code:{project}:{branch}` plus Redis
 * keys `{project}:{branch}_info` / `_files` / `_facts`; names are sanitised so that no project or
 * branch name can produce a key outside it: letters, digits, `.`, `_` and `-` stay, every other
 * character (including `:` and `/`) is percent-encoded, which keeps distinct names distinct.
 */
import { createHash } from "node:crypto";

export const DEFAULT_BRANCH = "_default";
const MAX_NAME = 120;

export function sanitizeName(raw: string): string {
  const trimmed = raw.trim();
  if (!trimmed) return "_";
  let out = "";
  for (const ch of trimmed) {
    if (/^[\p{L}\p{N}._-]$/u.test(ch)) out += ch;
    else {
      for (const byte of new TextEncoder().encode(ch)) {
        out += "%" + byte.toString(16).toUpperCase().padStart(2, "0");
      }
    }
  }
  if (out.length > MAX_NAME) {
    const digest = createHash("sha256").update(trimmed).digest("hex").slice(0, 12);
    // Cut on a whole escape, then a digest of the full name keeps long names distinct.
    out = `${out.slice(0, MAX_NAME - 15).replace(/%[0-9A-F]?$/, "")}%7E${digest}`;
  }
  return out;
}

/** Inverse of sanitizeName for display (a shortened name stays shortened). */
export function displayName(name: string): string {
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

export interface GraphKeys {
  graph: string;
  staging: string;
  info: string;
  files: string;
  facts: string;
  /** Per file: digest of the edges it owns and the files those edges touch. */
  edges: string;
  /** Per file: the edges it owns (JSON), read back only when they must be deleted. */
  edgeLists: string;
  /** Per file: `size mtime ctime inode` when last hashed (the stat cache, see index/stat_cache.ts). */
  stat: string;
  lock: string;
  pending: string;
}

/** Keys of a (project, branch) given their sanitised names (see sanitizeName; never re-applied). */
export function keysFor(project: string, branch: string): GraphKeys {
  const base = `${project}:${branch}`;
  return {
    graph: `code:${base}`,
    // `~` never survives sanitizeName unescaped, so these cannot collide with a real branch.
    staging: `code:${base}~staging`,
    info: `${base}_info`,
    files: `${base}_files`,
    facts: `${base}_facts`,
    edges: `${base}_edges`,
    edgeLists: `${base}_edgelists`,
    stat: `${base}_stat`,
    lock: `${base}~lock`,
    pending: `${base}~pending`,
  };
}

/** Registry of project name -> repository identity, to refuse two repositories under one name. */
export const PROJECTS_KEY = "cgraph:projects";

/** `code:{project}:{branch}` -> [project, branch] (sanitised forms), or undefined for other keys. */
export function parseGraphName(name: string): [string, string] | undefined {
  const m = /^code:([^:~]+):([^:~]+)$/.exec(name);
  return m ? [m[1], m[2]] : undefined;
}
