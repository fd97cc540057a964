/**
 * Every read statement of the query layer (the tools), next to src/db/cypher.ts which holds the
 * schema and the writes. Anchors are always found through an indexed property (`id`, `name`,
 * `qualified_name`, `path`) with their label, so a step costs one index lookup per id, not a scan.
 * Edge types and labels come from fixed lists (never from user input): they cannot be parameters.
 */
import type { EdgeType } from "../graph/model.ts";

/** The fields of a node (Symbol or File) as the query layer reads it; `kind` is null for files. */
function node(v: string, p = ""): string {
  return `${v}.id AS ${p}id, ${v}.name AS ${p}name, ${v}.qualified_name AS ${p}qn, ` +
    `${v}.kind AS ${p}kind, ${v}.path AS ${p}path, ${v}.line AS ${p}line, ` +
    `${v}.end_line AS ${p}end_line, ${v}.signature AS ${p}signature`;
}

// ---- resolving names --------------------------------------------------------------------------

export const SYMBOLS_BY_NAME = `MATCH (s:Symbol {name: $name})
RETURN ${node("s")} LIMIT $cap`;

export const SYMBOLS_BY_QUALIFIED = `MATCH (s:Symbol {qualified_name: $qn})
RETURN ${node("s")} LIMIT $cap`;

export const SYMBOLS_BY_NAMES = `UNWIND $names AS n
MATCH (s:Symbol {name: n})
RETURN ${node("s")} LIMIT $cap`;

export const SYMBOLS_NAME_PREFIX = `MATCH (s:Symbol) WHERE s.name STARTS WITH $prefix
RETURN ${node("s")} LIMIT $cap`;

/** Doc comments of a few symbols (kept out of every other read: they can be long). */
export const DOCS_BY_ID = `UNWIND $ids AS i
MATCH (s:Symbol {id: i})
RETURN s.id AS id, s.doc AS doc`;

export const FILE_BY_PATH = `MATCH (f:File {path: $path}) RETURN ${node("f")}`;

export const FILES_BY_SUFFIX = `MATCH (f:File) WHERE f.path ENDS WITH $suffix
RETURN ${node("f")} LIMIT $cap`;

export const FILES_BY_IDS = `UNWIND $ids AS i
MATCH (f:File {id: i}) RETURN ${node("f")}`;

export const SYMBOLS_BY_IDS = `UNWIND $ids AS i
MATCH (s:Symbol {id: i}) RETURN ${node("s")}`;

/** Extra fields of one symbol for get_context. */
export const SYMBOL_DETAILS = `MATCH (s:Symbol {id: $id})
RETURN s.doc AS doc, s.language AS language`;

/**
 * Full-text over words (split names) and doc; `$q` is RediSearch syntax built from [a-z0-9] words
 * only. Filters are optional (null = any).
 */
export const FULLTEXT_SYMBOLS = `CALL db.idx.fulltext.queryNodes('Symbol', $q) YIELD node, score
WITH node AS s, score
WHERE ($kind IS NULL OR s.kind = $kind) AND ($language IS NULL OR s.language = $language)
RETURN ${node("s")}, s.words AS words, s.doc AS doc, s.language AS language, score
ORDER BY score DESC LIMIT $cap`;

export const SYMBOLS_BY_NAME_FILTERED = `UNWIND $names AS n
MATCH (s:Symbol {name: n})
WHERE ($kind IS NULL OR s.kind = $kind) AND ($language IS NULL OR s.language = $language)
RETURN ${node("s")}, s.words AS words, s.doc AS doc, s.language AS language LIMIT $cap`;

// ---- one step of a traversal ------------------------------------------------------------------

export type Direction = "OUT" | "IN";

/**
 * Neighbours of many anchors at once, over some edge types in one direction: one row per edge,
 * with the anchor it was reached from (`via`) and the edge's line / count / confidence.
 */
export function stepQuery(anchor: "Symbol" | "File", types: EdgeType[], dir: Direction): string {
  const rel = `[e:${types.join("|")}]`;
  const pattern = dir === "OUT" ? `-${rel}->` : `<-${rel}-`;
  return `UNWIND $ids AS i
MATCH (a:${anchor} {id: i})${pattern}(b)
RETURN i AS via, type(e) AS rel, e.line AS at, e.count AS count, e.confidence AS confidence,
  ${node("b")}
LIMIT $cap`;
}

// ---- call sites by name (src/query/unresolved.ts) ---------------------------------------------

/** Files with call sites named like `$needle` (` name:`) says: their paths and every site. */
export const FILES_CALLING = `MATCH (f:File) WHERE f.calls CONTAINS $needle
RETURN f.path AS path, f.calls AS calls LIMIT $cap`;

/** The packages a project offers others (src/query/across.ts). */
export const PACKAGES =
  "MATCH (p:Package) RETURN p.name AS name, p.dir AS dir, p.sep AS sep, p.languages AS languages";

/** Files importing a module path that starts so and calling a name (`$calls`: ` name:`). */
export const FILES_USING_CALLING = `MATCH (f:File)
WHERE f.uses CONTAINS $uses AND f.calls CONTAINS $calls
RETURN f.path AS path, f.language AS language, f.uses AS uses, f.calls AS calls LIMIT $cap`;

/** The module paths every file imports. */
export const FILES_USING = `MATCH (f:File) WHERE f.uses <> ''
RETURN f.language AS language, f.uses AS uses`;

