/**
 * Compact text for every query result: a header line (what was asked, how many, `truncated: N
 * more` when capped, plus notes such as staleness), then one result per line with fields separated
 * by ` | `, e.g. `src/auth.ts:42 | auth.UserService.login | method`. Paths are relative to the
 * project root; names are qualified names, which every tool accepts back as they are.
 */
import type { Link, NodeRef } from "./graph.ts";
import { isFile } from "./graph.ts";
import type { CallsResult, DependenciesResult, NeighborGroup } from "./neighbors.ts";
import type { ImpactResult } from "./impact.ts";
import type { IndexSummary } from "../index/indexer.ts";
import type { PathsResult } from "./paths.ts";
import type { SearchResult } from "./search.ts";
import type { ReferencesResult } from "./references.ts";
import type { ContextGroup, ContextResult, Section } from "./context.ts";
import type { CyclesResult } from "./cycles.ts";
import type { DiffImpactResult } from "./diff_impact.ts";
import type { StatsResult } from "./stats.ts";
import type { ProjectsResult } from "./projects.ts";
import type { Resolved } from "./resolve_symbol.ts";
import type { Unresolved } from "./unresolved.ts";
import type { Across } from "./across.ts";

/**
 * How to pick one of several definitions, naming the argument values that do it: a file when
 * they live in different files, else a qualified name; none when neither tells them apart.
 */
export function narrowHint(targets: NodeRef[]): string | undefined {
  const paths = [...new Set(targets.map((t) => t.path))];
  const names = [...new Set(targets.map((t) => t.qualified_name))];
  const list = (xs: string[]) =>
    xs.slice(0, 3).map((x) => `'${x}'`).join(" or ") + (xs.length > 3 ? " or ..." : "");
  if (names.length === targets.length) return `narrow with symbol=${list(names)}`;
  if (paths.length === targets.length) return `narrow with file=${list(paths)}`;
  if (names.length > 1) return `narrow with symbol=${list(names)}`;
  return undefined;
}

export function loc(n: NodeRef): string {
  return isFile(n) ? n.path : `${n.path}:${n.line}`;
}

export function kindOf(n: NodeRef): string {
  return n.kind.toLowerCase();
}

export function nodeLine(n: NodeRef): string {
  return isFile(n) ? `${n.path} | file` : `${loc(n)} | ${shortName(n)} | ${kindOf(n)}`;
}

/**
 * Result lines by file: a run of two or more consecutive lines about definitions in one file says
 * the path once, on a `path:` line, and each of its lines starts with the definition's line
 * number (`clikit/cli.py:` then `6 | Command.main | method | at 8`); a file alone keeps
 * `path:line | ...`. Runs only, so the order (production first, depth, rank) is kept. `tail` is
 * what follows the node's own fields (` | at 8`).
 */
export function byFile<T>(items: T[], node: (x: T) => NodeRef, tail: (x: T) => string): string[] {
  const out: string[] = [];
  for (let i = 0; i < items.length;) {
    const first = node(items[i]);
    let j = i + 1;
    if (!isFile(first)) {
      while (j < items.length && !isFile(node(items[j])) && node(items[j]).path === first.path) j++;
    }
    if (j - i < 2) {
      out.push(nodeLine(first) + tail(items[i]));
      i++;
      continue;
    }
    out.push(`${first.path}:`);
    for (; i < j; i++) {
      const n = node(items[i]);
      out.push(`${n.line} | ${shortName(n)} | ${kindOf(n)}${tail(items[i])}`);
    }
  }
  return out;
}

/** `a.py:3,9, b.py:4`: `path:line` sites with the path said once per run of one file. */
export function sitesByFile(sites: string[]): string {
  const out: string[] = [];
  let last = "";
  for (const site of sites) {
    const at = site.lastIndexOf(":");
    const path = at < 0 ? site : site.slice(0, at);
    if (at >= 0 && path === last) out[out.length - 1] += `,${site.slice(at + 1)}`;
    else out.push(site);
    last = at < 0 ? "" : path;
  }
  return out.join(", ");
}

/**
 * The qualified name without the part its path already says (the path is on the same line):
 * `shop/models.py` + `shop.models.User.save` -> `User.save`; `shop/db.py` + `shop.db.store` ->
 * `store`; `com/acme/Order.java` + `com.acme.Order.total` -> `total`. Names that do not follow
 * the path (C# namespaces, C++) stay whole.
 */
