/**
 * Cypher checks before anything reaches the database:
 *   1. the read-only guard: one statement, no write clause (CREATE, MERGE, SET, DELETE, DETACH,
 *      REMOVE, DROP, FOREACH, LOAD CSV), and no CALL of a procedure outside an allow-list of
 *      read-only ones; worked on tokens, so strings, backtick names and comments cannot hide or
 *      fake a keyword;
 *   2. the schema check: labels, relationship types and properties must exist in the graph model
 *      or the live graph, and a typed relationship must run in a direction that exists;
 *   3. a LIMIT: added when the final RETURN has none, lowered to the row cap when larger.
 * The database is asked read-only (GRAPH.RO_QUERY) as well: this is the first guard, not the only.
 */
import { CgraphError } from "../errors.ts";
import { KIND_LABELS, LABELS, RELATIONS } from "./ontology.ts";
import { isKw, isName, isOp, type Token, tokenize } from "./tokens.ts";

/** The query writes, calls a procedure that may write, or holds several statements. */
export class CypherRefused extends CgraphError {
  constructor(message: string) {
    super(
      `Refused: ${message}`,
      "Only read-only Cypher runs here (MATCH / OPTIONAL MATCH / WITH / UNWIND / RETURN, " +
        "read-only procedures); the graph is rebuilt by index_repo, never by queries.",
    );
    this.name = "CypherRefused";
  }
}

/** The query names labels, relationship types, properties or directions the graph lacks. */
export class CypherInvalid extends CgraphError {
  constructor(problems: string[], hint?: string) {
    super(`Invalid query: ${problems.join("; ")}`, hint);
    this.name = "CypherInvalid";
  }
}

const WRITE_CLAUSES = new Set([
  "CREATE",
  "MERGE",
  "SET",
  "DELETE",
  "DETACH",
  "REMOVE",
  "DROP",
  "FOREACH",
]);

/**
 * Procedures that only read, checked against FalkorDB's own `dbms.procedures()` (mode READ).
 * Lower case: procedure names are compared case-insensitively.
 */
export const READ_ONLY_PROCEDURES = [
  "db.labels",
  "db.relationshipTypes",
  "db.propertyKeys",
  "db.indexes",
  "db.constraints",
  "db.meta.stats",
  "db.idx.fulltext.queryNodes",
  "db.idx.fulltext.queryRelationships",
  "db.idx.vector.queryNodes",
  "db.idx.vector.queryRelationships",
  "dbms.procedures",
  "dbms.functions",
  "algo.pageRank",
  "algo.BFS",
  "algo.betweenness",
  "algo.labelPropagation",
  "algo.WCC",
  "algo.SPpaths",
  "algo.SSpaths",
  "algo.MSF",
];
const ALLOWED = new Map(READ_ONLY_PROCEDURES.map((p) => [p.toLowerCase(), p]));

/** Keywords that open a `{ ... }` block of clauses rather than a map literal. */
const BLOCK_OPENERS = new Set(["CALL", "EXISTS", "COUNT", "COLLECT"]);

/** What the graph holds: the model's labels / types / properties and the live graph's. */
export interface KnownSchema {
  labels: Set<string>;
  relTypes: Set<string>;
  labelProps: Map<string, Set<string>>;
  relProps: Map<string, Set<string>>;
  /** `from|TYPE|to` for every label pair a relationship type connects. */
  triples: Set<string>;
}

/** Labels, types, properties and triples of a live graph (see schema.ts). */
export interface LiveFacts {
  labels: string[];
  relTypes: string[];
  labelProps: Record<string, string[]>;
  relProps: Record<string, string[]>;
  triples: { from: string; type: string; to: string }[];
}

