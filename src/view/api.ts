/**
 * The page's JSON API: one GET endpoint per view, each a thin wrapper over src/query (and, for the
 * side panel, the memory_linked_search tool itself), answering `{...}` or `{error, hint}`.
 *
 *   api/projects                              indexed projects and branches, and the default
 *   api/search?q=&kind=&language=&limit=      search_code's ranking
 *   api/neighbors?symbol|id&dir=&depth=       callers / callees (get_callers, get_callees)
 *   api/impact?symbol|id&depth=               impact_analysis (direction IN)
 *   api/modules?level=file|dir|auto&cycles=1  IMPORTS map, strongly connected components marked
 *               &groups=N                    (auto: by file up to N files, else in N groups at most)
 *   api/cycles                                detect_circular over CALLS
 *   api/node?id=                              side panel: signature, doc, snippet, notes, decisions
 * Every call takes `project` and `branch` (default: the path `cgraph view` was started for).
 */
import { CgraphError } from "../errors.ts";
import type { NodeRef } from "../query/graph.ts";
import { displayName } from "../project/names.ts";
import { listProjects } from "../query/projects.ts";
import { NotFoundError, type Resolved, resolveSymbol } from "../query/resolve_symbol.ts";
import type { ProjectArgs, Session, Target } from "../query/session.ts";
import { execute } from "../tools/execute.ts";
import { toolByName } from "../tools/registry.ts";
import { equivalent } from "./equivalent.ts";
import {
  callCycles,
  type Direction,
  impactView,
  neighborhood,
  searchView,
  type ViewGraph,
  viewNode,
} from "./graph_data.ts";
import { AUTO_GROUPS, type ModuleLevel, moduleMap } from "./modules.ts";
import { snippet } from "./snippet.ts";

type Params = URLSearchParams;

function int(p: Params, name: string, dflt: number, lo: number, hi: number): number {
  const raw = p.get(name);
  const n = raw === null || raw.trim() === "" ? dflt : Number(raw);
  if (!Number.isFinite(n)) throw new CgraphError(`${name} must be a number, not '${raw}'.`);
  return Math.min(hi, Math.max(lo, Math.trunc(n)));
}

function projectOf(p: Params): ProjectArgs {
  return {
    project: p.get("project") || undefined,
    branch: p.get("branch") || undefined,
  };
}

/**
 * The project and branch a call answered for, as the CLI and MCP name them: always spelled out in
 * the equivalent commands, so they mean the same graph wherever they are run.
 */
function named(t: Target): { project: string; branch: string } {
  return { project: displayName(t.project), branch: displayName(t.branch) };
}

/** The definitions a call is about: a node id the page got earlier, or a name as search takes. */
async function resolveFrom(t: Target, p: Params): Promise<Resolved> {
  const id = p.get("id");
  if (id) {
    const node = (await t.reader.byIds([id])).get(id);
    if (!node) throw new NotFoundError(`No node with id '${id}' in this graph.`, []);
    return { query: node.qualified_name, matches: [node], total: 1 };
  }
  const symbol = p.get("symbol") ?? "";
  if (!symbol.trim()) throw new CgraphError("Give a symbol (a name or a qualified name).");
  return await resolveSymbol(
    t.reader,
    { name: symbol, file: p.get("file") || undefined, allowFiles: true },
    t.root,
  );
}

/** What to name in the equivalent command: the symbol and, for one of several, its file. */
function symbolArgs(r: Resolved): { symbol: string; file?: string } {
  const m = r.matches[0];
  if (m.kind === "File") return { symbol: m.path };
  return { symbol: m.qualified_name, ...(r.matches.length === 1 ? { file: m.path } : {}) };
}

function withTool(
  g: ViewGraph,
  name: string,
  args: Record<string, unknown>,
  t: Target,
): ViewGraph & { commands: ReturnType<typeof equivalent>; project: string; branch: string } {
  return {
    ...g,
    notes: [...g.notes, ...t.notes],
    tool: { name, args },
    commands: equivalent(name, args, named(t)),
    ...named(t),
  };
}

export type ApiRoute = (session: Session, p: Params) => Promise<unknown>;