export function shortName(n: NodeRef): string {
  if (isFile(n)) return n.path;
  const q = n.qualified_name.split(".");
  const segs = n.path.replace(/\.[^./]+$/, "").split("/");
  let best = 0;
  for (let start = 0; start < segs.length; start++) {
    let k = 0;
    while (k < q.length - 1 && start + k < segs.length && segs[start + k] === q[k]) k++;
    const end = start + k;
    // The run must end at the file's directory or at the file's own name.
    if (k > best && (end === segs.length || end === segs.length - 1)) best = k;
  }
  return q.slice(best).join(".");
}

function paramsOf(name: string, signature?: string): string {
  if (!signature) return "";
  const sig = oneLine(signature, 400);
  const at = sig.search(new RegExp(`\\b${name.replace(/[$]/g, "\\$")}\\s*[(<]`));
  if (at < 0) return "";
  const rest = sig.slice(at + name.length).replace(/\s*[{:=;]\s*$/, "").trim();
  return rest.length > 90 ? `${rest.slice(0, 87)}...` : rest;
}

/** `shop.db.store (function, shop/db.py:13)` */
export function describe(n: NodeRef): string {
  return isFile(n) ? `${n.path} (file)` : `${n.qualified_name} (${kindOf(n)}, ${loc(n)})`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function truncated(total: number, shown: number): string[] {
  return total > shown ? [`truncated: ${total - shown} more`] : [];
}

/** `from 50`, `truncated: 12 more (offset=100)`: where a page starts and how to get the rest. */
function paged(total: number, offset: number, shown: number): string[] {
  const rest = total - offset - shown;
  return [
    ...(offset ? [`from ${offset}`] : []),
    ...(rest > 0 ? [`truncated: ${rest} more (offset=${offset + shown})`] : []),
  ];
}

/** `12` or `5000+` when the lookup was capped. */
function defs(r: { definitions: number; definitions_capped?: boolean }): number | string {
  return r.definitions_capped ? `${r.definitions}+` : r.definitions;
}

/** The header line: title, count, and any extra parts, separated by `; `. */
export function header(first: string, parts: (string | undefined | false)[] = []): string {
  return [first, ...parts.filter((p): p is string => !!p)].join("; ");
}

export function oneLine(text: string, max = 120): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 3)}...` : t;
}

function edgeFields(l: Link, showDepth: boolean): string {
  const parts: string[] = [];
  if (l.at !== undefined) {
    // The line of the call / import / declaration: what kind of edge it is, the header or the
    // line's own relation already says.
    parts.push(`at ${l.at}${l.count && l.count > 1 ? ` (x${l.count})` : ""}`);
  }
  // Scope, import, self and typed-receiver links (confidence >= 0.9) are sure enough to say
  // nothing; a unique-name match is marked, with its confidence (JSON carries every value).
  if (l.confidence !== undefined && l.confidence < 0.9) parts.push(`guess ${l.confidence}`);
  if (showDepth) {
    parts.push(l.depth > 1 && l.via_name ? `d${l.depth} via ${l.via_name}` : `d${l.depth}`);
  }
  return parts.length ? ` | ${parts.join(" | ")}` : "";
}

/**
 * One target answers directly; several are answered group by group, each under a `# ` line, and
 * the header says how to narrow.
 */
function grouped<G extends { target: NodeRef }>(
  title: string,
  query: string,
  definitions: number | string,
  groups: G[],
  summary: (g: G) => string,
  lines: (g: G) => string[],
  extra: (g: G) => string[],
  notes: string[],
): string {
  if (groups.length === 1 && definitions === 1) {
    const g = groups[0];
    return [
      header(`${title} ${describe(g.target)}: ${summary(g)}`, [...extra(g), ...notes]),
      ...lines(g),
    ].join("\n");
  }
  const out = [
    header(`${title} '${query}': ${definitions} definitions match`, [
      narrowHint(groups.map((g) => g.target)),
      Number.parseInt(String(definitions)) > groups.length ? `showing ${groups.length}` : undefined,
      ...notes,
    ]),
  ];
  for (const g of groups) {
    out.push(`# ${nodeLine(g.target)}: ${header(summary(g), extra(g))}`, ...lines(g));
  }
  return out.join("\n");
}