/** The graph model of the ontology, merged with what the live graph has (when known). */
export function knownSchema(live?: LiveFacts): KnownSchema {
  const k: KnownSchema = {
    labels: new Set(),
    relTypes: new Set(),
    labelProps: new Map(),
    relProps: new Map(),
    triples: new Set(),
  };
  const addProps = (m: Map<string, Set<string>>, key: string, props: Iterable<string>) => {
    const s = m.get(key) ?? new Set<string>();
    for (const p of props) s.add(p);
    m.set(key, s);
  };
  for (const l of LABELS) {
    k.labels.add(l.label);
    addProps(k.labelProps, l.label, Object.keys(l.properties));
  }
  const expand = (label: string) => label === "Symbol" ? ["Symbol", ...KIND_LABELS] : [label];
  for (const r of RELATIONS) {
    k.relTypes.add(r.type);
    addProps(k.relProps, r.type, Object.keys(r.properties));
    for (const [a, b] of r.ends) {
      for (const x of expand(a)) for (const y of expand(b)) k.triples.add(`${x}|${r.type}|${y}`);
    }
  }
  if (live) {
    for (const l of live.labels) k.labels.add(l);
    for (const t of live.relTypes) k.relTypes.add(t);
    for (const [l, ps] of Object.entries(live.labelProps)) addProps(k.labelProps, l, ps);
    for (const [t, ps] of Object.entries(live.relProps)) addProps(k.relProps, t, ps);
    for (const t of live.triples) k.triples.add(`${t.from}|${t.type}|${t.to}`);
  }
  return k;
}

export interface Checked {
  /** The query to run: trailing `;` removed, a LIMIT added or lowered when needed. */
  cypher: string;
  /** The LIMIT that caps the final RETURN when it is the row cap (added or lowered). */
  cappedAt?: number;
  notes: string[];
}

/** Throws CypherRefused unless the query is one read-only statement. Returns its tokens. */
export function guardReadOnly(cypher: string): Token[] {
  let tokens: Token[];
  try {
    tokens = tokenize(cypher);
  } catch (err) {
    throw new CypherInvalid([(err as Error).message]);
  }
  // A single trailing `;` is tolerated; anything after a `;` is a second statement.
  while (tokens.length && isOp(tokens[tokens.length - 1], ";")) tokens.pop();
  if (!tokens.length) throw new CypherInvalid(["the query is empty"]);
  if (tokens.some((t) => isOp(t, ";"))) {
    throw new CypherRefused("more than one statement (';'): send one query at a time.");
  }
  const stack: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === "op") {
      if (t.value === "{") {
        stack.push(BLOCK_OPENERS.has(tokens[i - 1]?.value.toUpperCase() ?? "") ? "block" : "map");
      } else if (t.value === "(" || t.value === "[") stack.push(t.value);
      else if (t.value === "}" || t.value === ")" || t.value === "]") stack.pop();
      continue;
    }
    if (t.type !== "ident") continue;
    const word = t.value.toUpperCase();
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    // A property or namespace part (n.set, x.delete), a label or type (:Set, [:CALL]).
    if (isOp(prev, ".") || isOp(prev, ":")) continue;
    const mapKey = stack[stack.length - 1] === "map" && isOp(next, ":") &&
      (isOp(prev, "{") || isOp(prev, ","));
    if (mapKey) continue;
    if (WRITE_CLAUSES.has(word)) {
      const what = word === "DETACH" ? "DETACH DELETE" : word;
      throw new CypherRefused(`${what} writes to the graph.`);
    }
    if (word === "LOAD" && isKw(next, "CSV")) throw new CypherRefused("LOAD CSV imports data.");
    if (word === "CALL") {
      if (isOp(next, "{") || isOp(next, "(")) continue; // a subquery block
      const parts: string[] = [];
      let j = i + 1;
      while (isName(tokens[j])) {
        parts.push(tokens[j].value);
        if (!isOp(tokens[j + 1], ".")) break;
        j += 2;
      }
      const name = parts.join(".");
      if (!name) throw new CypherRefused("CALL without a procedure name.");
      if (!ALLOWED.has(name.toLowerCase())) {
        throw new CypherRefused(
          `CALL ${name}: not a read-only procedure. Allowed: ${READ_ONLY_PROCEDURES.join(", ")}.`,
        );
      }
    }
  }
  return tokens;
}

// ---- patterns ---------------------------------------------------------------------------------

interface NodePat {
  start: number;
  end: number;
  variable?: string;
  labels: string[];
  props: string[];
}

interface RelPat {
  /** Index of the `-` / `<-` before `[`, and of the `-` / `->` after `]`. */
  start: number;
  end: number;
  variable?: string;
  types: string[];
  props: string[];
  dir: "OUT" | "IN" | "BOTH";
  varLength: boolean;
}

