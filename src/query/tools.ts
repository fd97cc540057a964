/**
 * THE tool table: every MCP tool and its CLI twin, defined once (name, description, zod input
 * schema, annotations, runner). The MCP server registers these; the CLI generates its commands
 * from them and prints exactly the tool's text, so the two cannot drift apart.
 */
import { join, relative, resolve, sep } from "node:path";
import { z } from "zod";
import { CgraphError } from "../errors.ts";
import type { IndexSummary } from "../index/indexer.ts";
import type { EdgeType } from "../graph/model.ts";
import { formatSummary, summaryJson } from "../index/report.ts";
import { readInfo } from "../project/catalog.ts";
import { type ProjectRef, resolveProject } from "../project/identity.ts";
import { displayName, sanitizeName } from "../project/names.ts";
import { context } from "./context.ts";
import { detectCycles } from "./cycles.ts";
import * as F from "./format.ts";
import { impact } from "./impact.ts";
import { calls, dependencies, RELATIONS } from "./neighbors.ts";
import { findPaths } from "./paths.ts";
import { listProjects } from "./projects.ts";
import { references } from "./references.ts";
import { normalizeFile, resolveSymbol } from "./resolve_symbol.ts";
import { search } from "./search.ts";
import type { CallOptions, ProjectArgs, Session } from "./session.ts";
import { stats } from "./stats.ts";
import { clamp, COMMON, projectArgs, READ, type ToolAnnotations, WRITE } from "./tool_kit.ts";
import { DOCS_BY_ID } from "../db/queries.ts";
import { ASK_TOOLS } from "../ask/tools.ts";
import { MEMORY_TOOLS, memoryHint } from "../memory/tools.ts";

/** What a tool answers: compact text, and the same facts as data (JSON / structuredContent). */
export interface ToolOutput {
  text: string;
  data: Record<string, unknown>;
}

export type { ToolAnnotations } from "./tool_kit.ts";

export interface CliSpec {
  /** `cgraph <command>` */
  command: string;
  /** Arguments taken positionally, in order (the rest are --options). */
  positionals: string[];
  /** The last positional takes every remaining word (`cgraph search parse url`). */
  rest?: boolean;
  summary: string;
}

export interface ToolDef {
  name: string;
  description: string;
  shape: z.ZodRawShape;
  annotations: ToolAnnotations;
  /** The CLI twin; absent when an existing command plays that part (index_repo: `cgraph index`). */
  cli?: CliSpec;
  run(session: Session, args: Record<string, unknown>, call: CallOptions): Promise<Answer>;
}

/** A runner's answer: data, its text rendering (without notes), and header notes. */
export interface Answer {
  data: Record<string, unknown>;
  text: (notes: string[]) => string;
  notes: string[];
}

// ---- shared argument schemas ------------------------------------------------------------------

// Described once, in the server's instructions: a symbol is a name, a qualified name or its tail;
// file narrows it (a path or its tail). Empty strings are refused by the resolver.
const symbolArg = z.string();
const fileArg = z.string().optional();
const kindArg = z.string().optional().describe(
  "Function|Method|Class|Interface|Struct|Enum|Trait|Module",
);
const int = () => z.number();
/** Paging and what lists leave out by default (tests/examples, name-only guesses). */
const LIST = {
  limit: int().default(50),
  offset: int().default(0),
  include_tests: z.boolean().default(false),
  include_guesses: z.boolean().default(false),
};

function tool<S extends z.ZodRawShape>(def: {
  name: string;
  description: string;
  shape: S;
  annotations: ToolAnnotations;
  cli?: CliSpec;
  run(
    session: Session,
    args: z.output<z.ZodObject<S & typeof COMMON>>,
    call: CallOptions,
  ): Promise<Answer>;
}): ToolDef {
  return {
    ...def,
    shape: { ...def.shape, ...COMMON },
    run: def.run as ToolDef["run"],
  };
}

function answer(
  data: { type: string } & object,
  render: (notes: string[]) => string,
  notes: string[],
): Answer {
  return { data: data as Record<string, unknown>, text: render, notes };
}

// ---- indexing ---------------------------------------------------------------------------------

/** The repository a call means, for indexing: a path, a known project's root, or the default. */
async function refForIndexing(session: Session, a: ProjectArgs): Promise<ProjectRef> {
  if (a.path || !a.project) return (await session.refFor(a)) as ProjectRef;
  const ref = await session.refFor(a);
  if ("root" in ref) return ref as ProjectRef;
  const info = await readInfo(await session.db(), ref.project, ref.branch);
  if (!info?.root) {
    throw new CgraphError(
      `Project '${a.project}' has no known root to index from.`,
      "Pass path=<repository root>.",
    );
  }
  return await resolveProject(info.root, { project: displayName(ref.project), branch: a.branch });
}