function neighborExtra(g: NeighborGroup): string[] {
  const from = g.offset ?? 0;
  const rest = g.total - from - g.links.length;
  return [
    ...(from ? [`from ${from}`] : []),
    ...(rest > 0 ? [`truncated: ${rest} more (offset=${from + g.links.length})`] : []),
    ...(g.hidden?.tests ? [`+${g.hidden.tests} in tests/examples (include_tests=true)`] : []),
    ...(g.hidden?.guesses ? [`+${g.hidden.guesses} name-only guesses (include_guesses=true)`] : []),
    ...(g.capped ? ["search capped"] : []),
    ...unresolvedNote(g.unresolved),
  ];
}

/** `+2 unresolved call sites named invoke (cli.py:40, core.py:7)`: the list is a lower bound. */
export function unresolvedNote(u: Unresolved | undefined): string[] {
  if (!u) return [];
  const shown = sitesByFile(u.sites.slice(0, 3)) + (u.total > 3 ? ", ..." : "");
  const n = u.capped
    ? `${u.total}+ unresolved call sites`
    : plural(u.total, "unresolved call site");
  return [`+${n} named ${u.name} (${shown})`];
}

export function formatCalls(r: CallsResult, notes: string[] = []): string {
  const one = r.type === "callers" ? "caller" : "callee";
  const deep = r.depth > 1;
  if (r.overloads) notes = [`${r.overloads} overloads, merged`, ...notes];
  return grouped(
    r.type === "callers" ? `callers (depth ${r.depth}) of` : `callees (depth ${r.depth}) of`,
    r.query,
    defs(r),
    r.groups,
    (g) => plural(g.total, one),
    (g) => byFile(g.links, (l) => l.node, (l) => edgeFields(l, deep)),
    neighborExtra,
    notes,
  );
}

export function formatDependencies(r: DependenciesResult, notes: string[] = []): string {
  return grouped(
    `dependencies (${r.direction}; ${r.relations.join(", ")}) of`,
    r.query,
    defs(r),
    r.groups,
    (g) => plural(g.total, "edge"),
    (g) =>
      g.links.map((l) =>
        `${r.direction === "BOTH" ? `${l.dir.toLowerCase()} ` : ""}${l.rel}${
          l.via !== g.target.id ? " (its file)" : ""
        } | ${nodeLine(l.node)}${edgeFields(l, false)}`
      ),
    neighborExtra,
    notes,
  );
}

export function formatImpact(r: ImpactResult, notes: string[] = []): string {
  return grouped(
    `impact (${r.direction}, depth ${r.depth}) of`,
    r.query,
    defs(r),
    r.groups,
    (g) => {
      const dist = Object.entries(g.by_distance).map(([d, n]) => `d${d} ${n}`).join(", ");
      return `${plural(g.total, "symbol")} in ${plural(g.files_total, "file")}${
        dist ? ` (${dist})` : ""
      }`;
    },
    (g) => [
      ...byFile(
        g.files.flatMap((f) => f.links),
        (l) => l.node,
        (l) => ` | d${l.depth}${l.rel === "CALLS" ? "" : ` ${l.rel.toLowerCase()}`}`,
      ),
      ...acrossLines(g.across),
    ],
    (g) => [
      ...paged(g.total, r.offset ?? 0, g.files.reduce((n, f) => n + f.links.length, 0)),
      ...(g.hidden_tests ? [`+${g.hidden_tests} in tests/examples (include_tests=true)`] : []),
      ...(g.capped ? ["search capped"] : []),
      ...unresolvedNote(g.unresolved),
      ...acrossNote(g.across),
    ],
    notes,
  );
}

/** `across projects: +3 in 1 project (app)`, or why there are none. */
function acrossNote(a: Across | undefined): string[] {
  if (!a) return [];
  if (!a.package) return ["across projects: its file is in no package other projects import"];
  if (!a.projects.length) return [`across projects: no other indexed project imports ${a.package}`];
  const n = a.projects.reduce((k, p) => k + p.total, 0);
  return [
    `across projects: +${n} in ${plural(a.projects.length, "project")} importing ${a.package}`,
  ];
}