interface Scan {
  nodes: NodePat[];
  rels: RelPat[];
  /** Label predicates outside patterns: `n:Label`. */
  predicates: { variable: string; label: string }[];
  /** `v.prop` accesses (first level only), and `v {.prop}` projections. */
  access: { variable: string; prop: string }[];
}

/** Keys of a map literal starting at `{` (index i); returns them and the index of its `}`. */
function mapKeys(tokens: Token[], i: number): { keys: string[]; end: number } {
  const keys: string[] = [];
  let depth = 0;
  for (let j = i; j < tokens.length; j++) {
    const t = tokens[j];
    if (t.type === "op" && ["{", "(", "["].includes(t.value)) depth++;
    else if (t.type === "op" && ["}", ")", "]"].includes(t.value)) {
      depth--;
      if (depth === 0) return { keys, end: j };
    } else if (
      depth === 1 && isName(t) && isOp(tokens[j + 1], ":") &&
      (isOp(tokens[j - 1], "{") || isOp(tokens[j - 1], ","))
    ) keys.push(t.value);
  }
  return { keys, end: tokens.length - 1 };
}

/** Keywords after which `(` may open a pattern; after any other name it is a function call. */
const BEFORE_PATTERN = new Set([
  "MATCH",
  "MERGE",
  "CREATE",
  "WHERE",
  "AND",
  "OR",
  "XOR",
  "NOT",
  "RETURN",
  "WITH",
  "DISTINCT",
  "IN",
  "CASE",
  "WHEN",
  "THEN",
  "ELSE",
  "UNWIND",
]);

/** A node pattern at `(` (index i), or undefined when the parenthesis is an expression. */
function nodeAt(tokens: Token[], i: number): NodePat | undefined {
  const before = tokens[i - 1];
  if (
    isName(before) && !(before.type === "ident" && BEFORE_PATTERN.has(before.value.toUpperCase()))
  ) {
    return undefined; // count(n), labels(n), algo.x(...)
  }
  let j = i + 1;
  let variable: string | undefined;
  if (
    isName(tokens[j]) && (isOp(tokens[j + 1], ":") || isOp(tokens[j + 1], "{") ||
      isOp(tokens[j + 1], ")"))
  ) {
    variable = tokens[j].value;
    j++;
  }
  const labels: string[] = [];
  while (isOp(tokens[j], ":") || (labels.length && isOp(tokens[j], "|"))) {
    if (!isName(tokens[j + 1])) return undefined;
    labels.push(tokens[j + 1].value);
    j += 2;
  }
  let props: string[] = [];
  if (isOp(tokens[j], "{")) {
    const m = mapKeys(tokens, j);
    props = m.keys;
    j = m.end + 1;
  }
  if (!isOp(tokens[j], ")")) return undefined;
  return { start: i, end: j, variable, labels, props };
}

/** A relationship pattern at `[` (index i) preceded by `-` or `<-`. */
function relAt(tokens: Token[], i: number): RelPat | undefined {
  const before = tokens[i - 1];
  if (!isOp(before, "-") && !isOp(before, "<-")) return undefined;
  let j = i + 1;
  let variable: string | undefined;
  if (isName(tokens[j]) && !isOp(tokens[j + 1], "(")) {
    variable = tokens[j].value;
    j++;
  }
  const types: string[] = [];
  if (isOp(tokens[j], ":")) {
    j++;
    while (isName(tokens[j])) {
      types.push(tokens[j].value);
      j++;
      if (isOp(tokens[j], "|")) {
        j++;
        if (isOp(tokens[j], ":")) j++;
        continue;
      }
      break;
    }
  }
  let varLength = false;
  if (isOp(tokens[j], "*")) {
    varLength = true;
    j++;
    while (tokens[j] && (tokens[j].type === "number" || isOp(tokens[j], ".."))) j++;
  }
  let props: string[] = [];
  if (isOp(tokens[j], "{")) {
    const m = mapKeys(tokens, j);
    props = m.keys;
    j = m.end + 1;
  }
  if (!isOp(tokens[j], "]")) return undefined;
  const after = tokens[j + 1];
  if (!isOp(after, "-") && !isOp(after, "->")) return undefined;
  const left = isOp(before, "<-");
  const right = isOp(after, "->");
  const dir = left && !right ? "IN" : right && !left ? "OUT" : "BOTH";
  return { start: i - 1, end: j + 1, variable, types, props, dir, varLength };
}

