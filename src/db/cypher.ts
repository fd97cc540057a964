/**
 * Every Cypher statement cgraph sends, in one place. Writes are batched `UNWIND $rows` statements
 * that find endpoints through indexed properties, so a batch costs one index lookup per row, not a
 * scan; a full run, which creates every node itself, joins edges by the nodes' internal ids
 * instead (a seek, about a third of the cost: `createEdgesById`).
 */
import type { SymbolKind } from "../graph/facts.ts";
import type { EdgeType } from "../graph/model.ts";

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

/** A file node's properties: a row of CREATE_FILES gives their values in this order. */
export const FILE_PROPS = [
  "id",
  "path",
  "name",
  "ext",
  "language",
  "hash",
  "lines",
  "calls",
  "uses",
] as const;

/** A definition node's properties: a row of createSymbols gives their values in this order. */
export const SYMBOL_PROPS = [
  "id",
  "name",
  "qualified_name",
  "kind",
  "path",
  "line",
  "end_line",
  "signature",
  "doc",
  "language",
  "words",
] as const;

/** `{a: r[0], b: r[1], ...}`: rows as lists, which name no property (a third of their text). */
function fromRow(props: readonly string[]): string {
  return `{${props.map((p, i) => `${p}: r[${i}]`).join(", ")}}`;
}

/** Creates file nodes from rows of FILE_PROPS; returns their internal ids in order (`n`). */
export const CREATE_FILES = `UNWIND $rows AS r
CREATE (f:File ${fromRow(FILE_PROPS)})
RETURN id(f) AS n`;

/**
 * Creates definition nodes of one kind (labels cannot be parameters) from rows of SYMBOL_PROPS;
 * returns their internal ids in order (`n`).
 */
export function createSymbols(kind: SymbolKind): string {
  return `UNWIND $rows AS r
CREATE (s:Symbol:${kind} ${fromRow(SYMBOL_PROPS)})
RETURN id(s) AS n`;
}

/** The id property of the node with internal id `$n` (bound by a WITH: a seek, not a scan). */
export const NODE_ID_AT = `WITH $n AS n MATCH (x) WHERE id(x) = n RETURN x.id AS id`;

function endpoint(file: boolean): string {
  return file ? "File" : "Symbol";
}

/** The properties each type of edge is written with (a row by id gives them in this order). */
export const EDGE_PROPS: Readonly<Record<EdgeType, readonly string[]>> = {
  CALLS: ["line", "count", "confidence", "via"],
  INSTANTIATES: ["line", "count", "confidence"],
  DEFINES: [],
  IMPORTS: ["line", "type_only"],
  EXTENDS: ["line"],
  IMPLEMENTS: ["line"],
};

/** An edge's property map, each value read from the row by `value(name, position)`. */
function edgeProps(type: EdgeType, value: (name: string, i: number) => string): string {
  const props = EDGE_PROPS[type];
  return props.length ? ` {${props.map((p, i) => `${p}: ${value(p, i)}`).join(", ")}}` : "";
}

export function createEdges(type: EdgeType, fromFile: boolean, toFile: boolean): string {
  return `UNWIND $rows AS r
MATCH (a:${endpoint(fromFile)} {id: r.from})
MATCH (b:${endpoint(toFile)} {id: r.to})
CREATE (a)-[:${type}${edgeProps(type, (p) => `r.${p}`)}]->(b)`;
}

/**
 * Edges whose ends are given by internal node id: each row `[from, to, ...EDGE_PROPS[type]]`,
 * the ids what CREATE_FILES and createSymbols returned for this graph, which nothing has deleted
 * from since. Each id is bound by a WITH before its MATCH: only then does FalkorDB seek the node
 * by id instead of scanning.
 */
export function createEdgesById(type: EdgeType): string {
  return `UNWIND $rows AS r
WITH r, r[0] AS f MATCH (a) WHERE id(a) = f
WITH a, r, r[1] AS t MATCH (b) WHERE id(b) = t
CREATE (a)-[:${type}${edgeProps(type, (_, i) => `r[${i + 2}]`)}]->(b)`;
}

export function deleteEdges(type: EdgeType, fromFile: boolean, toFile: boolean): string {
  return `UNWIND $rows AS r
MATCH (a:${endpoint(fromFile)} {id: r.from})-[e:${type}]->(b:${endpoint(toFile)} {id: r.to})
DELETE e`;
}

/** Removes definitions by id (their edges go with them). */
export const DELETE_SYMBOLS = `UNWIND $ids AS i
MATCH (s:Symbol {id: i})
DETACH DELETE s`;

