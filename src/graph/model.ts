/**
 * The graph as cgraph writes it (the contract the tools, `ask` and outside checks rely on), built in
 * memory from FileFacts before anything touches the database.
 */
import { createHash } from "node:crypto";
import type { FileFacts, SymbolKind } from "./facts.ts";

export interface FileNode {
  id: string;
  path: string;
  name: string;
  ext: string;
  language: string;
  hash: string;
  lines: number;
  /**
   * The file's call sites by name, ` name:line,line name:line ` (spaces around every entry), as
   * the analyzer saw them, resolved or not: a tool asking who calls `name` finds the sites that
   * resolved nowhere, so an answer can say it is a lower bound (src/query/unresolved.ts).
   */
  calls: string;
  /**
   * The module paths the file imports, as written, ` source source ` (spaces around every entry):
   * another project's package a file imports is found by name (src/query/across.ts).
   */
  uses: string;
}

export interface SymbolNode {
  id: string;
  name: string;
  qualified_name: string;
  kind: SymbolKind;
  path: string;
  line: number;
  end_line: number;
  signature: string;
  doc: string;
  language: string;
  /** Words of the name and qualified name, lower case, for full-text search. */
  words: string;
}

export type EdgeType =
  | "DEFINES"
  | "CALLS"
  | "INSTANTIATES"
  | "IMPORTS"
  | "EXTENDS"
  | "IMPLEMENTS";

export interface Edge {
  type: EdgeType;
  from: string;
  to: string;
  /** Whether `from` is a File node (top-level calls, imports, file DEFINES). */
  fromFile?: boolean;
  toFile?: boolean;
  line?: number;
  count?: number;
  /** How the target was found: 1 scope/import/self, 0.9 typed receiver, 0.7 unique name. */
  confidence?: number;
  /** `value`: the callee was reached as a function value (alias, field, returned function). */
  via?: "value";
  /** IMPORTS only: every import behind it is type-only or deferred (ImportFact.typeOnly). */
  typeOnly?: boolean;
}

export function shortHash(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 24);
}

/**
 * File ids asked for lately, by path: a run asks for each file's several times (its node, its
 * scope, each edge from it), each a SHA-256. Emptied when it holds FILE_IDS_KEPT.
 */
const fileIds = new Map<string, string>();
const FILE_IDS_KEPT = 200_000;

export function fileId(path: string): string {
  let id = fileIds.get(path);
  if (id === undefined) {
    if (fileIds.size >= FILE_IDS_KEPT) fileIds.clear();
    id = shortHash(`file\0${path}`);
    fileIds.set(path, id);
  }
  return id;
}

export function qualifiedName(module: string, local: string): string {
  return module ? `${module}.${local}` : local;
}

/** Splits identifiers into lower-case words: `getUserName`, `get_user_name` -> get user name. */
export function wordsOf(...names: string[]): string {
  const words = new Set<string>();
  for (const name of names) addWords(name, words);
  return [...words].join(" ");
}

/** Where words go: a set, or a list that keeps them in order, repeats and all. */
interface WordSink {
  add(word: string): unknown;
}

/** A name's words, in the order wordsOf adds them. */
function addWords(name: string, out: WordSink): void {
  for (const part of name.split(/[^A-Za-z0-9]+/)) {
    if (!part) continue;
    out.add(part.toLowerCase());
    splitCase(part, out);
  }
}

const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;

function charClass(c: number): number {
  if (c >= 65 && c <= 90) return UPPER;
  if (c >= 97 && c <= 122) return LOWER;
  return DIGIT;
}

/** `getHTTPResponse2` -> get, http, response, 2 (a character loop: regexes were the hot spot). */
function splitCase(part: string, out: WordSink): void {
  let start = 0;
  for (let i = 1; i < part.length; i++) {
    const prev = charClass(part.charCodeAt(i - 1));
    const cur = charClass(part.charCodeAt(i));
    const next = i + 1 < part.length ? charClass(part.charCodeAt(i + 1)) : 0;
    const boundary = (cur === UPPER && prev !== UPPER) ||
      (cur === UPPER && prev === UPPER && next === LOWER) ||
      (cur === DIGIT && prev !== DIGIT) || (cur !== DIGIT && prev === DIGIT);
    if (boundary) {
      out.add(part.slice(start, i).toLowerCase());
      start = i;
    }
  }
  out.add(part.slice(start).toLowerCase());
}