function scan(tokens: Token[]): Scan {
  const s: Scan = { nodes: [], rels: [], predicates: [], access: [] };
  const stack: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (isOp(t, "(")) {
      const node = nodeAt(tokens, i);
      if (node) {
        s.nodes.push(node);
        // Property values inside the pattern's map are expressions: scan them too.
        i = node.end;
        continue;
      }
      stack.push("(");
      continue;
    }
    if (isOp(t, "[")) {
      const rel = relAt(tokens, i);
      if (rel) {
        s.rels.push(rel);
        i = rel.end - 1;
        continue;
      }
      stack.push("[");
      continue;
    }
    if (isOp(t, "{")) {
      const prev = tokens[i - 1];
      if (BLOCK_OPENERS.has(prev?.value.toUpperCase() ?? "") && prev.type === "ident") {
        stack.push("block");
      } else if (isName(prev) && prev.type !== "quoted" && !isKw(prev, "WHERE")) {
        // A map projection: n {.name, .line, extra: 1}
        stack.push("map");
        for (let j = i + 1; j < tokens.length && !isOp(tokens[j], "}"); j++) {
          if (
            isOp(tokens[j], ".") && isName(tokens[j + 1]) && (isOp(tokens[j - 1], "{") ||
              isOp(tokens[j - 1], ","))
          ) s.access.push({ variable: prev.value, prop: tokens[j + 1].value });
        }
      } else stack.push("map");
      continue;
    }
    if (t.type === "op" && [")", "]", "}"].includes(t.value)) {
      stack.pop();
      continue;
    }
    if (!isName(t)) continue;
    const prev = tokens[i - 1];
    const next = tokens[i + 1];
    if (isOp(prev, ".")) continue;
    if (isOp(next, ".") && isName(tokens[i + 2]) && !isOp(tokens[i + 3], "(")) {
      s.access.push({ variable: t.value, prop: tokens[i + 2].value });
      continue;
    }
    const inMap = stack[stack.length - 1] === "map";
    if (inMap && isOp(next, ":") && (isOp(prev, "{") || isOp(prev, ","))) continue; // map key
    if (isOp(next, ":") && isName(tokens[i + 2]) && t.type === "ident") {
      s.predicates.push({ variable: t.value, label: tokens[i + 2].value });
      let j = i + 3;
      while (isOp(tokens[j], ":") && isName(tokens[j + 1])) {
        s.predicates.push({ variable: t.value, label: tokens[j + 1].value });
        j += 2;
      }
      i = j - 1;
    }
  }
  return s;
}

// ---- the checks -------------------------------------------------------------------------------

function closest(word: string, options: Iterable<string>): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const o of options) {
    const d = distance(w, o.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = o;
    }
  }
  return best !== undefined && bestD <= Math.max(2, Math.floor(word.length / 3)) ? best : undefined;
}

function distance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = tmp;
    }
  }
  return prev[b.length];
}

function suggest(word: string, options: Iterable<string>): string {
  const c = closest(word, options);
  return c ? ` (did you mean ${c}?)` : "";
}

const list = (s: Iterable<string>) => [...s].sort().join(", ");