/** Per other project: `across app:main | 2 symbols (d1 1, d2 1)`, then its symbols by file. */
function acrossLines(a: Across | undefined): string[] {
  const out: string[] = [];
  for (const p of a?.projects ?? []) {
    const dist = Object.entries(p.by_distance).map(([d, n]) => `d${d} ${n}`).join(", ");
    const more = p.total - p.links.length;
    out.push(
      [
        `across ${p.project}:${p.branch} | ${plural(p.total, "symbol")}${dist ? ` (${dist})` : ""}`,
        ...(more > 0 ? [`truncated: ${more} more`] : []),
        ...(p.hidden_tests ? [`+${p.hidden_tests} in tests/examples (include_tests=true)`] : []),
      ].join("; "),
      ...byFile(
        p.links,
        (l) => l.node,
        (l) =>
          ` | d${l.depth}${l.rel === "CALLS" ? "" : ` ${l.rel.toLowerCase()}`}${
            l.depth === 1 && l.at ? ` at ${l.at}` : ""
          }`,
      ),
    );
  }
  return out;
}

export function formatPaths(r: PathsResult, notes: string[] = []): string {
  const ends = (defs: NodeRef[], q: string) =>
    defs.length === 1 ? defs[0].qualified_name : `'${q}' (${defs.length} definitions)`;
  const lines = [
    header(
      `call paths ${ends(r.from_definitions, r.from)} -> ${
        ends(r.to_definitions, r.to)
      } (max depth ${r.max_depth}): ${plural(r.paths.length, "path")}`,
      [
        r.more ? `truncated: more paths exist (limit ${r.limit})` : undefined,
        r.capped ? "search capped" : undefined,
        r.from_definitions.length > 1
          ? `from: ${narrowHint(r.from_definitions) ?? "several definitions"}`
          : undefined,
        r.to_definitions.length > 1
          ? `to: ${narrowHint(r.to_definitions) ?? "several definitions"}`
          : undefined,
        ...notes,
      ],
    ),
  ];
  for (const p of r.paths) {
    lines.push(`${p.length} | ${p.hops.map((h) => h.node.qualified_name).join(" -> ")}`);
  }
  return lines.join("\n");
}

export function formatSearch(r: SearchResult, notes: string[] = []): string {
  const filters = [r.kind ? `kind ${r.kind}` : "", r.language ? `language ${r.language}` : ""]
    .filter(Boolean).join(", ");
  return [
    header(`search '${r.query}'${filters ? ` (${filters})` : ""}: ${plural(r.total, "hit")}`, [
      ...paged(r.total, r.offset ?? 0, r.hits.length),
      r.capped ? "candidates capped; refine the query" : undefined,
      ...notes,
    ]),
    ...byFile(r.hits, (h) => h.node, (h) => ` | ${h.match}`),
  ].join("\n");
}

export function formatSymbols(r: Resolved, notes: string[] = []): string {
  const rows = r.matches.map((n) => ({
    where: `${loc(n)}${n.end_line && n.end_line > n.line ? `-${n.end_line}` : ""}`,
    name: shortName(n),
    params: paramsOf(n.name, n.signature),
    kind: kindOf(n),
    doc: n.doc ? oneLine(n.doc, 60).replace(/\.$/, "") : "",
  }));
  // What every line would repeat (same kind, parameters, doc) is said once, in the header.
  const same = (k: "params" | "kind" | "doc") =>
    rows.length >= 3 && rows.every((x) => x[k] === rows[0][k]);
  const shared = { params: same("params"), kind: same("kind"), doc: same("doc") };
  const each = [
    shared.kind ? rows[0].kind : "",
    shared.params && rows[0].params ? `params ${rows[0].params}` : "",
    shared.doc && rows[0].doc ? `doc: ${rows[0].doc}` : "",
  ].filter(Boolean);
  return [
    header(
      // One exact hit needs no echo of a long query: its line says everything.
      r.total === 1 && r.matches[0]?.qualified_name === r.query
        ? "1 definition"
        : `${r.query}: ${
          r.total_capped ? `${r.total}+ definitions` : plural(r.total, "definition")
        }`,
      [
        each.length ? `each: ${each.join(" | ")}` : undefined,
        ...truncated(r.total, r.matches.length),
        ...notes,
      ],
    ),
    ...rows.map((x) =>
      [
        x.where,
        `${x.name}${shared.params ? "" : x.params}`,
        shared.kind ? "" : x.kind,
        shared.doc ? "" : x.doc,
      ].filter(Boolean).join(" | ")
    ),
  ].join("\n");
}