function exists(path: string): Promise<boolean> {
  return Deno.stat(path).then((s) => s.isFile, () => false);
}

function summaryAnswer(s: IndexSummary, first?: string): Answer {
  return answer(
    { type: "index", ...summaryJson(s) },
    (notes) => {
      const text = formatSummary(s);
      const lines = first ? [F.header(first, notes), text] : [text];
      if (!first && notes.length) lines[0] = F.header(lines[0], notes);
      return lines.join("\n");
    },
    [],
  );
}

// ---- the table --------------------------------------------------------------------------------

export const TOOLS: ToolDef[] = [
  tool({
    name: "index_repo",
    description:
      "Index a repository into the code graph. Incremental by default (only changed files " +
      "re-parsed); full=true rebuilds. Tools index on first use; call this when answers say " +
      "stale.",
    shape: {
      incremental: z.boolean().default(true),
      full: z.boolean().default(false),
    },
    annotations: WRITE,
    async run(session, a, call) {
      const ref = await refForIndexing(session, a);
      const full = a.full || a.incremental === false;
      return summaryAnswer(await session.index(ref, { full, onProgress: call.onProgress }));
    },
  }),
  tool({
    name: "index_file",
    description:
      "After editing a file: incremental re-index of its project (only changed files are " +
      "re-parsed); says what changed.",
    shape: { file: z.string() },
    annotations: WRITE,
    cli: { command: "index-file", positionals: ["file"], summary: "re-index after editing a file" },
    async run(session, a, call) {
      const ref = await refForIndexing(session, a);
      // Relative to the project root, or absolute, or relative to the current directory.
      let file = normalizeFile(a.file, ref.root);
      if (!file) throw new CgraphError("Give the file to re-index.");
      const fromCwd = relative(ref.root, resolve(a.file));
      if (
        !(await exists(join(ref.root, file))) && !fromCwd.startsWith("..") &&
        await exists(resolve(a.file))
      ) {
        file = fromCwd.split(sep).join("/");
      }
      if (!(await exists(join(ref.root, file))) && !(await session.inGraph(ref, file))) {
        throw new CgraphError(
          `No file '${file}' in ${ref.root}, nor in its graph.`,
          "Give a path relative to the project root (or an absolute one).",
        );
      }
      const summary = await session.index(ref, { onProgress: call.onProgress });
      const f = summary.files;
      const skipped = f.skipped.find((s) => s.path === file);
      const status = f.added.includes(file)
        ? "added"
        : f.modified.includes(file)
        ? "modified"
        : f.deleted.includes(file)
        ? "deleted"
        : skipped
        ? `skipped (${skipped.reason})`
        : (await session.inGraph(ref, file))
        ? "unchanged"
        : "not indexed (unsupported language or ignored)";
      return summaryAnswer(
        summary,
        `index_file ${file}: ${status}; ran an incremental index (only changed files re-parsed)`,
      );
    },
  }),
  tool({
    name: "get_callers",
    description:
      "Who calls a symbol (or file), to depth 1-10: file:line, name, kind, line of the " +
      "call.",
    shape: {
      symbol: symbolArg,
      file: fileArg,
      depth: int().default(1),
      ...LIST,
    },
    annotations: READ,
    cli: { command: "callers", positionals: ["symbol"], summary: "who calls a symbol" },
    run: (s, a, c) => runCalls("callers", s, a, c),
  }),
  tool({
    name: "get_callees",
    description:
      "What a symbol (or file) calls, to depth 1-10: file:line, name, kind, line of the " +
      "call.",
    shape: {
      symbol: symbolArg,
      file: fileArg,
      depth: int().default(1),
      ...LIST,
    },
    annotations: READ,
    cli: { command: "callees", positionals: ["symbol"], summary: "what a symbol calls" },
    run: (s, a, c) => runCalls("callees", s, a, c),
  }),
  tool({
    name: "get_dependencies",
    description:
      "Edges of a symbol or file by relation (CALLS, IMPORTS, EXTENDS, IMPLEMENTS, DEFINES) " +
      "and direction (OUT: uses, IN: used by, BOTH). A symbol's IMPORTS are its file's.",
    shape: {
      symbol: z.string().optional(),
      file: fileArg,
      relations: z.array(z.enum(RELATIONS as [EdgeType, ...EdgeType[]])).optional(),
      direction: z.enum(["OUT", "IN", "BOTH"]).default("OUT"),
      limit: int().default(50),
    },
    annotations: READ,
    cli: { command: "deps", positionals: ["symbol"], summary: "edges of a symbol or file" },
    async run(session, a, call) {
      const notes: string[] = [];
      const limit = clamp("limit", a.limit, 1, 500, notes);
      const t = await session.target(projectArgs(a), call);
      const resolved = await resolveSymbol(
        t.reader,
        { name: a.symbol, file: a.file, allowFiles: true },
        t.root,
      );
      const rels = a.relations?.length
        ? [...new Set(a.relations)]
        : RELATIONS.filter((r) => r !== "DEFINES");
      const r = await dependencies(t.reader, resolved, rels, a.direction, limit);
      return answer(r, (n) => F.formatDependencies(r, n), [...notes, ...t.notes]);
    },
  }),
  tool({
    name: "impact_analysis",
    description:
      "What a change affects: transitive callers, subclasses, implementations (IN) or what " +
      "it relies on (OUT), with distance, grouped by file. depth 1-10.",
    shape: {
      symbol: symbolArg,
      file: fileArg,
      direction: z.enum(["IN", "OUT"]).default("IN"),
      depth: int().default(3),
      limit: int().default(100),
    },
    annotations: READ,
    cli: { command: "impact", positionals: ["symbol"], summary: "what a change affects" },
    async run(session, a, call) {
      const notes: string[] = [];
      const depth = clamp("depth", a.depth, 1, 10, notes);
      const limit = clamp("limit", a.limit, 1, 1000, notes);
      const t = await session.target(projectArgs(a), call);
      const resolved = await resolveSymbol(t.reader, { name: a.symbol, file: a.file }, t.root);
      const r = await impact(t.reader, resolved, a.direction, depth, limit);
      const hint = await memoryHint(
        t,
        r.groups.flatMap((g) => [g.target, ...g.files.flatMap((f) => f.links.map((l) => l.node))]),
      );
      return answer(r, (n) => F.formatImpact(r, n), [
        ...notes,
        ...t.notes,
        ...(hint ? [hint] : []),
      ]);
    },
  }),
  tool({
    name: "find_path",
    description:
      "Call chains from a symbol or file to a symbol, shortest first, at most max_depth " +
      "calls (1-10).",
    shape: {
      from: symbolArg,
      to: symbolArg,
      max_depth: int().default(6),
      limit: int().default(5),
    },
    annotations: READ,
    cli: { command: "path", positionals: ["from", "to"], summary: "call chains from -> to" },
    async run(session, a, call) {
      const notes: string[] = [];
      const maxDepth = clamp("max_depth", a.max_depth, 1, 10, notes);
      const limit = clamp("limit", a.limit, 1, 20, notes);
      const t = await session.target(projectArgs(a), call);
      const from = await resolveSymbol(t.reader, { name: a.from, allowFiles: true }, t.root);
      const to = await resolveSymbol(t.reader, { name: a.to, allowFiles: true }, t.root);
      const r = await findPaths(t.reader, from, to, maxDepth, limit);
      return answer(r, (n) => F.formatPaths(r, n), [...notes, ...t.notes]);
    },
  }),
  tool({
    name: "search_code",
    description:
      "Find symbols by words of their names (snake/camelCase split) or docs. Ranked: exact, " +
      "prefix, name words, qualified name, doc. Filters: kind, language.",
    shape: {
      query: z.string(),
      kind: kindArg,
      language: z.string().optional(),
      limit: int().default(20),
    },
    annotations: READ,
    cli: {
      command: "search",
      positionals: ["query"],
      rest: true,
      summary: "find symbols by name words",
    },
    async run(session, a, call) {
      const notes: string[] = [];
      const limit = clamp("limit", a.limit, 1, 200, notes);
      const t = await session.target(projectArgs(a), call);
      const r = await search(t.reader, a.query, { kind: a.kind, language: a.language, limit });
      return answer(r, (n) => F.formatSearch(r, n), [...notes, ...t.notes]);
    },
  }),
  tool({
    name: "find_symbol",
    description:
      "Where a symbol is defined: file:line-end, name with parameters, kind, first doc line. " +
      "Unknown names get 'did you mean'.",
    shape: { name: symbolArg, file: fileArg, kind: kindArg },
    annotations: READ,
    cli: { command: "symbol", positionals: ["name"], summary: "where a symbol is defined" },
    async run(session, a, call) {
      const t = await session.target(projectArgs(a), call);
      const r = await resolveSymbol(t.reader, { name: a.name, file: a.file, kind: a.kind }, t.root);
      const docs = await t.reader.rows(DOCS_BY_ID, { ids: r.matches.map((m) => m.id) });
      const docOf = new Map(docs.map((d) => [String(d.id), String(d.doc ?? "")]));
      for (const m of r.matches) {
        const first = docOf.get(m.id)?.split("\n")[0].trim();
        if (first) m.doc = first;
      }
      return answer({ type: "symbols", ...r }, (n) => F.formatSymbols(r, n), t.notes);
    },
  }),
  tool({
    name: "find_references",
    description: "Every use of a symbol: calls (file:line), imports of its file, subclasses, " +
      "implementations.",
    shape: { symbol: symbolArg, file: fileArg, limit: int().default(50) },
    annotations: READ,
    cli: { command: "refs", positionals: ["symbol"], summary: "every use of a symbol" },
    async run(session, a, call) {
      const notes: string[] = [];
      const limit = clamp("limit", a.limit, 1, 500, notes);
      const t = await session.target(projectArgs(a), call);
      const resolved = await resolveSymbol(t.reader, { name: a.symbol, file: a.file }, t.root);
      const r = await references(t.reader, resolved, limit);
      return answer(r, (n) => F.formatReferences(r, n), [...notes, ...t.notes]);
    },
  }),
  tool({
    name: "get_context",
    description: "Overview of a symbol or file in one call: definition, signature, doc, callers, " +
      "callees, parents/children, imports; sections capped.",
    shape: { symbol: z.string().optional(), file: fileArg },
    annotations: READ,
    cli: { command: "context", positionals: ["symbol"], summary: "360-degree view of a symbol" },
    async run(session, a, call) {
      const t = await session.target(projectArgs(a), call);
      const resolved = await resolveSymbol(
        t.reader,
        { name: a.symbol, file: a.file, allowFiles: true },
        t.root,
      );
      // Several definitions: the first few in full; the header says how to narrow.
      const r = await context(t.reader, { ...resolved, matches: resolved.matches.slice(0, 3) });
      const listed = r.groups.flatMap((g) => [
        g.target,
        ...[g.callers, g.callees, g.parents, g.children].flatMap((s) => s.links.map((l) => l.node)),
      ]);
      const hint = await memoryHint(t, listed);
      return answer(r, (n) => F.formatContext(r, n), [...t.notes, ...(hint ? [hint] : [])]);
    },
  }),
  tool({
    name: "detect_circular",
    description: "Cycles in CALLS (mutual recursion) or IMPORTS (between files), shortest first.",
    shape: {
      relation: z.enum(["CALLS", "IMPORTS"]).default("CALLS"),
      limit: int().default(20),
    },
    annotations: READ,
    cli: { command: "cycles", positionals: [], summary: "CALLS or IMPORTS cycles" },
    async run(session, a, call) {
      const notes: string[] = [];
      const limit = clamp("limit", a.limit, 1, 200, notes);
      const t = await session.target(projectArgs(a), call);
      const r = await detectCycles(t.reader, a.relation, limit);
      return answer(r, (n) => F.formatCycles(r, n), [...notes, ...t.notes]);
    },
  }),
  tool({
    name: "get_stats",
    description:
      "Graph size: files, symbols by kind, edges by type, languages; when and at which " +
      "commit it was indexed.",
    shape: {},
    annotations: READ,
    cli: { command: "stats", positionals: [], summary: "size of a project's graph" },
    async run(session, a, call) {
      const t = await session.target(projectArgs(a), call);
      const r = await stats(t.reader, t.info);
      return answer(r, (n) => F.formatStats(r, n), t.notes);
    },
  }),
  tool({
    name: "list_projects",
    description: "Indexed projects and branches: counts, index time, root.",
    shape: {},
    annotations: READ,
    cli: { command: "list", positionals: [], summary: "indexed projects and branches" },
    async run(session, a) {
      const r = await listProjects(await session.db());
      if (a.project) {
        const p = displayName(sanitizeName(a.project));
        r.projects = r.projects.filter((x) => x.project === p);
        r.total = r.projects.length;
      }
      return answer(r, (n) => F.formatProjects(r, n), []);
    },
  }),
  ...ASK_TOOLS,
  ...MEMORY_TOOLS,
];