/** Validates a read query against the schema; returns what to run. Throws on any problem. */
export function validateCypher(cypher: string, schema: KnownSchema, cap: number): Checked {
  const tokens = guardReadOnly(cypher);
  const s = scan(tokens);
  const problems: string[] = [];
  const varLabels = new Map<string, Set<string>>();
  const varTypes = new Map<string, Set<string>>();
  const bind = (m: Map<string, Set<string>>, v: string | undefined, xs: string[]) => {
    if (!v) return;
    const set = m.get(v) ?? new Set<string>();
    for (const x of xs) set.add(x);
    m.set(v, set);
  };
  const badLabels = new Set<string>();
  const checkLabel = (l: string) => {
    if (schema.labels.has(l) || badLabels.has(l)) return;
    badLabels.add(l);
    problems.push(`unknown label :${l}${suggest(l, schema.labels)}`);
  };
  for (const n of s.nodes) {
    n.labels.forEach(checkLabel);
    bind(varLabels, n.variable, n.labels);
  }
  for (const p of s.predicates) {
    checkLabel(p.label);
    bind(varLabels, p.variable, [p.label]);
  }
  const badTypes = new Set<string>();
  for (const r of s.rels) {
    for (const t of r.types) {
      if (schema.relTypes.has(t) || badTypes.has(t)) continue;
      badTypes.add(t);
      problems.push(`unknown relationship type :${t}${suggest(t, schema.relTypes)}`);
    }
    bind(varTypes, r.variable, r.types);
  }
  const allNodeProps = new Set([...schema.labelProps.values()].flatMap((p) => [...p]));
  const allRelProps = new Set([...schema.relProps.values()].flatMap((p) => [...p]));
  const propsOf = (labels: Set<string> | undefined, rel: boolean): Set<string> => {
    const m = rel ? schema.relProps : schema.labelProps;
    const known = [...(labels ?? [])].filter((l) => m.has(l));
    if (!known.length) return rel ? allRelProps : allNodeProps;
    return new Set(known.flatMap((l) => [...m.get(l)!]));
  };
  const reported = new Set<string>();
  const checkProp = (variable: string | undefined, prop: string, rel: boolean, where: string) => {
    const props = propsOf(
      variable ? (rel ? varTypes : varLabels).get(variable) : undefined,
      rel,
    );
    if (props.has(prop)) return;
    const key = `${where}.${prop}`;
    if (reported.has(key)) return;
    reported.add(key);
    problems.push(
      `unknown property ${where}.${prop}${suggest(prop, props)}; ${
        rel ? "relationship" : "node"
      } properties there: ${list(props) || "none"}`,
    );
  };
  const nodeWhere = (n: NodePat) => n.variable ?? `(:${n.labels.join(":")})`;
  for (const n of s.nodes) for (const p of n.props) checkProp(n.variable, p, false, nodeWhere(n));
  for (const r of s.rels) {
    for (const p of r.props) {
      if (r.variable) checkProp(r.variable, p, true, r.variable);
      else {
        const props = propsOf(new Set(r.types), true);
        if (!props.has(p)) {
          problems.push(`unknown property ${p} on :${r.types.join("|")}${suggest(p, props)}`);
        }
      }
    }
  }
  for (const a of s.access) {
    if (varTypes.has(a.variable)) checkProp(a.variable, a.prop, true, a.variable);
    else if (varLabels.has(a.variable)) checkProp(a.variable, a.prop, false, a.variable);
  }
  refuseCrashingPredicates(tokens, s, varLabels);
  if (!problems.length) checkDirections(s, schema, varLabels, problems);
  if (problems.length) {
    throw new CypherInvalid(
      problems,
      `Labels: ${list(schema.labels)}. Relationship types: ${list(schema.relTypes)}.`,
    );
  }
  return withLimit(cypher, tokens, cap);
}

const CLAUSES = new Set([
  "MATCH",
  "OPTIONAL",
  "WITH",
  "RETURN",
  "UNWIND",
  "ORDER",
  "CALL",
  "UNION",
  "SKIP",
  "LIMIT",
]);

/**
 * FalkorDB 4.16 crashes (the whole server) on a pattern predicate over a node that carries two
 * labels, e.g. `MATCH (s:Symbol:Function) WHERE NOT ()-[:CALLS]->(s)`. Such a query is refused
 * before it reaches the shared server, with the rewrite that works.
 */
function refuseCrashingPredicates(
  tokens: Token[],
  s: Scan,
  varLabels: Map<string, Set<string>>,
): void {
  const inWhere = new Array<boolean>(tokens.length).fill(false);
  const depth: number[] = [];
  let d = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === "op" && ["(", "[", "{"].includes(t.value)) d++;
    else if (t.type === "op" && [")", "]", "}"].includes(t.value)) d--;
    depth[i] = d;
  }
  for (let i = 0; i < tokens.length; i++) {
    if (!isKw(tokens[i], "WHERE")) continue;
    for (let j = i + 1; j < tokens.length; j++) {
      const t = tokens[j];
      if (depth[j] < depth[i]) break;
      if (depth[j] === depth[i] && t.type === "ident" && CLAUSES.has(t.value.toUpperCase())) break;
      inWhere[j] = true;
    }
  }
  const multi = (n: NodePat) =>
    n.labels.length > 1 || (n.variable !== undefined && (varLabels.get(n.variable)?.size ?? 0) > 1);
  for (const r of s.rels) {
    if (!inWhere[r.start]) continue;
    const ends = s.nodes.filter((n) => n.end === r.start - 1 || n.start === r.end + 1);
    const bad = ends.find(multi);
    if (bad) {
      throw new CypherRefused(
        `a pattern predicate on a node with two labels (${
          bad.variable ?? bad.labels.join(":")
        }) crashes FalkorDB 4.16. Match it with one label (e.g. (s:Function)), or use ` +
          "OPTIONAL MATCH ... WHERE other IS NULL.",
      );
    }
  }
}