export function formatReferences(r: ReferencesResult, notes: string[] = []): string {
  return grouped(
    "references to",
    r.query,
    defs(r),
    r.groups,
    (g) => plural(g.total, "reference"),
    (g) =>
      g.refs.map((x) =>
        `${x.path}${x.line !== undefined ? `:${x.line}` : ""} | ${x.kind}${
          x.count && x.count > 1 ? ` (x${x.count})` : ""
        } | ${isFile(x.from) ? x.from.path : `${shortName(x.from)} | ${kindOf(x.from)}`}`
      ),
    (
      g,
    ) => [...paged(g.total, g.offset ?? 0, g.refs.length), ...(g.capped ? ["search capped"] : [])],
    notes,
  );
}

const RELATION_LABEL: Record<string, [string, string]> = {
  // rel: [seen OUT from the target, seen IN]
  DEFINES: ["member", "defined in"],
  EXTENDS: ["extends", "extended by"],
  IMPLEMENTS: ["implements", "implemented by"],
  IMPORTS: ["imports", "imported by"],
  CALLS: ["calls", "called by"],
  INSTANTIATES: ["instantiates", "instantiated by"],
};

function sectionTitle(name: string, s: Section): string {
  const count = s.total > s.links.length ? `${s.total}, showing ${s.links.length}` : `${s.total}`;
  return `--- ${name} (${count}) ---`;
}

function contextLines(g: ContextGroup): string[] {
  const t = g.target;
  const out = ["--- definition ---"];
  const span = t.end_line && t.end_line > t.line ? `-${t.end_line}` : "";
  const params = paramsOf(t.name, t.signature);
  out.push(`${loc(t)}${span} | ${shortName(t)}${params} | ${kindOf(t)}`);
  if (t.signature && !params) out.push(`signature: ${oneLine(t.signature, 200)}`);
  if (g.doc) out.push(`doc: ${oneLine(g.doc, 200)}`);
  out.push(sectionTitle("callers", g.callers));
  out.push(...byFile(g.callers.links, (l) => l.node, (l) => edgeFields(l, false)));
  out.push(sectionTitle("callees", g.callees));
  out.push(...byFile(g.callees.links, (l) => l.node, (l) => edgeFields(l, false)));
  const rel = (l: Link) => RELATION_LABEL[l.rel][l.dir === "OUT" ? 0 : 1];
  out.push(
    `--- parents/children (${g.parents.total} parents, ${g.children.total} children${
      g.parents.total + g.children.total > g.parents.links.length + g.children.links.length
        ? ", capped"
        : ""
    }) ---`,
  );
  for (const l of [...g.parents.links, ...g.children.links]) {
    out.push(`${rel(l)} | ${nodeLine(l.node)}`);
  }
  const imp = [g.imports, g.imported_by];
  out.push(
    `--- imports (${g.imports.total} imported, ${g.imported_by.total} importers${
      imp.some((s) => s.total > s.links.length) ? ", capped" : ""
    }) ---`,
  );
  for (const l of [...g.imports.links, ...g.imported_by.links]) {
    out.push(`${rel(l)} | ${l.node.path}${l.at !== undefined ? ` | line ${l.at}` : ""}`);
  }
  return out;
}

export function formatContext(r: ContextResult, notes: string[] = []): string {
  const capped = r.groups.some((g) =>
    [g.callers, g.callees, g.parents, g.children, g.imports, g.imported_by].some((s) =>
      s.total > s.links.length
    )
  );
  if (capped) notes = [`sections show ${r.limit} each (limit raises it)`, ...notes];
  if (r.groups.length === 1 && r.definitions === 1) {
    return [
      header(`context of ${describe(r.groups[0].target)}`, notes),
      ...contextLines(r.groups[0]),
    ]
      .join("\n");
  }
  const out = [
    header(`context of '${r.query}': ${defs(r)} definitions match`, [
      narrowHint(r.groups.map((g) => g.target)),
      r.definitions > r.groups.length ? `showing ${r.groups.length}` : undefined,
      ...notes,
    ]),
  ];
  for (const g of r.groups) out.push(`# ${nodeLine(g.target)}`, ...contextLines(g));
  return out.join("\n");
}