/** The structural tools (everything but ask and memory): the set the tools/list budget is for. */
export const STRUCTURAL_TOOL_NAMES: string[] = TOOLS
  .filter((t) => !ASK_TOOLS.includes(t) && !MEMORY_TOOLS.includes(t))
  .map((t) => t.name);

async function runCalls(
  type: "callers" | "callees",
  session: Session,
  a: ProjectArgs & {
    symbol: string;
    file?: string;
    depth: number;
    limit: number;
    offset: number;
    include_tests: boolean;
    include_guesses: boolean;
    format?: "text" | "json";
  },
  call: CallOptions,
): Promise<Answer> {
  const notes: string[] = [];
  const depth = clamp("depth", a.depth, 1, 10, notes);
  const limit = clamp("limit", a.limit, 1, 500, notes);
  const t = await session.target(projectArgs(a), call);
  const resolved = await resolveSymbol(
    t.reader,
    { name: a.symbol, file: a.file, allowFiles: true },
    t.root,
  );
  const offset = clamp("offset", a.offset, 0, 100_000, notes);
  const r = await calls(t.reader, resolved, type, depth, {
    limit,
    offset,
    // JSON keeps everything (guesses with their confidence, tests); text leaves them out.
    includeTests: a.include_tests || a.format === "json",
    includeGuesses: a.include_guesses || a.format === "json",
  });
  return answer(r, (n) => F.formatCalls(r, n), [...notes, ...t.notes]);
}

