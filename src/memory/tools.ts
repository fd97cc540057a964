/**
 * The memory tools (remember, forget, recall, memory_linked_search) for the tool table in
 * src/tools/registry.ts, and the one-line hint get_context and impact_analysis add when notes or
 * decisions exist for a symbol they list.
 */
import { z } from "zod";
import * as Q from "../db/queries.ts";
import { CgraphError } from "../errors.ts";
import { fileId } from "../graph/model.ts";
import { headCommit } from "../project/identity.ts";
import { displayName, sanitizeName } from "../project/names.ts";
import * as F from "../query/format.ts";
import {
  byLocation,
  type GraphReader,
  isFile,
  type Link,
  nodeOf,
  type NodeRef,
} from "../query/graph.ts";
import { byDepthThenLocation, fileOf, mergeParallel } from "../query/neighbors.ts";
import { queryWords, resolveSymbol } from "../query/resolve_symbol.ts";
import type { CallOptions, ProjectArgs, Session, Target } from "../query/session.ts";
import { clamp, projectArgs, READ, tool, type ToolDef } from "../query/tool_kit.ts";
import { type Commit, historyOf } from "./history.ts";
import {
  checkTags,
  checkText,
  type Note,
  NOTE_KINDS,
  notesAbout,
  NoteStore,
  place,
  type Placement,
} from "./notes.ts";

function day(iso: string): string {
  return iso.slice(0, 10);
}

function clientOf(call: CallOptions): string {
  const c = call.client;
  if (!c) return "cli";
  return [c.name, c.version].filter(Boolean).join(" ") || "mcp";
}

// ---- JSON shapes ------------------------------------------------------------------------------

function nodeJson(n: NodeRef) {
  return { qualified_name: n.qualified_name, kind: n.kind, path: n.path, line: n.line };
}

function noteJson(n: Note) {
  return {
    note_id: n.note_id,
    kind: n.kind,
    text: n.text,
    tags: n.tags,
    created_at: n.created_at,
    branch: displayName(n.branch),
    commit: n.commit,
    client: n.client,
    written_on: {
      qualified_name: n.qualified_name,
      kind: n.symbol_kind,
      path: n.path,
      line: n.line,
    },
  };
}

function placementJson(p: Placement) {
  return {
    ...noteJson(p.note),
    placement: p.how,
    ...(p.node ? { about: nodeJson(p.node) } : {}),
    ...(p.near?.length ? { near: p.near.map(nodeJson) } : {}),
  };
}

/** `moved from billing/invoice.py`, or `was billing.Invoice.total` when only the name changed. */
function movedFrom(p: Placement): string {
  return p.node && p.node.path !== p.note.path
    ? `moved from ${p.note.path}`
    : `was ${p.note.qualified_name}`;
}

/** `shop.db.store (function, shop/db.py:13)`, plus where it was when the note was written. */
function aboutText(p: Placement): string {
  const n = p.note;
  const was = `${n.qualified_name}${
    n.target === "file" ? "" : ` (${n.symbol_kind.toLowerCase()}, ${n.path}:${n.line})`
  }`;
  if (!p.node) {
    const near = p.near?.length
      ? `; same name: ${p.near.map((x) => x.qualified_name).join(", ")}`
      : "";
    return `orphaned: was ${was}${near}`;
  }
  const moved = p.how === "moved" ? `, ${movedFrom(p)}` : "";
  return `${F.describe(p.node)}${moved}`;
}

function noteMeta(n: Note): string {
  return [day(n.created_at), n.client, displayName(n.branch)].filter(Boolean).join(" ");
}

// ---- remember / forget ------------------------------------------------------------------------

async function storeFor(session: Session, a: ProjectArgs): Promise<NoteStore> {
  const project = a.project && !a.path
    ? sanitizeName(a.project)
    : (await session.refFor(projectArgs(a))).project;
  return new NoteStore(await session.db(), project);
}