export function formatCycles(r: CyclesResult, notes: string[] = []): string {
  const unit = r.relation === "CALLS" ? "symbol" : "file";
  const name = (n: NodeRef) => n.qualified_name;
  const counted = r.relation === "CALLS"
    ? undefined
    : r.include_type_only
    ? "counted: every import, type-only and deferred ones too"
    : `counted: imports that run when a file loads${
      r.type_only_left_out
        ? ` (${r.type_only_left_out} type-only or deferred left out: include_type_only=true)`
        : ""
    }`;
  const lines = [
    header(
      r.total
        ? `${r.relation} cycles: ${plural(r.total, "strongly connected component")} (${
          plural(r.nodes_in_cycles, unit)
        }), largest first`
        : `${r.relation} cycles: none`,
      [
        counted,
        ...truncated(r.total, r.components.length),
        r.self_loops
          ? `${
            plural(r.self_loops, r.relation === "CALLS" ? "self-recursive symbol" : "self-import")
          } not listed`
          : undefined,
        r.capped ? "search capped: more may exist" : undefined,
        ...notes,
      ],
    ),
  ];
  for (const c of r.components) {
    const more = c.size > c.members.length ? `, ... (${c.size - c.members.length} more)` : "";
    lines.push(`# ${plural(c.size, unit)} | ${c.members.map(name).join(", ")}${more}`);
    for (const cy of c.cycles) {
      lines.push(`${cy.length} | ${[...cy.nodes, cy.nodes[0]].map(name).join(" -> ")}`);
    }
    if (c.cycles_total > c.cycles.length) {
      lines.push(`+${plural(c.cycles_total - c.cycles.length, "more cycle")}`);
    }
    const b = c.break_edge;
    // Worth saying when one edge carries several cycles.
    if (b && b.cycles > 1) {
      lines.push(
        `break first | ${name(b.from)} -> ${
          name(b.to)
        } (in ${b.cycles} of ${c.cycles_total} cycles)`,
      );
    }
  }
  return lines.join("\n");
}

function counts(r: Record<string, number>): string {
  const e = Object.entries(r);
  return e.length ? e.map(([k, n]) => `${k} ${n}`).join(", ") : "none";
}

/**
 * Counts per language, kind and edge type under a header with the totals and when the graph was
 * indexed (its age and commit; the JSON keeps the timestamp, root and version).
 */
export function formatStats(r: StatsResult, notes: string[] = []): string {
  const when = r.indexed_at
    ? `indexed ${age(r.indexed_at)}${r.commit ? ` at ${r.commit.slice(0, 10)}` : ""}`
    : undefined;
  return [
    header(
      `stats of ${r.project}:${r.branch}: ${plural(r.files, "file")}, ${
        plural(r.symbols, "symbol")
      }, ${plural(r.edges, "edge")}`,
      [when, ...notes],
    ),
    `files | ${counts(r.files_by_language)}`,
    `symbols | ${counts(r.symbols_by_kind)}`,
    `edges | ${counts(r.edges_by_type)}`,
  ].join("\n");
}

/**
 * index_file's answer: what became of the file, and the incremental run in one line (files it
 * re-parsed, its time); counts by kind only in index_repo's answer and the JSON.
 */
export function formatIndexFile(
  file: string,
  status: string,
  s: IndexSummary,
  notes: string[] = [],
): string {
  const f = s.files;
  const changed = [
    ...f.added.map((p) => `+${p}`),
    ...f.modified.map((p) => `~${p}`),
    ...f.deleted.map((p) => `-${p}`),
  ];
  const shown = changed.slice(0, 5).join(", ") + (changed.length > 5 ? ", ..." : "");
  const lines = [
    header(`index_file ${file}: ${status}`, [
      `${s.mode} index in ${s.durationMs} ms: ${plural(changed.length, "file")} changed${
        changed.length ? ` (${shown})` : ""
      } of ${f.scanned}`,
      ...notes,
    ]),
  ];
  const errors = f.syntaxErrors.filter((e) => e.startsWith(`${file}:`));
  if (errors.length) lines.push(`syntax errors (lines not indexed): ${errors.join(", ")}`);
  for (const w of s.warnings) lines.push(`warning: ${w}`);
  return lines.join("\n");
}