export function toolByName(name: string): ToolDef | undefined {
  return TOOLS.find((t) => t.name === name);
}

/**
 * JSON answers leave out internal ids (they mean nothing outside the database), and nodes met on
 * the way (neighbours, hops, referrers, cycle members) carry only what locates them.
 */
function jsonReplacer(key: string, value: unknown): unknown {
  if (key === "id" || key === "via") return undefined;
  if ((key === "node" || key === "from") && isNode(value)) return slim(value);
  if (key === "nodes" && Array.isArray(value)) return value.map((v) => (isNode(v) ? slim(v) : v));
  return value;
}

function isNode(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && "qualified_name" in v && "kind" in v;
}

function slim(n: Record<string, unknown>): Record<string, unknown> {
  return { qualified_name: n.qualified_name, kind: n.kind, path: n.path, line: n.line };
}

export interface Executed {
  text: string;
  /** The JSON object (format json), also sent as MCP structuredContent. */
  json?: Record<string, unknown>;
}

/**
 * Validates arguments, runs a tool, and renders its answer as text or JSON. Errors are thrown
 * (CgraphError for anything the caller can fix); the MCP server and the CLI render them.
 */
export async function execute(
  def: ToolDef,
  session: Session,
  rawArgs: Record<string, unknown>,
  call: CallOptions = {},
): Promise<Executed> {
  const bad = badStrings(rawArgs);
  if (bad) throw new CgraphError(`Invalid arguments for ${def.name}: ${bad}`);
  const parsed = z.object(def.shape).strict().safeParse(rawArgs);
  if (!parsed.success) throw new CgraphError(argumentError(def, parsed.error));
  const args = parsed.data as Record<string, unknown>;
  let result: Answer;
  try {
    result = await def.run(session, args, call);
  } catch (err) {
    await session.noteError(err);
    throw err;
  }
  if (args.format === "json") {
    const notes = result.notes.length ? { notes: result.notes } : {};
    const text = JSON.stringify({ ...result.data, ...notes }, jsonReplacer);
    return { text, json: JSON.parse(text) };
  }
  return { text: result.text(result.notes) };
}

