/**
 * Decisions from the repository: architecture decision records and design notes, read while
 * indexing into `(:Decision {id, title, status, date, path})` nodes of the branch graph, linked
 * `-[:MENTIONS]->` to the symbols and files they name. They are versioned with the code, so they
 * follow incremental indexing like any file: `syncDecisions` (a post-index step) brings the
 * graph's decisions to exactly what the files say now, whichever way the graph was built.
 *
 * Which files: Markdown files named `NNNN-*.md` or `ADR-*.md` under a decision folder (`docs/adr`,
 * `doc/adr`, `docs/decisions`, `doc/decisions`, `adr`, `docs/architecture/decisions`, at any depth;
 * `CGRAPH_DECISION_DIRS` replaces the list), and `ADR-*.md` anywhere.
 *
 * What they name: backticked identifiers, qualified names (`billing.invoice.total`,
 * `Invoice::total`, `Invoice#total`) and paths (`src/billing/invoice.py`). A name links when it
 * means one definition (or one qualified name); an ambiguous name is left out, as the resolver
 * leaves out an ambiguous call.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { Db } from "../db/client.ts";
import * as Q from "../db/cypher.ts";
import { fileId, shortHash, type SymbolNode, symbolNodes, wordsOf } from "../graph/model.ts";
import { ignoreList, maxFileBytes } from "../index/walk.ts";
import { factsOf, type FactsSource } from "../index/post_index.ts";

/** Bumped when parsing or linking changes, so every decision is rewritten once. */
const PARSER_VERSION = "1";
/** Bodies are kept for recall up to this size (the rest of the file still links). */
export const BODY_CAP = 32 * 1024;

export const DEFAULT_DECISION_DIRS = [
  "docs/adr",
  "doc/adr",
  "docs/decisions",
  "doc/decisions",
  "docs/architecture/decisions",
  "adr",
];

export function decisionDirs(): string[] {
  const raw = Deno.env.get("CGRAPH_DECISION_DIRS");
  if (raw === undefined || !raw.trim()) return DEFAULT_DECISION_DIRS;
  return raw.split(",").map((s) => s.trim().replace(/^\.?\/+|\/+$/g, "")).filter(Boolean);
}

const MARKDOWN = /\.(md|markdown)$/i;
const NUMBERED = /^\d{1,5}[-_]/;
const ADR_NAME = /^adr[-_]/i;

/** Whether a repository path is a decision record, by folder and name. */
export function isDecisionPath(path: string, dirs = decisionDirs()): boolean {
  if (!MARKDOWN.test(path)) return false;
  const slash = path.lastIndexOf("/");
  const name = path.slice(slash + 1);
  if (ADR_NAME.test(name)) return true;
  if (!NUMBERED.test(name) || slash < 0) return false;
  const dir = `/${path.slice(0, slash).toLowerCase()}/`;
  return dirs.some((d) => dir.includes(`/${d.toLowerCase()}/`));
}

export interface DecisionDoc {
  path: string;
  text: string;
  /** SHA-256 of the parser version and the text. */
  hash: string;
}

/** The decision records of a repository, read (unreadable and oversized files are skipped). */
export async function readDecisionDocs(
  root: string,
  known?: readonly string[],
): Promise<DecisionDoc[]> {
  const ignores = ignoreList();
  const dirs = decisionDirs();
  // The index run's own listing, when given, holds the Markdown files `git ls-files` would.
  const listed = known?.filter((p) => /\.(md|markdown|MD)$/.test(p)) ??
    (await gitMarkdown(root)) ?? (await walkMarkdown(root, ignores));
  const paths = listed
    .filter((p) => !p.split("/").some((seg) => ignores.has(seg)))
    .filter((p) => isDecisionPath(p, dirs))
    .sort();
  const limit = maxFileBytes();
  const out: DecisionDoc[] = [];
  for (const path of paths) {
    try {
      const abs = join(root, path);
      const st = await Deno.stat(abs);
      if (!st.isFile || st.size > limit) continue;
      const text = new TextDecoder().decode(await Deno.readFile(abs));
      const hash = createHash("sha256").update(`${PARSER_VERSION}\0${text}`).digest("hex");
      out.push({ path, text, hash });
    } catch {
      // deleted but still listed by git, or unreadable: not a decision now
    }
  }
  return out;
}

async function gitMarkdown(root: string): Promise<string[] | undefined> {
  try {
    const out = await new Deno.Command("git", {
      args: [
        "-C",
        root,
        "ls-files",
        "-z",
        "--cached",
        "--others",
        "--exclude-standard",
        "--",
        "*.md",
        "*.markdown",
        "*.MD",
      ],
      stdout: "piped",
      stderr: "null",
      env: { GIT_OPTIONAL_LOCKS: "0" },
    }).output();
    if (!out.success) return undefined;
    return [...new Set(new TextDecoder().decode(out.stdout).split("\0").filter(Boolean))];
  } catch {
    return undefined;
  }
}