/** A file's node kept, its properties set anew (its path, name and extension stay). */
export const UPDATE_FILES = `UNWIND $rows AS r
MATCH (f:File {id: r.id})
SET f.language = r.language, f.hash = r.hash, f.lines = r.lines, f.calls = r.calls,
  f.uses = r.uses`;

/** A definition's node kept, its properties set anew (its id, and so its kind and path, stay). */
export const UPDATE_SYMBOLS = `UNWIND $rows AS r
MATCH (s:Symbol {id: r.id})
SET s.name = r.name, s.qualified_name = r.qualified_name, s.line = r.line,
  s.end_line = r.end_line, s.signature = r.signature, s.doc = r.doc, s.language = r.language,
  s.words = r.words`;

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

/**
 * Symbols of one kind, by its label (every Symbol has exactly one kind label): answered from the
 * label's matrix, where grouping by `s.kind` reads every symbol.
 */
export function countSymbolsOfKind(kind: SymbolKind): string {
  return `MATCH (s:${kind}) RETURN count(s) AS n`;
}

// ---- memory: decisions in the branch graph (src/memory/decisions.ts) ------------------------

export const DECISION_INDEXES = [
  "CREATE INDEX FOR (d:Decision) ON (d.id)",
  "CREATE INDEX FOR (d:Decision) ON (d.path)",
];

/** Full-text over a decision's title, text and the split words of the identifiers it names. */
export const DECISION_FULLTEXT =
  "CALL db.idx.fulltext.createNodeIndex('Decision', 'title', 'body', 'words')";

export const CURRENT_DECISIONS = "MATCH (d:Decision) RETURN d.id AS id, d.hash AS hash";

export const CURRENT_MENTIONS =
  "MATCH (d:Decision)-[:MENTIONS]->(x) RETURN d.id AS from, x.id AS to";

export const CREATE_DECISIONS = `UNWIND $rows AS r
CREATE (:Decision {id: r.id, title: r.title, status: r.status, date: r.date, path: r.path,
  hash: r.hash, body: r.body, words: r.words})`;

/** Set last: a decision whose hash is still empty was interrupted before its edges existed. */
export const SET_DECISION_HASHES = `UNWIND $rows AS r
MATCH (d:Decision {id: r.id})
SET d.hash = r.hash`;

export const DELETE_DECISIONS = `UNWIND $ids AS i
MATCH (d:Decision {id: i})
DETACH DELETE d`;

export const CREATE_MENTIONS_SYMBOL = `UNWIND $rows AS r
MATCH (d:Decision {id: r.from})
MATCH (s:Symbol {id: r.to})
CREATE (d)-[:MENTIONS]->(s)`;

export const CREATE_MENTIONS_FILE = `UNWIND $rows AS r
MATCH (d:Decision {id: r.from})
MATCH (f:File {id: r.to})
CREATE (d)-[:MENTIONS]->(f)`;

export const DELETE_MENTIONS = `UNWIND $rows AS r
MATCH (d:Decision {id: r.from})-[m:MENTIONS]->(x)
WHERE x.id = r.to
DELETE m`;

// ---- memory: notes in their own graph per project, mem:{project} (src/memory/notes.ts) -------

export const NOTE_INDEXES = [
  "CREATE INDEX FOR (n:Note) ON (n.id)",
  "CREATE INDEX FOR (n:Note) ON (n.symbol_id)",
  "CREATE INDEX FOR (n:Note) ON (n.qualified_name)",
  "CREATE INDEX FOR (n:Note) ON (n.name)",
  "CREATE INDEX FOR (n:Note) ON (n.path)",
];

/** Full-text over a note's text, its tags and the split words of names in it and of its symbol. */
export const NOTE_FULLTEXT =
  "CALL db.idx.fulltext.createNodeIndex('Note', 'text', 'tags_text', 'words')";

export const CREATE_NOTE = `CREATE (:Note {id: $id, text: $text, kind: $kind, tags: $tags,
  tags_text: $tags_text, words: $words, created_at: $created_at, branch: $branch, commit: $commit,
  client: $client, target: $target, symbol_id: $symbol_id, qualified_name: $qualified_name,
  name: $name, symbol_kind: $symbol_kind, path: $path, line: $line})`;

export const DELETE_NOTE = "MATCH (n:Note {id: $id}) DELETE n";

// ---- packages a project offers others (src/index/packages.ts, src/query/across.ts) ----------

export const CURRENT_PACKAGES =
  "MATCH (p:Package) RETURN p.name AS name, p.dir AS dir, p.sep AS sep, p.languages AS languages";

export const DELETE_PACKAGES = "MATCH (p:Package) DELETE p";

export const CREATE_PACKAGES = `UNWIND $rows AS r
CREATE (:Package {name: r.name, dir: r.dir, sep: r.sep, languages: r.languages})`;