function checkDirections(
  s: Scan,
  schema: KnownSchema,
  varLabels: Map<string, Set<string>>,
  problems: string[],
): void {
  const labelsOf = (n: NodePat | undefined): string[] => {
    if (!n) return [];
    const set = new Set(n.labels);
    if (n.variable) { for (const l of varLabels.get(n.variable) ?? []) set.add(l); }
    return [...set];
  };
  const triples = [...schema.triples].map((t) => t.split("|") as [string, string, string]);
  const exists = (from: string[], types: string[], to: string[], endsOnly: boolean) => {
    if (endsOnly) {
      const starts = triples.some(([a, t]) =>
        types.includes(t) && (!from.length || from.includes(a))
      );
      const ends = triples.some(([, t, b]) => types.includes(t) && (!to.length || to.includes(b)));
      return starts && ends;
    }
    return triples.some(([a, t, b]) =>
      types.includes(t) && (!from.length || from.includes(a)) && (!to.length || to.includes(b))
    );
  };
  const show = (ls: string[]) => ls.length ? `(:${ls.join("|")})` : "()";
  for (const r of s.rels) {
    if (!r.types.length) continue;
    const left = labelsOf(s.nodes.find((n) => n.end === r.start - 1));
    const right = labelsOf(s.nodes.find((n) => n.start === r.end + 1));
    const [from, to] = r.dir === "IN" ? [right, left] : [left, right];
    if (exists(from, r.types, to, r.varLength)) continue;
    if (r.dir === "BOTH" && exists(to, r.types, from, r.varLength)) continue;
    const type = r.types.join("|");
    const ways = triples.filter(([a, t, b]) =>
      r.types.includes(t) && !KIND_LABELS.includes(a as never) &&
      !KIND_LABELS.includes(b as never)
    ).map(([a, t, b]) => `(:${a})-[:${t}]->(:${b})`);
    const reversed = r.dir !== "BOTH" && exists(to, r.types, from, r.varLength);
    problems.push(
      `no ${show(from)}-[:${type}]->${show(to)} edges in this graph${
        reversed ? " (the direction is reversed)" : ""
      }; ${type} edges run ${[...new Set(ways)].join(", ") || "nowhere"}`,
    );
  }
}

/** The query with a LIMIT on its final RETURN: added when missing, lowered when over the cap. */
function withLimit(cypher: string, tokens: Token[], cap: number): Checked {
  const end = tokens[tokens.length - 1].end;
  let text = cypher.slice(0, end);
  let depth = 0;
  let lastReturn = -1;
  let limit = -1;
  tokens.forEach((t, i) => {
    if (t.type === "op" && ["(", "[", "{"].includes(t.value)) depth++;
    else if (t.type === "op" && [")", "]", "}"].includes(t.value)) depth--;
    else if (depth === 0 && isKw(t, "RETURN")) {
      lastReturn = i;
      limit = -1;
    } else if (depth === 0 && isKw(t, "LIMIT") && lastReturn >= 0) limit = i;
    else if (depth === 0 && isKw(t, "UNION")) lastReturn = -1;
  });
  if (lastReturn < 0) return { cypher: text, notes: [] };
  if (limit < 0) {
    return { cypher: `${text}\nLIMIT ${cap}`, cappedAt: cap, notes: [`LIMIT ${cap} added`] };
  }
  const v = tokens[limit + 1];
  if (v?.type === "number" && limit + 2 === tokens.length && Number(v.value) > cap) {
    text = `${cypher.slice(0, v.start)}${cap}`;
    return {
      cypher: text,
      cappedAt: cap,
      notes: [`LIMIT ${v.value} lowered to the row cap ${cap}`],
    };
  }
  if (v?.type === "number" && Number(v.value) === cap) {
    return { cypher: text, cappedAt: cap, notes: [] };
  }
  return { cypher: text, notes: [] };
}