async function walkMarkdown(root: string, ignores: Set<string>): Promise<string[]> {
  const out: string[] = [];
  const seen = new Set<string>();
  const stack = [""];
  while (stack.length) {
    const rel = stack.pop()!;
    const abs = rel ? join(root, rel) : root;
    const real = await Deno.realPath(abs).catch(() => undefined);
    if (!real || seen.has(real)) continue;
    seen.add(real);
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(abs));
    } catch {
      continue;
    }
    for (const e of entries) {
      if (ignores.has(e.name)) continue;
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) stack.push(p);
      else if ((e.isFile || e.isSymlink) && MARKDOWN.test(e.name)) out.push(p);
    }
  }
  return out;
}

// ---- parsing ----------------------------------------------------------------------------------

export interface ParsedDecision {
  title: string;
  status: string;
  date: string;
  /** What the text names, as written (backticked spans, qualified names, paths). */
  names: { text: string; backticked: boolean }[];
}

function clip(s: string, max: number): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? t.slice(0, max - 3) + "..." : t;
}

/** Strips Markdown emphasis and links from a one-line value: `**Accepted**` -> `Accepted`. */
function plain(s: string): string {
  return s.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/[*_`]/g, "").trim();
}

export function parseDecision(path: string, text: string): ParsedDecision {
  const lines = text.replace(/\r\n?/g, "\n").split("\n");
  const front: Record<string, string> = {};
  let start = 0;
  if (lines[0]?.trim() === "---") {
    const end = lines.findIndex((l, i) => i > 0 && l.trim() === "---");
    if (end > 0) {
      for (const l of lines.slice(1, end)) {
        const m = /^([A-Za-z_-]+)\s*:\s*(.*)$/.exec(l);
        if (m) front[m[1].toLowerCase()] = m[2].trim().replace(/^["']|["']$/g, "");
      }
      start = end + 1;
    }
  }
  const body = lines.slice(start);
  const field = (name: string): string | undefined => {
    // `Status: Accepted`, `* Status: accepted`, `- **Date:** 2024-01-02`, `Status | Accepted`
    const re = new RegExp(`^\\s*(?:[-*+]\\s+)?\\**${name}\\**\\s*(?::\\**|\\|)\\s*(.+)$`, "i");
    for (const l of body.slice(0, 60)) {
      const m = re.exec(l);
      if (m && plain(m[1])) return plain(m[1]);
    }
    // `## Status` followed by its first non-empty line.
    const h = body.findIndex((l) => new RegExp(`^#{1,6}\\s+${name}\\s*$`, "i").test(l.trim()));
    if (h >= 0) {
      for (const l of body.slice(h + 1, h + 8)) {
        if (/^#{1,6}\s/.test(l.trim())) break;
        if (l.trim()) return plain(l.replace(/^\s*[-*+]\s+/, ""));
      }
    }
    return undefined;
  };
  const heading = body.find((l) => /^#\s+\S/.test(l.trim()));
  const name = path.slice(path.lastIndexOf("/") + 1).replace(MARKDOWN, "");
  const title = front.title ?? (heading ? plain(heading.trim().replace(/^#\s+/, "")) : name);
  const status = front.status ?? field("status") ?? "";
  let date = front.date ?? field("date") ?? "";
  const iso = /\d{4}-\d{2}-\d{2}/.exec(date || body.slice(0, 40).join("\n"));
  date = iso ? iso[0] : clip(date, 40);
  return {
    title: clip(title, 200),
    status: clip(status, 80).toLowerCase(),
    date,
    names: namesIn(body.join("\n")),
  };
}

const SPAN = /`([^`\n]{1,200})`/g;
const DOTTED =
  /(?<![\w./:#-])[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)+(?![\w$]|\.[\w$]|::)/g;
const PATHLIKE = /(?<![\w./-])(?:\.{1,2}\/)?[\w.-]+(?:\/[\w.-]+)+\.[A-Za-z0-9]{1,6}(?![\w/])/g;

/** Names a decision text mentions: backticked spans anywhere, qualified names and paths in prose. */
export function namesIn(text: string): { text: string; backticked: boolean }[] {
  const out: { text: string; backticked: boolean }[] = [];
  const seen = new Set<string>();
  const add = (t: string, backticked: boolean) => {
    const key = `${backticked}\0${t}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ text: t, backticked });
    }
  };
  for (const m of text.matchAll(SPAN)) {
    const span = m[1].trim()
      .replace(/^(?:def|fn|func|function|class|struct|interface|trait|enum|type)\s+/, "")
      .replace(/\(.*\)\s*;?$/, "");
    if (/^[\w$.:#/\\-]+$/.test(span)) add(span, true);
  }
  const prose = text.replace(SPAN, " ");
  for (const m of prose.matchAll(PATHLIKE)) add(m[0], false);
  for (const m of prose.replace(PATHLIKE, " ").matchAll(DOTTED)) add(m[0], false);
  return out;
}

// ---- linking ----------------------------------------------------------------------------------

export interface DecisionNode {
  id: string;
  title: string;
  status: string;
  date: string;
  path: string;
  hash: string;
  body: string;
  /** Split words of the identifiers in the text, for full-text search. */
  words: string;
}

export interface Mention {
  /** Decision id. */
  from: string;
  /** Symbol or File id. */
  to: string;
  toFile: boolean;
}

export interface DecisionSet {
  decisions: DecisionNode[];
  mentions: Mention[];
}

export function decisionId(path: string): string {
  return shortHash(`decision\0${path}`);
}

interface Target {
  id: string;
  file: boolean;
  path: string;
  qn: string;
}

/** Decisions and their mentions, from the records and the symbols and files of the graph. */
export function linkDecisions(
  docs: DecisionDoc[],
  symbols: SymbolNode[],
  files: string[],
): DecisionSet {
  const byQn = new Map<string, SymbolNode[]>();
  const byName = new Map<string, SymbolNode[]>();
  for (const s of symbols) {
    push(byQn, s.qualified_name, s);
    push(byName, s.name, s);
  }
  const fileSet = new Set(files);
  const byBase = new Map<string, string[]>();
  for (const f of files) push(byBase, f.slice(f.lastIndexOf("/") + 1), f);

  const fileOf = (raw: string): string | undefined => {
    const p = raw.replaceAll("\\", "/").replace(/^(\.\.?\/)+/, "");
    if (fileSet.has(p)) return p;
    const base = p.slice(p.lastIndexOf("/") + 1);
    const hits = (byBase.get(base) ?? []).filter((f) => f === p || f.endsWith("/" + p));
    return hits.length === 1 ? hits[0] : undefined;
  };

  const out: DecisionSet = { decisions: [], mentions: [] };
  for (const doc of docs) {
    const parsed = parseDecision(doc.path, doc.text);
    const id = decisionId(doc.path);
    const targets = new Map<string, Target>();
    const mentionedFiles = new Set<string>();
    const pending: { text: string; backticked: boolean }[] = [];
    for (const n of parsed.names) {
      const looksPath = n.text.includes("/") || /\.[A-Za-z]{1,5}$/.test(n.text) &&
          fileOf(n.text) !== undefined;
      const f = looksPath ? fileOf(n.text) : undefined;
      if (f) {
        mentionedFiles.add(f);
        targets.set(fileId(f), { id: fileId(f), file: true, path: f, qn: f });
      } else if (!n.text.includes("/")) pending.push(n);
    }
    for (const n of pending) {
      for (const s of symbolsNamed(n.text, n.backticked, byQn, byName, mentionedFiles)) {
        targets.set(s.id, { id: s.id, file: false, path: s.path, qn: s.qualified_name });
      }
    }
    const words = wordsOf(...(doc.text.match(/[A-Za-z_$][\w$]*/g) ?? []).slice(0, 20000));
    out.decisions.push({
      id,
      title: parsed.title,
      status: parsed.status,
      date: parsed.date,
      path: doc.path,
      hash: doc.hash,
      body: doc.text.length > BODY_CAP ? doc.text.slice(0, BODY_CAP) : doc.text,
      words: words.length > BODY_CAP ? words.slice(0, words.lastIndexOf(" ", BODY_CAP)) : words,
    });
    for (const t of [...targets.values()].sort((a, b) => (a.id < b.id ? -1 : 1))) {
      out.mentions.push({ from: id, to: t.id, toFile: t.file });
    }
  }
  return out;
}

/**
 * The definitions a written name means: an exact qualified name; else a dotted tail of one
 * (`Invoice.total`); else (backticked only) a plain name. Several candidates narrow to the files
 * the record names; what stays ambiguous (more than one qualified name) links to nothing.
 */
function symbolsNamed(
  raw: string,
  backticked: boolean,
  byQn: Map<string, SymbolNode[]>,
  byName: Map<string, SymbolNode[]>,
  files: Set<string>,
): SymbolNode[] {
  const name = raw.replace(/::|#|->/g, ".").replace(/^\.+|\.+$/g, "");
  if (!name) return [];
  const exact = byQn.get(name);
  if (exact) return exact;
  const dot = name.lastIndexOf(".");
  if (dot < 0 && !backticked) return [];
  const last = name.slice(dot + 1);
  let found = byName.get(last) ?? [];
  if (dot >= 0) found = found.filter((s) => s.qualified_name.endsWith("." + name));
  if (found.length > 1 && files.size) {
    const narrowed = found.filter((s) => files.has(s.path));
    if (narrowed.length) found = narrowed;
  }
  const qns = new Set(found.map((s) => s.qualified_name));
  return qns.size === 1 ? found : [];
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

// ---- the indexer hook -------------------------------------------------------------------------

export interface DecisionSync {
  /** Decision records in the repository now. */
  decisions: number;
  /** Decisions created or rewritten, and deleted, by this run. */
  written: number;
  deleted: number;
}

/**
 * Brings a graph's decisions to what the repository's records say, linked against `facts` (every
 * file of the graph as it is after this run's code writes). Diffs against the graph itself, so it
 * serves full runs (an empty staging graph), incremental runs (edges to re-created symbols come
 * back) and no-op runs. With `codeUnchanged` (no code file changed in this run) and every record
 * as the graph has it, nothing is linked or written. A decision is written with an empty hash
 * that is set only once its edges exist, so an interrupted run is redone by the next one.
 */
export async function syncDecisions(
  db: Db,
  graph: string,
  root: string,
  facts: FactsSource,
  opts: { codeUnchanged?: boolean; paths?: readonly string[] } = {},
): Promise<DecisionSync> {
  const docs = await readDecisionDocs(root, opts.paths);
  const ro = { readOnly: true };
  const have = new Map(
    (await db.query(graph, Q.CURRENT_DECISIONS, {}, ro)).map((r) => [String(r.id), String(r.hash)]),
  );
  const none = { decisions: docs.length, written: 0, deleted: 0 };
  if (!docs.length && !have.size) return none;
  if (
    opts.codeUnchanged && docs.length === have.size &&
    docs.every((d) => have.get(decisionId(d.path)) === d.hash)
  ) {
    return none;
  }
  const all = await factsOf(facts);
  const want = linkDecisions(docs, all.flatMap((f) => symbolNodes(f)), all.map((f) => f.path));
  const haveEdges = new Set(
    (await db.query(graph, Q.CURRENT_MENTIONS, {}, ro)).map((r) => `${r.from}\0${r.to}`),
  );
  const wanted = new Map(want.decisions.map((d) => [d.id, d]));
  const stale = new Set([...have.keys()].filter((id) => wanted.get(id)?.hash !== have.get(id)));
  const fresh = want.decisions.filter((d) => have.get(d.id) !== d.hash);
  const rewritten = new Set(fresh.map((d) => d.id));
  const wantEdges = new Set(want.mentions.map((m) => `${m.from}\0${m.to}`));
  const dropEdges = [...haveEdges]
    .map((k) => k.split("\0"))
    .filter(([from, to]) => !wantEdges.has(`${from}\0${to}`) && !stale.has(from))
    .map(([from, to]) => ({ from, to }));
  const addEdges = want.mentions.filter((m) =>
    rewritten.has(m.from) || !haveEdges.has(`${m.from}\0${m.to}`)
  );

  if (fresh.length && have.size === 0) await createDecisionIndexes(db, graph);
  if (stale.size) await db.query(graph, Q.DELETE_DECISIONS, { ids: [...stale] });
  for (let i = 0; i < dropEdges.length; i += 2000) {
    await db.query(graph, Q.DELETE_MENTIONS, { rows: dropEdges.slice(i, i + 2000) });
  }
  for (let i = 0; i < fresh.length; i += 500) {
    const rows = fresh.slice(i, i + 500).map((d) => ({ ...d, hash: "" }));
    await db.query(graph, Q.CREATE_DECISIONS, { rows });
  }
  for (const toFile of [false, true]) {
    const rows = addEdges.filter((m) => m.toFile === toFile).map((m) => ({
      from: m.from,
      to: m.to,
    }));
    const cypher = toFile ? Q.CREATE_MENTIONS_FILE : Q.CREATE_MENTIONS_SYMBOL;
    for (let i = 0; i < rows.length; i += 2000) {
      await db.query(graph, cypher, { rows: rows.slice(i, i + 2000) });
    }
  }
  for (let i = 0; i < fresh.length; i += 2000) {
    const rows = fresh.slice(i, i + 2000).map((d) => ({ id: d.id, hash: d.hash }));
    await db.query(graph, Q.SET_DECISION_HASHES, { rows });
  }
  return {
    decisions: want.decisions.length,
    written: fresh.length,
    deleted: [...stale].filter((id) => !wanted.has(id)).length,
  };
}

async function createDecisionIndexes(db: Db, graph: string): Promise<void> {
  for (const q of [...Q.DECISION_INDEXES, Q.DECISION_FULLTEXT]) {
    try {
      await db.query(graph, q);
    } catch (err) {
      if (!/already indexed|already exists/i.test((err as Error).message)) throw err;
    }
  }
}
