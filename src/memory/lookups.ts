/**
 * What the memory tools look up: notes and decisions matching words (recall), and everything
 * around one symbol or file (memory_linked_search): callers, callees, notes on them, decisions
 * naming it, commits touching its lines. Rendering is in format.ts, the tool definitions in tools.ts.
 */
import { type Section, section } from "../query/context.ts";
import * as Q from "../db/queries.ts";
import { byLocation, type GraphReader, isFile, nodeOf, type NodeRef } from "../query/graph.ts";
import { fileOf } from "../query/neighbors.ts";
import type { Target } from "../query/session.ts";
import { type Commit, historyOf } from "./history.ts";
import { notesAbout, NoteStore, type Placement } from "./notes.ts";
import * as F from "../query/format.ts";

// ---- recall -----------------------------------------------------------------------------------

export interface DecisionHit {
  title: string;
  status: string;
  date: string;
  path: string;
  snippet: string;
  mentions: NodeRef[];
}

/** RediSearch terms from [a-z0-9] words only: every word (AND), or any word (OR). */
export function fulltextQuery(words: string[], any: boolean): string {
  const terms = words.map((w) => (w.length >= 3 ? `${w}*` : w));
  return any ? terms.join("|") : terms.join(" ");
}

export async function searchDecisions(g: GraphReader, q: string, words: string[], cap: number) {
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

// ---- memory_linked_search ---------------------------------------------------------------------

export type { Section };

export interface MemoryNote {
  placement: Placement;
  /** symbol | file | caller | callee */
  relation: string;
  via?: NodeRef;
}

export interface MemoryDecision {
  id: string;
  title: string;
  status: string;
  date: string;
  path: string;
  /** `it` (names the symbol) or `its file`. */
  names: string;
}

export interface MemoryGroup {
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

export async function memoryGroup(
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

/** The part of a decision record around the first word asked for, on one line. */
function snippet(body: string, words: string[]): string {
  const text = body.replace(/^---[\s\S]*?\n---\n/, "").replace(/^\s*#.*$/gm, "")
    .replace(/\s+/g, " ");
  const lower = text.toLowerCase();
  const at = words.map((w) => lower.indexOf(w)).filter((i) => i >= 0).sort((a, b) => a - b)[0];
  if (at === undefined) return F.oneLine(text, 100);
  const from = Math.max(0, at - 40);
  return `${from > 0 ? "..." : ""}${F.oneLine(text.slice(from), 100)}`;
}