/** Every definition of one file (diff_impact maps changed lines to them). */
export const SYMBOLS_IN_FILE = `MATCH (s:Symbol {path: $path}) RETURN ${node("s")}`;

/** Where the definitions of some files start and end (to find a call site's caller). */
export const SPANS_IN_FILES = `UNWIND $paths AS p
MATCH (s:Symbol {path: p})
RETURN s.id AS id, s.path AS path, s.line AS line, s.end_line AS end_line`;

/** CALLS / INSTANTIATES edges from these anchors to anything named `$name`. */
export function callsNamedFrom(anchor: "Symbol" | "File"): string {
  return `UNWIND $ids AS i
MATCH (a:${anchor} {id: i})-[e:CALLS|INSTANTIATES]->(b)
WHERE b.name = $name
RETURN i AS via, b.id AS to, e.confidence AS confidence`;
}

// ---- whole-graph reads (cycles, stats) --------------------------------------------------------

export const CALL_EDGES = `MATCH (a:Symbol)-[:CALLS]->(b:Symbol)
RETURN a.id AS a, b.id AS b LIMIT $cap`;

export const IMPORT_EDGES = `MATCH (a:File)-[e:IMPORTS]->(b:File)
RETURN a.id AS a, b.id AS b, e.type_only AS type_only LIMIT $cap`;

/**
 * Every file (the module map draws those without imports too): its id and path, all a file's
 * node is made of (nodeOf), half the time of every field on 10,000 files.
 */
export const ALL_FILES = `MATCH (f:File) RETURN f.id AS id, f.path AS path LIMIT $cap`;

export const FILES_BY_LANGUAGE = "MATCH (f:File) RETURN f.language AS language, count(f) AS n";

/** Every relationship type the graph has (the schema; a type may have no edges left). */
export const RELATIONSHIP_TYPES =
  "CALL db.relationshipTypes() YIELD relationshipType RETURN relationshipType AS type";

/**
 * Edges of one type: answered from that type's relation matrix, while grouping every edge by
 * `type(e)` scans them all (0.3 ms against 65 ms on 82,000 edges). `type` comes from
 * RELATIONSHIP_TYPES, never from user input; it is quoted all the same.
 */
export function countEdgesOfType(type: string): string {
  return `MATCH ()-[e:\`${type.replaceAll("`", "``")}\`]->() RETURN count(e) AS n`;
}

// ---- memory: notes (graph mem:{project}) and decisions (branch graph) ------------------------

/** The fields of a Note as src/memory reads it. */
function note(v: string): string {
  return `${v}.id AS note_id, ${v}.text AS text, ${v}.kind AS kind, ${v}.tags AS tags,
  ${v}.created_at AS created_at, ${v}.branch AS branch, ${v}.commit AS commit,
  ${v}.client AS client, ${v}.target AS target, ${v}.symbol_id AS symbol_id,
  ${v}.qualified_name AS qn, ${v}.name AS name, ${v}.symbol_kind AS symbol_kind,
  ${v}.path AS path, ${v}.line AS line`;
}

export const NOTE_BY_ID = `MATCH (n:Note {id: $id}) RETURN ${note("n")}`;

/** Notes that may be about these symbols: stored under their id, qualified name or name. */
export const NOTES_BY_SYMBOL_IDS = `UNWIND $ids AS i
MATCH (n:Note {symbol_id: i}) RETURN ${note("n")} LIMIT $cap`;

export const NOTES_BY_QUALIFIED = `UNWIND $qns AS q
MATCH (n:Note {qualified_name: q}) RETURN ${note("n")} LIMIT $cap`;

export const NOTES_BY_NAMES = `UNWIND $names AS nm
MATCH (n:Note {name: nm}) RETURN ${note("n")} LIMIT $cap`;

export const NOTES_RECENT = `MATCH (n:Note)
WHERE ($kind IS NULL OR n.kind = $kind)
RETURN ${note("n")} ORDER BY n.created_at DESC LIMIT $cap`;

/** `$q` is RediSearch syntax built from [a-z0-9] words only (user text never reaches it raw). */
export const FULLTEXT_NOTES = `CALL db.idx.fulltext.queryNodes('Note', $q) YIELD node, score
WITH node AS n, score
WHERE ($kind IS NULL OR n.kind = $kind)
RETURN ${note("n")}, score ORDER BY score DESC, n.created_at DESC LIMIT $cap`;

/** The fields of a Decision (without its text). */
function decision(v: string): string {
  return `${v}.id AS id, ${v}.title AS title, ${v}.status AS status, ${v}.date AS date,
  ${v}.path AS path`;
}

export const FULLTEXT_DECISIONS = `CALL db.idx.fulltext.queryNodes('Decision', $q)
YIELD node, score
RETURN ${decision("node")}, node.body AS body, score ORDER BY score DESC LIMIT $cap`;

export const DECISIONS_MENTIONING_SYMBOLS = `UNWIND $ids AS i
MATCH (d:Decision)-[:MENTIONS]->(:Symbol {id: i})
RETURN i AS about, ${decision("d")} LIMIT $cap`;

export const DECISIONS_MENTIONING_FILES = `UNWIND $ids AS i
MATCH (d:Decision)-[:MENTIONS]->(:File {id: i})
RETURN i AS about, ${decision("d")} LIMIT $cap`;

/** What some decisions name (symbols and files). */
export const DECISION_MENTIONS = `UNWIND $ids AS i
MATCH (d:Decision {id: i})-[:MENTIONS]->(x)
RETURN i AS decision, ${node("x")} LIMIT $cap`;
