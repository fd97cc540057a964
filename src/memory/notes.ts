/**
 * Notes that outlive indexing: what an agent (or a person) wrote about a symbol or a file, kept in
 * a FalkorDB graph of their own per project, `mem:{project}`, which no indexing run touches. A
 * note stores its symbol's stable id with its qualified name, name, kind and path, so it can be
 * found again on any branch and after a move:
 *
 * 1. the same id (same path, qualified name and kind): the symbol is where it was;
 * 2. else the same qualified name and kind (moved where the name does not follow the path);
 * 3. else the same name and kind whose qualified name ends like the old one in at least two
 *    segments (`invoice.total` after `billing/invoice.py` moved to `payments/invoice.py`), when
 *    exactly one symbol fits best;
 * 4. else the note is orphaned: kept, and reported as such, never dropped.
 *
 * File notes follow the same rules by path, then by a unique file of the same name.
 */
import type { Db, Row } from "../db/client.ts";
import * as W from "../db/cypher.ts";
import * as Q from "../db/queries.ts";
import { CgraphError } from "../errors.ts";
import { fileId, wordsOf } from "../graph/model.ts";
import { byLocation, type GraphReader, isFile, type NodeRef } from "../query/graph.ts";
import { projectKeys } from "../project/names.ts";

export const NOTE_KINDS = ["note", "decision", "bug", "todo"] as const;
export type NoteKind = typeof NOTE_KINDS[number];

/** Largest note text, in UTF-8 bytes. */
export const MAX_NOTE_BYTES = 8 * 1024;
export const MAX_TAGS = 20;
export const MAX_TAG_CHARS = 40;
/** Candidate notes checked per lookup (a common name may have many notes about other symbols). */
const CANDIDATE_CAP = 200;

export function notesGraph(project: string): string {
  return projectKeys(project).memory;
}

export interface Note {
  note_id: string;
  text: string;
  kind: NoteKind;
  tags: string[];
  created_at: string;
  /** Branch and commit (HEAD) the note was written on. */
  branch: string;
  commit: string;
  /** `name version` of the MCP client, or `cli`. */
  client: string;
  target: "symbol" | "file";
  /** Symbol id (or File id) when written. */
  symbol_id: string;
  /** Qualified name (the path for a file note), name (the file name), kind (`File`). */
  qualified_name: string;
  name: string;
  symbol_kind: string;
  path: string;
  line: number;
}

/** The text as it will be stored, or a CgraphError naming the limit. */
export function checkText(text: string): string {
  const t = text.trim();
  if (!t) throw new CgraphError("The note text is empty.", "Write what to remember in `text`.");
  const bytes = new TextEncoder().encode(t).length;
  if (bytes > MAX_NOTE_BYTES) {
    throw new CgraphError(
      `The note text is ${bytes} bytes; the limit is ${MAX_NOTE_BYTES} bytes (8 KiB).`,
      "Keep notes short: the gist and a pointer (file, issue, commit), or split it into several notes.",
    );
  }
  return t;
}

export function checkTags(tags: string[] | undefined): string[] {
  const out = [...new Set((tags ?? []).map((t) => t.trim()).filter(Boolean))];
  if (out.length > MAX_TAGS) {
    throw new CgraphError(`${out.length} tags; the limit is ${MAX_TAGS}.`);
  }
  const long = out.find((t) => t.length > MAX_TAG_CHARS);
  if (long) {
    throw new CgraphError(
      `Tag '${long.slice(0, 60)}' is ${long.length} characters; the limit is ${MAX_TAG_CHARS}.`,
    );
  }
  return out;
}

export function noteOf(r: Row): Note {
  const tags = Array.isArray(r.tags) ? r.tags.map(String) : [];
  return {
    note_id: String(r.note_id),
    text: String(r.text ?? ""),
    kind: String(r.kind ?? "note") as NoteKind,
    tags,
    created_at: String(r.created_at ?? ""),
    branch: String(r.branch ?? ""),
    commit: String(r.commit ?? ""),
    client: String(r.client ?? ""),
    target: r.target === "file" ? "file" : "symbol",
    symbol_id: String(r.symbol_id ?? ""),
    qualified_name: String(r.qn ?? ""),
    name: String(r.name ?? ""),
    symbol_kind: String(r.symbol_kind ?? ""),
    path: String(r.path ?? ""),
    line: Number(r.line ?? 0),
  };
}