/** `5m ago`, for listings (the JSON keeps the timestamp). */
export function age(iso: string | undefined, now = Date.now()): string {
  const t = Date.parse(String(iso ?? ""));
  if (!Number.isFinite(t)) return "never indexed";
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 120) return `${s}s ago`;
  if (s < 7200) return `${Math.round(s / 60)}m ago`;
  if (s < 172800) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

export function formatProjects(r: ProjectsResult, notes: string[] = []): string {
  return [
    header(`indexed projects: ${plural(r.total, "graph")}`, notes),
    ...r.projects.map((p) =>
      [
        p.project,
        p.branch,
        p.files !== undefined ? plural(p.files, "file") : "no metadata",
        ...(p.symbols !== undefined ? [plural(p.symbols, "symbol")] : []),
        ...(p.edges !== undefined ? [plural(p.edges, "edge")] : []),
        ...(p.indexed_at ? [`indexed ${age(p.indexed_at)}`] : []),
        ...(p.depends_on?.length
          ? [
            `uses ${p.depends_on.map((d) => `${d.project} (${d.packages.join(", ")})`).join(", ")}`,
          ]
          : []),
        ...(p.used_by?.length ? [`used by ${p.used_by.join(", ")}`] : []),
        ...(p.root ? [p.root] : []),
      ].join(" | ")
    ),
  ].join("\n");
}

export function formatDiffImpact(r: DiffImpactResult, notes: string[] = []): string {
  const c = r.counts;
  const counts = (["added", "changed", "removed"] as const).filter((k) => c[k]).map((k) =>
    `${c[k]} ${k}`
  );
  const shown = r.symbols.length;
  const rest = r.total - r.offset - shown;
  const lines = [
    header(
      `diff impact (${r.diff}): ${plural(r.total, "symbol")} in ${plural(r.files, "file")}${
        counts.length ? ` (${counts.join(", ")})` : ""
      }, riskiest first`,
      [
        r.offset ? `from ${r.offset}` : undefined,
        rest > 0 ? `truncated: ${rest} more (offset=${r.offset + shown})` : undefined,
        r.examined ? `the first ${r.examined} in diff order assessed and ranked` : undefined,
        r.top_level_files.length
          ? `top-level code changed in ${r.top_level_files.slice(0, 3).join(", ")}${
            r.top_level_files.length > 3 ? ", ..." : ""
          }`
          : undefined,
        r.hidden_test_files
          ? `+${plural(r.hidden_test_files, "changed file")} in tests/examples (include_tests=true)`
          : undefined,
        r.unsupported.length ? `${plural(r.unsupported.length, "file")} not read` : undefined,
        ...notes,
      ],
    ),
  ];
  for (const s of r.symbols) {
    const n = s.node;
    const parts = [s.change, `${n.path}:${n.line}`, shortName(n), kindOf(n)];
    if (s.change === "removed") {
      const d = s.dangling;
      parts.push(
        d
          ? `${plural(d.total, "call site")} left (${sitesByFile(d.sites.slice(0, 3))}${
            d.total > 3 ? ", ..." : ""
          })`
          : "no call sites left",
      );
    } else {
      const names = s.callers.slice(0, 3).map(shortName).join(", ");
      const more = s.callers_total > 3 ? ` +${s.callers_total - 3}` : "";
      const elsewhere = s.callers_elsewhere ? ` (+${s.callers_elsewhere} in tests/examples)` : "";
      parts.push(
        s.callers_total
          ? `${plural(s.callers_total, "caller")}: ${names}${more}${elsewhere}`
          : `no callers${elsewhere}`,
      );
      if (s.affected > s.callers_total) {
        parts.push(`${s.affected} affected in ${plural(s.affected_files, "file")} (d${r.depth})`);
      }
      parts.push(
        s.tests
          ? `tests: ${s.test_files.slice(0, 2).join(", ")}${s.test_files.length > 2 ? ", ..." : ""}`
          : s.affected
          ? "no test reaches it"
          : "",
      );
    }
    lines.push(parts.filter(Boolean).join(" | "));
  }
  return lines.join("\n");
}
