/**
 * The memory tools (remember, forget, recall, memory_linked_search) for the tool table in
 * src/tools/registry.ts: thin definitions over lookups.ts (what is read) and format.ts (how it
 * reads); the hint other answers carry is hint.ts.
 */
import { z } from "zod";
import { CgraphError } from "../errors.ts";
import { headCommit } from "../project/identity.ts";
import { displayName, sanitizeName } from "../project/names.ts";
import * as F from "../query/format.ts";
import { queryWords, resolveSymbol } from "../query/resolve_symbol.ts";
import type { CallOptions, ProjectArgs, Session } from "../query/session.ts";
import { clamp, projectArgs, READ, tool, type ToolDef } from "../query/tool_kit.ts";
import {
  aboutText,
  decisionLine,
  groupJson,
  groupSummary,
  memoryLines,
  nodeJson,
  noteJson,
  noteMeta,
  placementJson,
} from "./format.ts";
import {
  type DecisionHit,
  fulltextQuery,
  type MemoryGroup,
  memoryGroup,
  searchDecisions,
} from "./lookups.ts";
import {
  checkTags,
  checkText,
  type Note,
  NOTE_KINDS,
  NoteStore,
  place,
  type Placement,
} from "./notes.ts";

export { memoryHint } from "./hint.ts";

function clientOf(call: CallOptions): string {
  const c = call.client;
  if (!c) return "cli";
  return [c.name, c.version].filter(Boolean).join(" ") || "mcp";
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
            F.narrowHint(groups.map((gr) => gr.target)),
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