const remember = tool({
  name: "remember",
  description:
    "Attach a note (note|decision|bug|todo, tags) to a symbol or file for later sessions; " +
    "kept across re-indexing, branches and moves.",
  shape: {
    symbol: z.string().optional(),
    file: z.string().optional(),
    text: z.string(),
    kind: z.enum(NOTE_KINDS).default("note"),
    tags: z.array(z.string()).optional(),
  },
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  cli: {
    command: "remember",
    positionals: ["symbol", "text"],
    rest: true,
    summary: "attach a note to a symbol or file",
  },
  async run(session, a, call) {
    const text = checkText(a.text);
    const tags = checkTags(a.tags);
    const t = await session.target(projectArgs(a), call);
    const resolved = await resolveSymbol(
      t.reader,
      { name: a.symbol, file: a.file, allowFiles: true },
      t.root,
    );
    if (resolved.total > 1) {
      const listed = resolved.matches.slice(0, 5).map((n) => F.describe(n)).join("; ");
      throw new CgraphError(
        `'${resolved.query}' has ${resolved.total} definitions: ${listed}${
          resolved.total > 5 ? `; +${resolved.total - 5} more` : ""
        }.`,
        "A note belongs to one: narrow with file or a qualified name.",
      );
    }
    const node = resolved.matches[0];
    const commit = (t.root ? await headCommit(t.root) : undefined) ?? t.info.commit ?? "";
    const store = new NoteStore(await session.db(), t.project);
    const note = await store.add({
      text,
      kind: a.kind,
      tags,
      branch: t.branch,
      commit: String(commit),
      client: clientOf(call),
      node,
    });
    const data = { type: "note", ...noteJson(note), about: nodeJson(node) };
    return {
      data,
      text: (notes) =>
        F.header(`remembered ${note.note_id} (${note.kind}) on ${F.describe(node)}`, [
          `branch ${displayName(note.branch)}`,
          note.commit ? `commit ${note.commit.slice(0, 12)}` : undefined,
          `client ${note.client}`,
          note.tags.length ? `tags ${note.tags.join(", ")}` : undefined,
          ...notes,
        ]),
      notes: t.notes,
    };
  },
});

const forget = tool({
  name: "forget",
  description: "Delete one note by its id (as remember, recall and memory_linked_search show it).",
  shape: { note_id: z.string() },
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  cli: { command: "forget", positionals: ["note_id"], summary: "delete a note" },
  async run(session, a) {
    const id = a.note_id.trim();
    if (!id) throw new CgraphError("Give the id of the note to forget (n-...).");
    const store = await storeFor(session, a);
    const gone = await store.remove(id);
    if (!gone) {
      throw new CgraphError(
        `No note '${id}' in project '${displayName(store.project)}'.`,
        "recall (cgraph recall) lists notes with their ids.",
      );
    }
    return {
      data: { type: "forgotten", ...noteJson(gone) },
      text: (notes) =>
        F.header(`forgot ${gone.note_id} (${gone.kind}) on ${gone.qualified_name}`, [
          `was: ${F.oneLine(gone.text, 80)}`,
          ...notes,
        ]),
      notes: [],
    };
  },
});

// ---- recall -----------------------------------------------------------------------------------

interface DecisionHit {
  title: string;
  status: string;
  date: string;
  path: string;
  snippet: string;
  mentions: NodeRef[];
}

/** RediSearch terms from [a-z0-9] words only: every word (AND), or any word (OR). */
function fulltextQuery(words: string[], any: boolean): string {
  const terms = words.map((w) => (w.length >= 3 ? `${w}*` : w));
  return any ? terms.join("|") : terms.join(" ");
}