/** Longest string an argument may be, by name (default 1,000 characters). */
const STRING_CAPS: Record<string, number> = {
  text: 65_536,
  cypher: 20_000,
  question: 4000,
  query: 500,
};

/**
 * Strings no tool takes: control characters (NUL cuts a parameter short in the database) and
 * bidirectional overrides (text that reads differently than it is), and strings past their cap.
 */
export function badStrings(args: Record<string, unknown>): string | undefined {
  // deno-lint-ignore no-control-regex
  const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;
  const check = (name: string, v: unknown): string | undefined => {
    if (typeof v === "string") {
      const cap = STRING_CAPS[name] ?? 1000;
      if (v.length > cap) return `${name}: at most ${cap} characters (got ${v.length})`;
      const m = v.match(control);
      if (m) {
        const code = m[0].charCodeAt(0).toString(16).padStart(4, "0");
        return `${name}: control or direction character U+${code} is not allowed`;
      }
    } else if (Array.isArray(v)) {
      for (const x of v) {
        const problem = check(name, x);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  for (const [name, v] of Object.entries(args ?? {})) {
    const problem = check(name, v);
    if (problem) return problem;
  }
  return undefined;
}

/** One line per problem: `depth: expected number, received string`. */
export function argumentError(def: ToolDef, error: z.ZodError): string {
  const problems = error.issues.map((i) => {
    const where = i.path.length ? i.path.join(".") : "arguments";
    return `${where}: ${i.message}`;
  });
  return `Invalid arguments for ${def.name}: ${problems.join("; ")}`;
}
