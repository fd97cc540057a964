/**
 * Every Cypher statement cgraph sends, in one place. Writes are batched `UNWIND $rows` statements
 * that find endpoints through indexed properties (never `id(n)`), so a batch costs one index lookup
 * per row, not a scan.
 */
import type { SymbolKind } from "../index/facts.ts";
import type { EdgeType } from "../index/model.ts";

// ---- schema ---------------------------------------------------------------------------------

export const CREATE_INDEXES = [
  "CREATE INDEX FOR (s:Symbol) ON (s.id)",
  "CREATE INDEX FOR (s:Symbol) ON (s.name)",
  "CREATE INDEX FOR (s:Symbol) ON (s.path)",
  "CREATE INDEX FOR (s:Symbol) ON (s.qualified_name)",
  "CREATE INDEX FOR (f:File) ON (f.path)",
  "CREATE INDEX FOR (f:File) ON (f.id)",
];

/** Full-text over the split words of names (FalkorDB's tokenizer keeps `snake_case` whole). */
export const CREATE_FULLTEXT =
  "CALL db.idx.fulltext.createNodeIndex({label: 'Symbol', stopwords: []}, 'words', 'doc')";

// ---- writes ---------------------------------------------------------------------------------

export const CREATE_FILES = `UNWIND $rows AS r
CREATE (:File {id: r.id, path: r.path, name: r.name, ext: r.ext, language: r.language,
  hash: r.hash, lines: r.lines})`;

/** One statement per kind: labels cannot be parameters. */
export function createSymbols(kind: SymbolKind): string {
  return `UNWIND $rows AS r
CREATE (:Symbol:${kind} {id: r.id, name: r.name, qualified_name: r.qualified_name, kind: r.kind,
  path: r.path, line: r.line, end_line: r.end_line, signature: r.signature, doc: r.doc,
  language: r.language, words: r.words})`;
}

function endpoint(file: boolean): string {
  return file ? "File" : "Symbol";
}

export function createEdges(type: EdgeType, fromFile: boolean, toFile: boolean): string {
  const props = type === "CALLS"
    ? " {line: r.line, count: r.count, confidence: r.confidence}"
    : type === "DEFINES"
    ? ""
    : " {line: r.line}";
  return `UNWIND $rows AS r
MATCH (a:${endpoint(fromFile)} {id: r.from})
MATCH (b:${endpoint(toFile)} {id: r.to})
CREATE (a)-[:${type}${props}]->(b)`;
}

export function deleteEdges(type: EdgeType, fromFile: boolean, toFile: boolean): string {
  return `UNWIND $rows AS r
MATCH (a:${endpoint(fromFile)} {id: r.from})-[e:${type}]->(b:${endpoint(toFile)} {id: r.to})
DELETE e`;
}

/** Removes files and everything they define (their edges go with them). */
export const DELETE_FILE_SYMBOLS = `UNWIND $paths AS p
MATCH (s:Symbol {path: p})
DETACH DELETE s`;

export const DELETE_FILES = `UNWIND $paths AS p
MATCH (f:File {path: p})
DETACH DELETE f`;

// ---- counts ---------------------------------------------------------------------------------

export const COUNT_FILES = "MATCH (f:File) RETURN count(f) AS n";
export const COUNT_SYMBOLS_BY_KIND = "MATCH (s:Symbol) RETURN s.kind AS kind, count(s) AS n";
export const COUNT_EDGES_BY_TYPE = "MATCH ()-[e]->() RETURN type(e) AS type, count(e) AS n";