export const API: Record<string, ApiRoute> = {
  async projects(session) {
    const list = await listProjects(await session.db());
    const def = await session.defaultRef().catch(() => undefined);
    return {
      projects: list.projects.map((e) => ({
        project: e.project,
        branch: e.branch,
        files: e.files,
        symbols: e.symbols,
        root: e.root,
      })),
      default: def ? { root: def.root, project: def.project, branch: def.branch } : undefined,
    };
  },

  async search(session, p) {
    const t = await session.target(projectOf(p));
    const q = p.get("q") ?? "";
    const limit = int(p, "limit", 20, 1, 200);
    const args = {
      query: q,
      kind: p.get("kind") || undefined,
      language: p.get("language") || undefined,
      limit,
    };
    return {
      ...await searchView(t.reader, q, args),
      commands: equivalent("search_code", args, named(t)),
    };
  },

  async neighbors(session, p) {
    const t = await session.target(projectOf(p));
    const r = await resolveFrom(t, p);
    const raw = p.get("dir") ?? "callers";
    if (!["callers", "callees", "both"].includes(raw)) {
      throw new CgraphError(`dir must be callers, callees or both, not '${raw}'.`);
    }
    const dir = raw as Direction;
    const depth = int(p, "depth", 1, 1, 10);
    const limit = int(p, "limit", 500, 1, 2000);
    const g = await neighborhood(t.reader, r, dir, depth, limit);
    const args = { ...symbolArgs(r), depth, include_tests: true, include_guesses: true };
    const name = dir === "callees" ? "get_callees" : "get_callers";
    const out = withTool(g, name, args, t);
    if (dir === "both") {
      // Two calls answer it: callers, then callees.
      const callees = equivalent("get_callees", args, named(t));
      out.commands = {
        cli: `${out.commands.cli}; ${callees.cli}`,
        mcp: `${out.commands.mcp}\n${callees.mcp}`,
      };
    }
    return out;
  },

  async impact(session, p) {
    const t = await session.target(projectOf(p));
    const r = await resolveFrom(t, p);
    const depth = int(p, "depth", 3, 1, 10);
    const limit = int(p, "limit", 500, 1, 1000);
    const g = await impactView(t.reader, r, depth, limit);
    return withTool(g, "impact_analysis", { ...symbolArgs(r), depth, limit }, t);
  },

  async modules(session, p) {
    const t = await session.target(projectOf(p));
    const level = (p.get("level") ?? "auto") as ModuleLevel;
    if (!["file", "dir", "auto"].includes(level)) {
      throw new CgraphError(`level must be file, dir or auto, not '${level}'.`);
    }
    const g = await moduleMap(t.reader, {
      level,
      cyclesOnly: p.get("cycles") === "1",
      groups: int(p, "groups", AUTO_GROUPS, 2, 5000),
    });
    return withTool(g, "detect_circular", { relation: "IMPORTS" }, t);
  },

  async cycles(session, p) {
    const t = await session.target(projectOf(p));
    const limit = int(p, "limit", 50, 1, 200);
    const g = await callCycles(t.reader, limit);
    return withTool(g, "detect_circular", { relation: "CALLS", limit }, t);
  },

  async node(session, p) {
    const t = await session.target(projectOf(p));
    const id = p.get("id") ?? "";
    const node = id ? (await t.reader.byIds([id])).get(id) : undefined;
    if (!node) throw new NotFoundError(`No node with id '${id}' in this graph.`, []);
    return await panel(session, t, node, p);
  },
};

/** The side panel: the node, its memory (notes, decisions, commits), its source, the commands. */
async function panel(session: Session, t: Target, node: NodeRef, p: Params) {
  const file = node.kind === "File";
  const args = file ? { file: node.path } : { symbol: node.qualified_name, file: node.path };
  const memory = await memoryOf(session, node, args, p);
  return {
    node: viewNode(node),
    ...(node.end_line ? { end_line: node.end_line } : {}),
    doc: memory?.doc,
    notes: memory?.notes ?? [],
    decisions: memory?.decisions ?? [],
    commits: (memory?.commits ?? []).slice(0, 5),
    snippet: await snippet(t.root, node),
    commands: {
      context: equivalent("get_context", args, named(t)),
      memory: equivalent("memory_linked_search", args, named(t)),
      callers: equivalent("get_callers", args, named(t)),
      impact: equivalent("impact_analysis", args, named(t)),
    },
  };
}

interface MemoryJson {
  doc?: string;
  notes?: unknown[];
  decisions?: unknown[];
  commits?: unknown[];
  target?: { path: string; line: number };
}

/** memory_linked_search's JSON answer for this one definition (of the groups it returns). */
async function memoryOf(
  session: Session,
  node: NodeRef,
  args: Record<string, unknown>,
  p: Params,
): Promise<MemoryJson | undefined> {
  const def = toolByName("memory_linked_search");
  if (!def) return undefined;
  const out = await execute(def, session, {
    ...args,
    ...projectOf(p),
    format: "json",
  });
  const groups = (out.json?.groups ?? []) as MemoryJson[];
  return groups.find((g) => g.target?.path === node.path && g.target?.line === node.line) ??
    groups[0];
}