/** What is new about a note when it is written. */
export interface NoteInput {
  text: string;
  kind: NoteKind;
  tags: string[];
  branch: string;
  commit: string;
  client: string;
  /** The symbol or file it is about. */
  node: NodeRef;
}

const schemaReady = new Set<string>();

/** The notes of one project. Reads of a project without notes find nothing (no graph yet). */
export class NoteStore {
  readonly graph: string;

  constructor(readonly db: Db, readonly project: string) {
    this.graph = notesGraph(project);
  }

  async exists(): Promise<boolean> {
    return await this.db.graphExists(this.graph);
  }

  private async read(cypher: string, params: Record<string, unknown>): Promise<Row[]> {
    if (!(await this.exists())) return [];
    return await this.db.query(this.graph, cypher, params, { readOnly: true });
  }

  private async ensureSchema(): Promise<void> {
    const key = `${this.db.address}|${this.graph}`;
    if (schemaReady.has(key) && (await this.exists())) return;
    for (const q of [...W.NOTE_INDEXES, W.NOTE_FULLTEXT]) {
      try {
        await this.db.query(this.graph, q);
      } catch (err) {
        if (!/already indexed|already exists/i.test((err as Error).message)) throw err;
      }
    }
    schemaReady.add(key);
  }

  async add(input: NoteInput): Promise<Note> {
    const n = input.node;
    const file = isFile(n);
    const note: Note = {
      note_id: `n-${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`,
      text: input.text,
      kind: input.kind,
      tags: input.tags,
      created_at: new Date().toISOString(),
      branch: input.branch,
      commit: input.commit,
      client: input.client,
      target: file ? "file" : "symbol",
      symbol_id: file ? fileId(n.path) : n.id,
      qualified_name: file ? n.path : n.qualified_name,
      name: file ? n.path.slice(n.path.lastIndexOf("/") + 1) : n.name,
      symbol_kind: n.kind,
      path: n.path,
      line: n.line,
    };
    await this.ensureSchema();
    const names = (note.text.match(/[A-Za-z_$][\w$]*/g) ?? []).slice(0, 2000);
    await this.db.query(this.graph, W.CREATE_NOTE, {
      id: note.note_id,
      text: note.text,
      kind: note.kind,
      tags: note.tags,
      tags_text: wordsOf(...note.tags),
      words: wordsOf(...names, note.qualified_name, ...note.path.split("/")),
      created_at: note.created_at,
      branch: note.branch,
      commit: note.commit,
      client: note.client,
      target: note.target,
      symbol_id: note.symbol_id,
      qualified_name: note.qualified_name,
      name: note.name,
      symbol_kind: note.symbol_kind,
      path: note.path,
      line: note.line,
    });
    return note;
  }

  async get(id: string): Promise<Note | undefined> {
    const [r] = await this.read(Q.NOTE_BY_ID, { id });
    return r ? noteOf(r) : undefined;
  }

  async remove(id: string): Promise<Note | undefined> {
    const found = await this.get(id);
    if (found) await this.db.query(this.graph, W.DELETE_NOTE, { id });
    return found;
  }

  /** Notes stored under these nodes' ids, qualified names or names: the ones that may be theirs. */
  async candidates(nodes: NodeRef[]): Promise<Note[]> {
    if (!nodes.length || !(await this.exists())) return [];
    const ids = [...new Set(nodes.map((n) => (isFile(n) ? fileId(n.path) : n.id)))];
    const qns = [...new Set(nodes.map((n) => n.qualified_name))];
    const names = [
      ...new Set(
        nodes.map((n) => (isFile(n) ? n.path.slice(n.path.lastIndexOf("/") + 1) : n.name)),
      ),
    ];
    const out = new Map<string, Note>();
    for (
      const [q, p] of [
        [Q.NOTES_BY_SYMBOL_IDS, { ids }],
        [Q.NOTES_BY_QUALIFIED, { qns }],
        [Q.NOTES_BY_NAMES, { names }],
      ] as const
    ) {
      for (const r of await this.read(q, { ...p, cap: CANDIDATE_CAP })) {
        const n = noteOf(r);
        out.set(n.note_id, n);
      }
    }
    return [...out.values()];
  }

  /** Full-text search; `q` must be RediSearch syntax from [a-z0-9] words (see recall.ts). */
  async search(q: string, kind: string | null, cap: number): Promise<Note[]> {
    try {
      return (await this.read(Q.FULLTEXT_NOTES, { q, kind, cap })).map(noteOf);
    } catch (err) {
      if (/index|no such/i.test((err as Error).message)) return [];
      throw err;
    }
  }