function snippet(body: string, words: string[]): string {
  const text = body.replace(/^---[\s\S]*?\n---\n/, "").replace(/^\s*#.*$/gm, "")
    .replace(/\s+/g, " ");
  const lower = text.toLowerCase();
  const at = words.map((w) => lower.indexOf(w)).filter((i) => i >= 0).sort((a, b) => a - b)[0];
  if (at === undefined) return F.oneLine(text, 100);
  const from = Math.max(0, at - 40);
  return `${from > 0 ? "..." : ""}${F.oneLine(text.slice(from), 100)}`;
}

async function searchDecisions(g: GraphReader, q: string, words: string[], cap: number) {
  let rows: Record<string, unknown>[];
  try {
    rows = await g.rows(Q.FULLTEXT_DECISIONS, { q, cap });
  } catch (err) {
    // No decision in this graph yet: no index to search.
    if (!/index|no such/i.test((err as Error).message)) throw err;
    rows = [];
  }
  const ids = rows.map((r) => String(r.id));
  const mentions = new Map<string, NodeRef[]>();
  if (ids.length) {
    for (const r of await g.rows(Q.DECISION_MENTIONS, { ids, cap: 5000 })) {
      const list = mentions.get(String(r.decision)) ?? [];
      list.push(nodeOf(r));
      mentions.set(String(r.decision), list);
    }
  }
  return rows.map((r): DecisionHit => ({
    title: String(r.title ?? ""),
    status: String(r.status ?? ""),
    date: String(r.date ?? ""),
    path: String(r.path ?? ""),
    snippet: snippet(String(r.body ?? ""), words),
    mentions: (mentions.get(String(r.id)) ?? []).sort(byLocation),
  }));
}

function decisionLine(d: { path: string; title: string; status: string; date: string }): string {
  return [d.path, F.oneLine(d.title, 100), d.status || "no status", d.date || "undated"].join(
    " | ",
  );
}

const recall = tool({
  name: "recall",
  description:
    "Search notes and repository decisions (ADRs), each hit with its symbol or file. No " +
    "query: latest notes; orphaned=true: notes whose symbol is gone.",
  shape: {
    query: z.string().optional(),
    kind: z.enum(NOTE_KINDS).optional(),
    orphaned: z.boolean().default(false),
    limit: z.number().default(20),
  },
  annotations: READ,
  cli: {
    command: "recall",
    positionals: ["query"],
    rest: true,
    summary: "search notes and decisions",
  },
  async run(session, a, call) {
    const notes: string[] = [];
    const limit = clamp("limit", a.limit, 1, 200, notes);
    const query = (a.query ?? "").trim();
    const words = queryWords(query);
    if (query && !words.length) {
      throw new CgraphError(
        `Nothing to search for in '${query}'.`,
        "Give words of the note or decision, e.g. 'retry timeout'.",
      );
    }
    const t = await session.target(projectArgs(a), call);
    const store = new NoteStore(t.reader.db, t.project);
    const kind = a.kind ?? null;
    const cap = a.orphaned ? 1000 : limit + 1;
    const withDecisions = !a.orphaned && (kind === null || kind === "decision");
    // Every word first; any word only when that finds nothing at all.
    const lookup = async (any: boolean): Promise<[Note[], DecisionHit[]]> => {
      const q = fulltextQuery(words, any);
      return [
        await store.search(q, kind, cap),
        withDecisions ? await searchDecisions(t.reader, q, words, limit + 1) : [],
      ];
    };
    let found: Note[];
    let decisions: DecisionHit[] = [];
    if (words.length) {
      [found, decisions] = await lookup(false);
      if (!found.length && !decisions.length && words.length > 1) {
        [found, decisions] = await lookup(true);
      }
    } else found = await store.recent(kind, cap);
    let placed: Placement[] = [];
    for (const n of found) placed.push(await place(t.reader, n));
    if (a.orphaned) placed = placed.filter((p) => !p.node);
    // Notes and decisions interleaved by rank, up to the limit.
    const hits: ({ note: Placement } | { decision: DecisionHit })[] = [];
    for (let i = 0; hits.length < limit && (i < placed.length || i < decisions.length); i++) {
      if (i < placed.length) hits.push({ note: placed[i] });
      if (i < decisions.length && hits.length < limit) hits.push({ decision: decisions[i] });
    }
    const more = placed.length + decisions.length > hits.length;
    const one = a.orphaned ? "orphaned note" : words.length ? "hit" : "note";
    const count = `${hits.length}${more ? "+" : ""} ${
      hits.length === 1 && !more ? one : `${one}s`
    }`;
    const title = `recall${query ? ` '${query}'` : ""}${a.kind ? ` (kind ${a.kind})` : ""}`;
    const data = {
      type: "recall",
      query,
      ...(a.kind ? { kind: a.kind } : {}),
      orphaned: a.orphaned,
      limit,
      hits: hits.map((h) =>
        "note" in h ? { hit: "note", ...placementJson(h.note) } : {
          hit: "decision",
          ...h.decision,
          mentions: h.decision.mentions.map(nodeJson),
        }
      ),
      more,
    };
    return {
      data,
      text: (n) =>
        [
          F.header(`${title}: ${count}`, [
            !words.length ? "newest first" : undefined,
            more ? "more exist: raise limit or refine the query" : undefined,
            ...n,
          ]),
          ...hits.map((h) => {
            if ("note" in h) {
              const p = h.note;
              return [
                p.note.note_id,
                p.note.kind,
                aboutText(p),
                noteMeta(p.note),
                F.oneLine(p.note.text, 160),
              ].join(" | ");
            }
            const d = h.decision;
            const names = d.mentions.slice(0, 3).map((m) => m.qualified_name);
            const mentions = names.length
              ? `mentions ${names.join(", ")}${
                d.mentions.length > 3 ? ` +${d.mentions.length - 3}` : ""
              }`
              : "mentions nothing indexed";
            return `decision | ${decisionLine(d)} | ${mentions} | ${d.snippet}`;
          }),
        ].join("\n"),
      notes: [...notes, ...t.notes],
    };
  },
});

// ---- memory_linked_search ---------------------------------------------------------------------

interface Section {
  links: Link[];
  total: number;
}

interface MemoryNote {
  placement: Placement;
  /** symbol | file | caller | callee */
  relation: string;
  via?: NodeRef;
}

interface MemoryDecision {
  id: string;
  title: string;
  status: string;
  date: string;
  path: string;
  /** `it` (names the symbol) or `its file`. */
  names: string;
}

interface MemoryGroup {
  target: NodeRef;
  doc?: string;
  callers: Section;
  callees: Section;
  notes: MemoryNote[];
  notes_total: number;
  decisions: MemoryDecision[];
  commits: Commit[];
  history_note?: string;
}

function section(links: Link[], limit: number): Section {
  const merged = mergeParallel(links).sort(byDepthThenLocation);
  return { links: merged.slice(0, limit), total: merged.length };
}

async function memoryGroup(
  t: Target,
  target: NodeRef,
  limit: number,
): Promise<MemoryGroup> {
  const g = t.reader;
  const file = isFile(target);
  const [inTypes, outTypes] = file
    ? [["IMPORTS"], ["IMPORTS"]] as const
    : [["CALLS"], ["CALLS"]] as const;
  const callers = section((await g.step([target], [...inTypes], "IN", 1)).links, limit);
  const callees = section((await g.step([target], [...outTypes], "OUT", 1)).links, limit);

  // Notes: on the symbol, on its file, then on the callers and callees shown.
  const own = fileOf(target);
  const around = [...callers.links, ...callees.links].map((l) => l.node);
  const store = new NoteStore(g.db, t.project);
  const placed = await notesAbout(store, g, [target, ...(file ? [] : [own]), ...around]);
  const notes: MemoryNote[] = [];
  for (const p of placed.get(target.id) ?? []) {
    notes.push({ placement: p, relation: file ? "file" : "symbol" });
  }
  if (!file) {
    for (const p of placed.get(own.id) ?? []) notes.push({ placement: p, relation: "file" });
  }
  const seen = new Set(notes.map((n) => n.placement.note.note_id));
  for (const [links, relation] of [[callers.links, "caller"], [callees.links, "callee"]] as const) {
    for (const l of links) {
      for (const p of placed.get(l.node.id) ?? []) {
        if (seen.has(p.note.note_id)) continue;
        seen.add(p.note.note_id);
        notes.push({
          placement: p,
          relation: file ? (relation === "caller" ? "importer" : "import") : relation,
          via: l.node,
        });
      }
    }
  }

  // Decisions naming the symbol, then its file.
  const decisions = new Map<string, MemoryDecision>();
  const add = (rows: Record<string, unknown>[], names: string) => {
    for (const r of rows) {
      const id = String(r.id);
      if (decisions.has(id)) continue;
      decisions.set(id, {
        id,
        title: String(r.title ?? ""),
        status: String(r.status ?? ""),
        date: String(r.date ?? ""),
        path: String(r.path ?? ""),
        names,
      });
    }
  };
  if (!file) {
    add(await g.rows(Q.DECISIONS_MENTIONING_SYMBOLS, { ids: [target.id], cap: 200 }), "it");
  }
  add(
    await g.rows(Q.DECISIONS_MENTIONING_FILES, { ids: [own.id], cap: 200 }),
    file ? "it" : "its file",
  );

  const history = await historyOf(g.db, t.project, t.root, {
    path: target.path,
    line: file ? 0 : target.line,
    end_line: target.end_line,
  }, limit);

  let doc: string | undefined;
  if (!file) {
    const [d] = await g.rows(Q.SYMBOL_DETAILS, { id: target.id });
    if (d && typeof d.doc === "string" && d.doc) doc = d.doc;
  }
  return {
    target,
    doc,
    callers,
    callees,
    notes: notes.slice(0, limit),
    notes_total: notes.length,
    decisions: [...decisions.values()].slice(0, limit),
    commits: history.commits,
    ...(history.note ? { history_note: history.note } : {}),
  };
}

function count(shown: number, total: number): string {
  return total > shown ? `${total}, showing ${shown}` : `${total}`;
}

function memoryLines(gr: MemoryGroup): string[] {
  const t = gr.target;
  const file = isFile(t);
  const out = ["--- definition ---"];
  const span = t.end_line && t.end_line > t.line ? `-${t.end_line}` : "";
  out.push(file ? `${t.path} | file` : `${F.loc(t)}${span} | ${F.shortName(t)} | ${F.kindOf(t)}`);
  if (t.signature) out.push(`signature: ${F.oneLine(t.signature, 200)}`);
  if (gr.doc) out.push(`doc: ${F.oneLine(gr.doc, 200)}`);
  const [inName, outName] = file ? ["imported by", "imports"] : ["callers", "callees"];
  out.push(`--- ${inName} (${count(gr.callers.links.length, gr.callers.total)}) ---`);
  for (const l of gr.callers.links) out.push(edgeLine(l));
  out.push(`--- ${outName} (${count(gr.callees.links.length, gr.callees.total)}) ---`);
  for (const l of gr.callees.links) out.push(edgeLine(l));
  out.push(`--- notes (${count(gr.notes.length, gr.notes_total)}) ---`);
  for (const n of gr.notes) {
    const p = n.placement;
    const on = n.via ? `${n.relation} ${n.via.qualified_name}` : n.relation;
    const moved = p.how === "moved" ? ` (${movedFrom(p)})` : "";
    out.push(
      [p.note.note_id, p.note.kind, `${on}${moved}`, noteMeta(p.note), F.oneLine(p.note.text, 160)]
        .join(" | "),
    );
  }
  out.push(`--- decisions (${gr.decisions.length}) ---`);
  for (const d of gr.decisions) out.push(`${decisionLine(d)} | names ${d.names}`);
  const fixes = gr.commits.filter((c) => c.fix).length;
  out.push(
    `--- commits (${gr.commits.length}${
      fixes ? `, ${fixes} ${fixes === 1 ? "fix" : "fixes"}` : ""
    }${gr.commits.length ? ", newest first" : ""}${
      gr.history_note ? `; ${gr.history_note}` : ""
    }) ---`,
  );
  for (const c of gr.commits) {
    out.push(
      [
        c.hash.slice(0, 10),
        day(c.date),
        c.author,
        F.oneLine(c.subject, 120),
        ...(c.fix ? ["fix"] : []),
      ]
        .join(" | "),
    );
  }
  return out;
}

function edgeLine(l: Link): string {
  const at = l.at !== undefined
    ? ` | ${l.rel === "CALLS" ? "call" : l.rel.toLowerCase()} at ${l.at}${
      l.count && l.count > 1 ? ` (x${l.count})` : ""
    }`
    : "";
  return `${F.nodeLine(l.node)}${at}`;
}

function groupSummary(gr: MemoryGroup): string {
  const file = isFile(gr.target);
  const fixes = gr.commits.filter((c) => c.fix).length;
  return [
    F.plural(gr.callers.total, file ? "importer" : "caller"),
    F.plural(gr.callees.total, file ? "import" : "callee"),
    F.plural(gr.notes_total, "note"),
    F.plural(gr.decisions.length, "decision"),
    `${F.plural(gr.commits.length, "commit")}${
      fixes ? ` (${F.plural(fixes, "fix", "fixes")})` : ""
    }`,
  ].join(", ");
}

function groupJson(gr: MemoryGroup) {
  const links = (s: Section) => ({
    total: s.total,
    links: s.links.map((l) => ({
      ...nodeJson(l.node),
      ...(l.at !== undefined ? { at: l.at } : {}),
    })),
  });
  return {
    target: nodeJson(gr.target),
    ...(gr.target.signature ? { signature: gr.target.signature } : {}),
    ...(gr.doc ? { doc: gr.doc } : {}),
    callers: links(gr.callers),
    callees: links(gr.callees),
    notes: gr.notes.map((n) => ({
      relation: n.relation,
      ...(n.via ? { via: nodeJson(n.via) } : {}),
      ...placementJson(n.placement),
    })),
    notes_total: gr.notes_total,
    decisions: gr.decisions.map(({ id: _id, ...d }) => d),
    commits: gr.commits,
    ...(gr.history_note ? { history_note: gr.history_note } : {}),
  };
}

const memoryLinkedSearch = tool({
  name: "memory_linked_search",
  description:
    "Before changing a symbol or file: definition, callers, callees, notes (its own, then its " +
    "callers'/callees'), decisions naming it, commits touching its lines (fixes marked).",
  shape: {
    symbol: z.string().optional(),
    file: z.string().optional(),
    limit: z.number().default(10),
  },
  annotations: READ,
  cli: {
    command: "memory",
    positionals: ["symbol"],
    summary: "a symbol with its notes, decisions and history",
  },
  async run(session, a, call) {
    const notes: string[] = [];
    const limit = clamp("limit", a.limit, 1, 100, notes);
    const t = await session.target(projectArgs(a), call);
    const resolved = await resolveSymbol(
      t.reader,
      { name: a.symbol, file: a.file, allowFiles: true },
      t.root,
    );
    const groups: MemoryGroup[] = [];
    for (const target of resolved.matches.slice(0, 3)) {
      groups.push(await memoryGroup(t, target, limit));
    }
    const data = {
      type: "memory",
      query: resolved.query,
      definitions: resolved.total,
      limit,
      groups: groups.map(groupJson),
    };
    return {
      data,
      text: (n) => {
        if (groups.length === 1 && resolved.total === 1) {
          const gr = groups[0];
          return [
            F.header(`memory of ${F.describe(gr.target)}: ${groupSummary(gr)}`, n),
            ...memoryLines(gr),
          ].join("\n");
        }
        const out = [
          F.header(`memory of '${resolved.query}': ${resolved.total} definitions match`, [
            F.NARROW,
            resolved.total > groups.length ? `showing ${groups.length}` : undefined,
            ...n,
          ]),
        ];
        for (const gr of groups) {
          out.push(`# ${F.nodeLine(gr.target)}: ${groupSummary(gr)}`, ...memoryLines(gr));
        }
        return out.join("\n");
      },
      notes: [...notes, ...t.notes],
    };
  },
});

export const MEMORY_TOOLS: ToolDef[] = [memoryLinkedSearch, recall, remember, forget];

// ---- the hint in get_context and impact_analysis ----------------------------------------------

/**
 * One header line when notes or decisions exist for any of `nodes` (the symbols an answer lists):
 * `memory: notes on a.b (2), decisions on c.d (1); memory_linked_search <symbol> shows them`.
 * Notes are matched by id or qualified name (moves found only by name are left to the tool).
 */
export async function memoryHint(t: Target, nodes: NodeRef[]): Promise<string | undefined> {
  const unique = new Map<string, NodeRef>();
  for (const n of nodes) if (!unique.has(n.id)) unique.set(n.id, n);
  const list = [...unique.values()].slice(0, 1000);
  if (!list.length) return undefined;
  const g = t.reader;
  const noteCount = new Map<string, number>();
  const store = new NoteStore(g.db, t.project);
  if (await store.exists()) {
    const byId = new Map(list.map((n) => [isFile(n) ? fileId(n.path) : n.id, n]));
    const byQn = new Map<string, NodeRef>();
    for (const n of list) {
      if (!byQn.has(`${n.qualified_name}\0${n.kind}`)) {
        byQn.set(`${n.qualified_name}\0${n.kind}`, n);
      }
    }
    const seen = new Set<string>();
    const ro = { readOnly: true };
    const rows = [
      ...await g.db.query(
        store.graph,
        Q.NOTES_BY_SYMBOL_IDS,
        { ids: [...byId.keys()], cap: 5000 },
        ro,
      ),
      ...await g.db.query(store.graph, Q.NOTES_BY_QUALIFIED, {
        qns: [...new Set(list.map((n) => n.qualified_name))],
        cap: 5000,
      }, ro),
    ];
    for (const r of rows) {
      const id = String(r.note_id);
      if (seen.has(id)) continue;
      const n = byId.get(String(r.symbol_id)) ?? byQn.get(`${r.qn}\0${r.symbol_kind}`);
      if (!n) continue;
      seen.add(id);
      noteCount.set(n.id, (noteCount.get(n.id) ?? 0) + 1);
    }
  }
  const decisionCount = new Map<string, number>();
  const symbols = list.filter((n) => !isFile(n)).map((n) => n.id);
  const files = list.filter(isFile).map((n) => n.id);
  const rows = [
    ...(symbols.length
      ? await g.rows(Q.DECISIONS_MENTIONING_SYMBOLS, { ids: symbols, cap: 5000 })
      : []),
    ...(files.length ? await g.rows(Q.DECISIONS_MENTIONING_FILES, { ids: files, cap: 5000 }) : []),
  ];
  for (const r of rows) {
    decisionCount.set(String(r.about), (decisionCount.get(String(r.about)) ?? 0) + 1);
  }
  // The answer's own subject first, then the rest by notes, then decisions, then name.
  const hits = list
    .map((n, i) => ({ n, i, k: noteCount.get(n.id) ?? 0, d: decisionCount.get(n.id) ?? 0 }))
    .filter((x) => x.k || x.d)
    .sort((a, b) =>
      (a.i === 0 ? -1 : b.i === 0 ? 1 : 0) || b.k - a.k || b.d - a.d ||
      (a.n.qualified_name < b.n.qualified_name
        ? -1
        : a.n.qualified_name > b.n.qualified_name
        ? 1
        : 0)
    );
  if (!hits.length) return undefined;
  const parts = hits.map(({ n, k, d }) => {
    const what = [k ? F.plural(k, "note") : "", d ? F.plural(d, "decision") : ""].filter(Boolean);
    return `${n.qualified_name} (${what.join(", ")})`;
  });
  const shown = parts.slice(0, 4).join(", ") +
    (parts.length > 4 ? ` +${parts.length - 4} more` : "");
  return `memory: notes or decisions on ${shown}; memory_linked_search ${
    hits[0].n.qualified_name
  } shows them`;
}