export function fileNode(f: FileFacts): FileNode {
  const slash = f.path.lastIndexOf("/");
  const name = f.path.slice(slash + 1);
  const dot = name.lastIndexOf(".");
  return {
    id: fileId(f.path),
    path: f.path,
    name,
    ext: dot > 0 ? name.slice(dot) : "",
    language: f.language,
    hash: f.hash,
    lines: f.lines,
    calls: callSites(f),
    uses: importSources(f),
  };
}

/** ` source source ` for FileNode.uses (first-seen order, each once). */
export function importSources(f: FileFacts): string {
  const seen = new Set<string>();
  for (const i of f.imports ?? []) {
    if (i.source && !/\s/.test(i.source)) seen.add(i.source);
  }
  return seen.size ? ` ${[...seen].join(" ")} ` : "";
}

/** ` name:line,line name:line ` for FileNode.calls (lines ascending, names in first-seen order). */
export function callSites(f: FileFacts): string {
  const byName = new Map<string, Set<number>>();
  for (const c of f.calls ?? []) {
    const lines = byName.get(c.name);
    if (lines) lines.add(c.line);
    else byName.set(c.name, new Set([c.line]));
  }
  let out = "";
  for (const [name, lines] of byName) {
    // The format's separators cannot be part of a name.
    if (!name || name.includes(" ") || name.includes(":") || name.includes("\n")) continue;
    out += ` ${name}:${[...lines].sort((a, b) => a - b).join(",")}`;
  }
  return out ? `${out} ` : "";
}

const nodeCache = new WeakMap<FileFacts, SymbolNode[]>();

/** What resolution reads of a definition's node. */
export type RefNode = Pick<SymbolNode, "id" | "name" | "qualified_name" | "path" | "line">;

/** Symbol nodes of one file, in `defs` order; ids are stable while path, name and kind are. */
export function symbolNodes(f: FileFacts): SymbolNode[] {
  let nodes = nodeCache.get(f);
  if (!nodes) nodeCache.set(f, nodes = computeSymbolNodes(f));
  return nodes;
}

/** Ids and search words of a file's definitions (deterministic; see FileFacts.keys). */
export function symbolKeys(f: FileFacts): { id: string; words: string }[] {
  const seen = new Map<string, number>();
  // The module's words, split once per file: `wordsOf(name, module.local)` adds the name's, then
  // the module's, then the local name's (a `.` splits words as the names' own separators do).
  const moduleWords: string[] = [];
  if (f.module) addWords(f.module, { add: (w: string) => moduleWords.push(w) });
  return f.defs.map((d) => {
    const qualified = qualifiedName(f.module, d.local);
    const key = `${f.path}\0${qualified}\0${d.kind}`;
    const ordinal = seen.get(key) ?? 0;
    seen.set(key, ordinal + 1);
    return {
      id: shortHash(ordinal ? `${key}\0${ordinal}` : key),
      words: defWords(d.name, moduleWords, d.local),
    };
  });
}

/** `wordsOf(name, qualifiedName(module, local))`, the module's words split already. */
function defWords(name: string, moduleWords: readonly string[], local: string): string {
  const words = new Set<string>();
  addWords(name, words);
  for (const w of moduleWords) words.add(w);
  addWords(local, words);
  return [...words].join(" ");
}

function computeSymbolNodes(f: FileFacts): SymbolNode[] {
  const keys = f.keys?.length === f.defs.length ? f.keys : symbolKeys(f);
  return f.defs.map((d, i) => {
    const qualified = qualifiedName(f.module, d.local);
    return {
      id: keys[i].id,
      name: d.name,
      qualified_name: qualified,
      kind: d.kind,
      path: f.path,
      line: d.line,
      end_line: d.endLine,
      signature: d.signature,
      doc: d.doc,
      language: f.language,
      words: keys[i].words,
    };
  });
}