  async recent(kind: string | null, cap: number): Promise<Note[]> {
    return (await this.read(Q.NOTES_RECENT, { kind, cap })).map(noteOf);
  }
}

// ---- where a note is on a branch --------------------------------------------------------------

export interface Placement {
  note: Note;
  /** The symbol or file the note is about on this branch; absent when orphaned. */
  node?: NodeRef;
  /** `same`: where it was written; `moved`: found again by name; `orphaned`: gone. */
  how: "same" | "moved" | "orphaned";
  /** For an orphan: symbols of the same name, as hints. */
  near?: NodeRef[];
}

function segments(qn: string): string[] {
  return qn.split(".");
}

/** How many trailing dotted segments two qualified names share. */
function sharedTail(a: string, b: string): number {
  const x = segments(a);
  const y = segments(b);
  let n = 0;
  while (n < x.length && n < y.length && x[x.length - 1 - n] === y[y.length - 1 - n]) n++;
  return n;
}

/** Where a note is on the branch `g` reads (see the module comment for the rules). */
export async function place(g: GraphReader, note: Note): Promise<Placement> {
  if (note.target === "file") {
    const same = await g.nodes(Q.FILE_BY_PATH, { path: note.path });
    if (same.length) return { note, node: same[0], how: "same" };
    const base = note.name || note.path.slice(note.path.lastIndexOf("/") + 1);
    const pool = [
      ...await g.nodes(Q.FILE_BY_PATH, { path: base }),
      ...await g.nodes(Q.FILES_BY_SUFFIX, { suffix: "/" + base, cap: 50 }),
    ];
    if (pool.length === 1) return { note, node: pool[0], how: "moved" };
    return { note, how: "orphaned", near: pool.sort(byLocation).slice(0, 3) };
  }
  const [same] = (await g.byIds([note.symbol_id])).values();
  if (same && !isFile(same)) return { note, node: same, how: "same" };
  const byQn = (await g.nodes(Q.SYMBOLS_BY_QUALIFIED, { qn: note.qualified_name, cap: 50 }))
    .filter((n) => n.kind === note.symbol_kind).sort(byLocation);
  if (byQn.length) return { note, node: byQn[0], how: "moved" };
  const byName = (await g.nodes(Q.SYMBOLS_BY_NAME, { name: note.name, cap: 1000 }))
    .filter((n) => n.kind === note.symbol_kind);
  let best = 0;
  let fits: NodeRef[] = [];
  for (const n of byName) {
    const s = sharedTail(n.qualified_name, note.qualified_name);
    if (s > best) [best, fits] = [s, [n]];
    else if (s === best) fits.push(n);
  }
  const qns = new Set(fits.map((n) => n.qualified_name));
  if (best >= 2 && qns.size === 1) {
    return { note, node: fits.sort(byLocation)[0], how: "moved" };
  }
  return { note, how: "orphaned", near: byName.sort(byLocation).slice(0, 3) };
}

/**
 * The notes about each of `nodes` on this branch, by node id (newest first). Candidates stored
 * under another id are placed first, so a note about a moved symbol is found and a note about a
 * different symbol of the same name is not.
 */
export async function notesAbout(
  store: NoteStore,
  g: GraphReader,
  nodes: NodeRef[],
): Promise<Map<string, Placement[]>> {
  const out = new Map<string, Placement[]>();
  const byId = new Map<string, NodeRef>();
  for (const n of nodes) byId.set(isFile(n) ? fileId(n.path) : n.id, n);
  for (const note of await store.candidates(nodes)) {
    let p: Placement;
    const direct = byId.get(note.symbol_id);
    if (direct && (note.target === "file") === isFile(direct)) {
      p = { note, node: direct, how: "same" };
    } else {
      p = await place(g, note);
    }
    if (!p.node) continue;
    const key = isFile(p.node) ? fileId(p.node.path) : p.node.id;
    const node = byId.get(key);
    if (!node) continue;
    const list = out.get(node.id) ?? [];
    list.push({ ...p, node });
    out.set(node.id, list);
  }
  for (const list of out.values()) {
    list.sort((a, b) => (a.note.created_at < b.note.created_at ? 1 : -1));
  }
  return out;
}
