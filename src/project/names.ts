/**
 * Graph and key names for a (project, branch). The scheme is `code:{P}:B` plus Redis keys
 * `{P}:B_info` / `_files` / `_facts` / ..., where `{P}` is the project as a hash tag (see keysFor);
 * names are sanitised so that no project or branch name can produce a key outside it: letters, digits, `.`, `_` and `-` stay, every other
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

/**
 * The one place key and graph names are made. Every name of a project carries the project as a
 * Redis Cluster hash tag, `{project}`: on a cluster all of a project's keys (its branch graphs,
 * their staging graphs, metadata hashes and locks, its notes graph and history cache, its
 * identity) hash to one slot, so each operation (RENAME staging over live, a lock's Lua script,
 * GRAPH.COPY between branches) stays on one shard. sanitizeName escapes `{` and `}`, so a name
 * cannot end the tag early.
 */
export function projectTag(project: string): string {
  return `{${project}}`;
}

/** Keys of a (project, branch) given their sanitised names (see sanitizeName; never re-applied). */
export function keysFor(project: string, branch: string): GraphKeys {
  const base = `${projectTag(project)}:${branch}`;
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

/** Keys of a project as a whole (shared by its branches). */
export interface ProjectKeys {
  /** The notes graph (src/memory/notes.ts), which no indexing run touches. */
  memory: string;
  /** The git history cache (src/memory/history.ts). */
  history: string;
  /** The repository identity the project name is bound to (see bindProject). */
  identity: string;
}

export function projectKeys(project: string): ProjectKeys {
  const tag = projectTag(project);
  return { memory: `mem:${tag}`, history: `mem:${tag}~history`, identity: `${tag}~identity` };
}

/** `code:{project}:{branch}` -> [project, branch] (sanitised forms), or undefined for other keys. */
export function parseGraphName(name: string): [string, string] | undefined {
  const m = /^code:\{([^{}:~]+)\}:([^:~{}]+)$/.exec(name);
  return m ? [m[1], m[2]] : undefined;
}

// ---- names before the hash tags (read only to migrate them, see migrateNames) -----------------

/** The registry hash of project name -> repository identity, before per-project identity keys. */
export const LEGACY_PROJECTS_KEY = "cgraph:projects";

/** What a name of the earlier schemes was: a branch graph, a project-only graph, a notes graph. */
export type LegacyName =
  | { kind: "branch"; project: string; branch: string }
  | { kind: "project"; project: string }
  | { kind: "memory"; project: string };

export function parseLegacyName(name: string): LegacyName | undefined {
  let m = /^code:([^{}:~]+):([^{}:~]+)$/.exec(name);
  if (m) return { kind: "branch", project: m[1], branch: m[2] };
  m = /^code:([^{}:~]+)$/.exec(name);
  if (m) return { kind: "project", project: m[1] };
  m = /^mem:([^{}:~]+)$/.exec(name);
  if (m) return { kind: "memory", project: m[1] };
  return undefined;
}

/** The keys of a (project, branch) as the scheme before hash tags named them. */
export function legacyKeysFor(project: string, branch: string): GraphKeys {
  const base = `${project}:${branch}`;
  return {
    graph: `code:${base}`,
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

export function legacyProjectKeys(project: string): Omit<ProjectKeys, "identity"> {
  return { memory: `mem:${project}`, history: `mem:${project}~history` };
}
