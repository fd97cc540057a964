/**
 * The structural tools (indexing, search, callers/callees, dependencies, impact, paths, context,
 * cycles, stats, projects): each defined once (name, description, zod input schema, annotations,
 * runner). src/tools/registry.ts gathers them with the ask and memory tools into the table the
 * MCP server registers and the CLI generates its commands from.
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
import { readDiff } from "./diff.ts";
import { diffImpact } from "./diff_impact.ts";
import * as F from "./format.ts";
import { impact, IMPACT_RELATIONS } from "./impact.ts";
import { dependentsAcross } from "./across.ts";
import { calls, dependencies, RELATIONS } from "./neighbors.ts";
import { findPaths } from "./paths.ts";
import { listProjects } from "./projects.ts";
import { references } from "./references.ts";
import { normalizeFile, resolveSymbol } from "./resolve_symbol.ts";
import { search } from "./search.ts";
import type { CallOptions, ProjectArgs, Session } from "./session.ts";
import { stats } from "./stats.ts";
import { unresolvedSites } from "./unresolved.ts";
import {
  type Answer,
  answer,
  clamp,
  projectArgs,
  READ,
  tool,
  type ToolDef,
  WRITE,
} from "./tool_kit.ts";
import { DOCS_BY_ID } from "../db/queries.ts";

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

function summaryAnswer(s: IndexSummary): Answer {
  return answer(
    { type: "index", ...summaryJson(s) },
    (notes) => {
      const lines = formatSummary(s).split("\n");
      if (notes.length) lines[0] = F.header(lines[0], notes);
      return lines.join("\n");
    },
    [],
  );
}

// ---- the table --------------------------------------------------------------------------------

export const QUERY_TOOLS: ToolDef[] = [
  tool({
    name: "index_repo",
    description:
      "Refresh the graph when an answer says stale (tools index on first use). Incremental; " +
      "full=true rebuilds.",
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
    description: "After editing a file: re-index (incremental) and say whether it changed.",
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
      const data = { type: "index", file, status, ...summaryJson(summary) };
      return answer(
        data,
        (notes) => F.formatIndexFile(file, status, summary, notes),
        [],
      );
    },
  }),
  tool({
    name: "get_callers",
    description:
      "Who calls a symbol or file (depth 1-10). Before changing a signature; the header " +
      "counts call sites left unresolved.",
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
    description: "What a symbol or file calls (depth 1-10): to follow what code does.",
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
      "A symbol's or file's edges by relation and direction (OUT uses, IN used by): imports, " +
      "bases, members.",
    shape: {
      symbol: z.string().optional(),
      file: fileArg,
      relations: z.array(z.enum(RELATIONS as [EdgeType, ...EdgeType[]])).optional(),
      direction: z.enum(["OUT", "IN", "BOTH"]).default("OUT"),
      limit: int().default(50),
      offset: int().default(0),
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
      const offset = clamp("offset", a.offset, 0, 100_000, notes);
      const r = await dependencies(t.reader, resolved, rels, a.direction, limit, offset);
      return answer(r, (n) => F.formatDependencies(r, n), [...notes, ...t.notes]);
    },
  }),
  tool({
    name: "impact_analysis",
    description:
      "Everything a change to a symbol reaches: transitive callers, subclasses, implementations " +
      "by distance and file (OUT: what it relies on; across_projects: also in other indexed " +
      "projects importing its package).",
    shape: {
      symbol: symbolArg,
      file: fileArg,
      direction: z.enum(["IN", "OUT"]).default("IN"),
      depth: int().default(3),
      limit: int().default(100),
      offset: int().default(0),
      include_tests: z.boolean().default(false),
      across_projects: z.boolean().default(false),
    },
    annotations: READ,
    cli: { command: "impact", positionals: ["symbol"], summary: "what a change affects" },
    async run(session, a, call) {
      const notes: string[] = [];
      const depth = clamp("depth", a.depth, 1, 10, notes);
      const limit = clamp("limit", a.limit, 1, 1000, notes);
      const t = await session.target(projectArgs(a), call);
      const resolved = await resolveSymbol(t.reader, { name: a.symbol, file: a.file }, t.root);
      const offset = clamp("offset", a.offset, 0, 100_000, notes);
      // JSON keeps everything; text lists tests and examples only when asked.
      const includeTests = a.include_tests || a.format === "json";
      const r = await impact(t.reader, resolved, a.direction, depth, limit, offset, includeTests);
      if (a.direction === "IN") {
        for (const g of r.groups.slice(0, 3)) {
          const u = await unresolvedSites(t.reader, [g.target]);
          if (u) g.unresolved = u;
          if (a.across_projects) {
            const home = { project: t.project, branch: t.branch, graph: t.keys.graph };
            g.across = await dependentsAcross(await session.db(), home, t.reader, g.target, {
              relations: IMPACT_RELATIONS,
              depth,
              limit,
              includeTests,
            });
          }
        }
      }
      const listed = r.groups.flatMap((g) => [
        g.target,
        ...g.files.flatMap((f) => f.links.map((l) => l.node)),
      ]);
      return answer(r, (n) => F.formatImpact(r, n), [...notes, ...t.notes], {
        target: t,
        nodes: listed,
      });
    },
  }),
  tool({
    name: "diff_impact",
    description:
      "Before committing or reviewing: what the working diff (or base..HEAD) adds, changes, " +
      "removes, with callers, impact and tests reaching it, riskiest first.",
    shape: {
      base: z.string().optional(),
      depth: int().default(3),
      limit: int().default(30),
      offset: int().default(0),
      include_tests: z.boolean().default(false),
    },
    annotations: READ,
    cli: { command: "diff-impact", positionals: [], summary: "impact of the working diff" },
    async run(session, a, call) {
      const notes: string[] = [];
      const depth = clamp("depth", a.depth, 1, 10, notes);
      const limit = clamp("limit", a.limit, 1, 300, notes);
      const offset = clamp("offset", a.offset, 0, 100_000, notes);
      let t = await session.target(projectArgs(a), call);
      // Changed lines must meet the definitions as they are now: an incremental run first (a
      // no-op when nothing changed since the last one).
      if (session.autoIndex && !t.indexed && t.root) {
        const s = await session.index(await refForIndexing(session, a), {
          onProgress: call.onProgress,
        });
        const f = s.files;
        const changed = f.added.length + f.modified.length + f.deleted.length;
        t = await session.target(projectArgs(a), call);
        if (changed) notes.push(`re-indexed first (${F.plural(changed, "file")} changed)`);
      }
      if (!t.root) {
        throw new CgraphError(
          `Project '${t.project}' has no known root to diff.`,
          "Pass path=<repository root>.",
        );
      }
      const diff = await readDiff(t.root, a.base);
      const r = await diffImpact(t.reader, t.root, diff, {
        depth,
        limit,
        offset,
        includeTests: a.include_tests,
        base: a.base,
      });
      const listed = r.symbols.filter((s) => s.change !== "removed").map((s) => s.node);
      return answer(r, (n) => F.formatDiffImpact(r, n), [...notes, ...t.notes], {
        target: t,
        nodes: listed,
      });
    },
  }),
  tool({
    name: "find_path",
    description: "How one symbol or file reaches another: call chains, shortest first.",
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
      "Find symbols when you know words, not the name: name words (camel/snake split), docs.",
    shape: {
      query: z.string(),
      kind: kindArg,
      language: z.string().optional(),
      limit: int().default(20),
      offset: int().default(0),
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
      const offset = clamp("offset", a.offset, 0, 10_000, notes);
      const r = await search(t.reader, a.query, {
        kind: a.kind,
        language: a.language,
        limit,
        offset,
      });
      return answer(r, (n) => F.formatSearch(r, n), [...notes, ...t.notes]);
    },
  }),
  tool({
    name: "find_symbol",
    description:
      "Where a name is defined: lines, parameters, kind, doc. Unknown names get 'did you mean'.",
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
    description: "Every use of a symbol: calls, imports of its file, subclasses, implementations.",
    shape: { symbol: symbolArg, file: fileArg, limit: int().default(50), offset: int().default(0) },
    annotations: READ,
    cli: { command: "refs", positionals: ["symbol"], summary: "every use of a symbol" },
    async run(session, a, call) {
      const notes: string[] = [];
      const limit = clamp("limit", a.limit, 1, 500, notes);
      const t = await session.target(projectArgs(a), call);
      const resolved = await resolveSymbol(t.reader, { name: a.symbol, file: a.file }, t.root);
      const offset = clamp("offset", a.offset, 0, 100_000, notes);
      const r = await references(t.reader, resolved, limit, offset);
      return answer(r, (n) => F.formatReferences(r, n), [...notes, ...t.notes]);
    },
  }),
  tool({
    name: "get_context",
    description: "First look at a symbol or file: definition, doc, callers, callees, " +
      "parents/children, imports.",
    shape: { symbol: z.string().optional(), file: fileArg, limit: int().default(10) },
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
      const notes: string[] = [];
      const limit = clamp("limit", a.limit, 1, 200, notes);
      const r = await context(
        t.reader,
        { ...resolved, matches: resolved.matches.slice(0, 3) },
        limit,
      );
      const listed = r.groups.flatMap((g) => [
        g.target,
        ...[g.callers, g.callees, g.parents, g.children].flatMap((s) => s.links.map((l) => l.node)),
      ]);
      return answer(r, (n) => F.formatContext(r, n), [...notes, ...t.notes], {
        target: t,
        nodes: listed,
      });
    },
  }),
  tool({
    name: "detect_circular",
    description: "Cycles in CALLS (mutual recursion) or IMPORTS: strongly connected components, " +
      "shortest cycles, the edge to break first.",
    shape: {
      relation: z.enum(["CALLS", "IMPORTS"]).default("CALLS"),
      include_type_only: z.boolean().default(false),
      limit: int().default(20),
    },
    annotations: READ,
    cli: { command: "cycles", positionals: [], summary: "CALLS or IMPORTS cycles" },
    async run(session, a, call) {
      const notes: string[] = [];
      const limit = clamp("limit", a.limit, 1, 200, notes);
      const t = await session.target(projectArgs(a), call);
      const r = await detectCycles(t.reader, a.relation, limit, a.include_type_only);
      return answer(r, (n) => F.formatCycles(r, n), [...notes, ...t.notes]);
    },
  }),
  tool({
    name: "get_stats",
    description:
      "Graph size by language, kind and edge type; when and at which commit it was indexed.",
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
      const notes = r.unreachable
        ? [
          `cluster nodes not answering: ${
            r.unreachable.join(", ")
          } (their projects are not listed)`,
        ]
        : [];
      return answer(r, (n) => F.formatProjects(r, n), notes);
    },
  }),
];

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
  if (type === "callers") {
    // Call sites with the symbol's name that resolved nowhere: the list is a lower bound.
    for (const g of r.groups.slice(0, 3)) {
      const own = r.overloads ? resolved.matches : [g.target];
      const u = await unresolvedSites(t.reader, own);
      if (u) g.unresolved = u;
    }
  }
  return answer(r, (n) => F.formatCalls(r, n), [...notes, ...t.notes]);
}
