/**
 * Running a validated query: GRAPH.RO_QUERY (the database refuses writes too), FalkorDB's own
 * TIMEOUT (CGRAPH_QUERY_TIMEOUT_MS, default 5 s) plus a client deadline a little longer, and a row
 * cap. Values come back as plain data (nodes as their labels and properties, edges as their type
 * and properties, paths as node lists) and as compact table cells.
 */
import { Db, DbQueryError, DbUnavailableError, type Params, type Row } from "../db/client.ts";
import type { CgraphError } from "../errors.ts";
import type { Checked } from "./validate.ts";

/** FalkorDB's TIMEOUT for query_graph and ask, read at each call (tests set it). */
export function queryTimeoutMs(): number {
  const n = Number(Deno.env.get("CGRAPH_QUERY_TIMEOUT_MS"));
  return Number.isFinite(n) && n > 0 ? Math.trunc(n) : 5000;
}

export interface QueryRows {
  columns: string[];
  /** Plain values, at most `cap` rows. */
  rows: Record<string, unknown>[];
  /** Raw rows as the client returned them (nodes with labels), for context extraction. */
  raw: Row[];
  /** The row cap cut the answer (or may have: the query's LIMIT is the cap and was reached). */
  capped: boolean;
  /** Rows beyond the cap that came back anyway (a query without a final RETURN LIMIT). */
  more: number;
}

export async function runReadOnly(
  db: Db,
  graph: string,
  checked: Checked,
  params: Params,
  cap: number,
): Promise<QueryRows> {
  const ms = queryTimeoutMs();
  let raw: Row[];
  // A connection of its own: a query the server does not stop in time (FalkorDB's TIMEOUT misses
  // some long aggregations) is abandoned with it, and every other call keeps answering.
  const own = await Db.connect(db.endpoint);
  const t0 = performance.now();
  try {
    raw = await own.query(graph, checked.cypher, params, {
      readOnly: true,
      serverTimeoutMs: ms,
      timeoutMs: ms + 1000,
    });
  } catch (err) {
    if (err instanceof DbQueryError) throw queryError(err.message, ms);
    if (err instanceof DbUnavailableError && performance.now() - t0 >= ms) {
      throw queryError(`timed out after ${ms} ms`, ms);
    }
    throw err;
  } finally {
    await own.close().catch(() => {});
  }
  const more = Math.max(0, raw.length - cap);
  if (more) raw = raw.slice(0, cap);
  const capped = more > 0 || (checked.cappedAt !== undefined && raw.length >= checked.cappedAt);
  return {
    columns: raw.length ? Object.keys(raw[0]) : [],
    rows: raw.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, plain(v)]))),
    raw,
    capped,
    more,
  };
}

/** A database refusal as an error that says what to change. */
export function queryError(message: string, ms: number): CgraphError {
  if (/timed out|timeout/i.test(message)) {
    return new DbQueryError(
      `Query exceeded ${ms} ms and was stopped (CGRAPH_QUERY_TIMEOUT_MS); the database is fine. ` +
        "Anchor it on a name or path, bound variable-length patterns (*1..3), or aggregate less.",
    );
  }
  if (/RO_QUERY|read-only/i.test(message)) {
    return new DbQueryError(`Refused by the database (read-only): ${message}`);
  }
  const syntax = /errMsg:\s*(.*?)\s*line:\s*(\d+),\s*column:\s*(\d+)/s.exec(message);
  if (syntax) {
    // FalkorDB's parser reply (errMsg/errCtx/offsets) as one sentence, without echoing the query.
    return new DbQueryError(
      `Cypher syntax error at line ${syntax[2]}, column ${syntax[3]}: ${syntax[1].slice(0, 300)}`,
    );
  }
  return new DbQueryError(`The database rejected the query: ${message.slice(0, 500)}`);
}

// ---- values -----------------------------------------------------------------------------------

interface RawNode {
  id: number;
  labels: string[];
  properties: Record<string, unknown>;
}
interface RawEdge {
  id: number;
  relationshipType: string;
  properties: Record<string, unknown>;
}
interface RawPath {
  nodes: RawNode[];
  edges: RawEdge[];
}

function obj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function isRawNode(v: unknown): v is RawNode {
  return obj(v) && Array.isArray(v.labels) && obj(v.properties);
}

function isRawEdge(v: unknown): v is RawEdge {
  return obj(v) && typeof v.relationshipType === "string" && obj(v.properties);
}

export function isRawPath(v: unknown): v is RawPath {
  return obj(v) && Array.isArray(v.nodes) && Array.isArray(v.edges);
}

/** Properties that are noise in answers. */
const HIDDEN = new Set(["words", "hash"]);

function props(p: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(p).filter(([k]) => !HIDDEN.has(k)));
}

/** A value as plain JSON data. */
export function plain(v: unknown): unknown {
  if (isRawNode(v)) return { labels: v.labels, ...props(v.properties) };
  if (isRawEdge(v)) return { type: v.relationshipType, ...props(v.properties) };
  if (isRawPath(v)) {
    return { path: v.nodes.map(plain), types: v.edges.map((e) => e.relationshipType) };
  }
  if (Array.isArray(v)) return v.map(plain);
  if (obj(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, plain(x)]));
  return v;
}

function short(s: string, max = 200): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 3)}...` : t;
}

function nodeCell(n: RawNode): string {
  const p = n.properties;
  if (typeof p.qualified_name === "string") {
    return `${p.qualified_name} (${
      String(p.kind ?? n.labels.at(-1)).toLowerCase()
    }, ${p.path}:${p.line})`;
  }
  if (n.labels.includes("File") && typeof p.path === "string") return `${p.path} (file)`;
  const shown = Object.entries(props(p)).slice(0, 4).map(([k, x]) => `${k}: ${JSON.stringify(x)}`);
  return `(:${n.labels.join(":")}${shown.length ? ` {${shown.join(", ")}}` : ""})`;
}

/** A value as one compact table cell. */
export function cell(v: unknown): string {
  if (v === null || v === undefined) return "null";
  if (isRawNode(v)) return short(nodeCell(v));
  if (isRawEdge(v)) {
    const p = Object.entries(v.properties).map(([k, x]) => `${k}=${x}`).join(" ");
    return `[:${v.relationshipType}${p ? ` ${p}` : ""}]`;
  }
  if (isRawPath(v)) {
    return short(
      v.nodes.map((n) => String(n.properties.qualified_name ?? n.properties.path ?? n.id)).join(
        " -> ",
      ),
      400,
    );
  }
  if (Array.isArray(v)) return short(`[${v.map(cell).join(", ")}]`, 400);
  if (obj(v)) return short(JSON.stringify(plain(v)));
  return short(String(v));
}

/** Rows as `a | b | c` lines. */
export function tableLines(columns: string[], rows: Row[]): string[] {
  return rows.map((r) => columns.map((c) => cell(r[c])).join(" | "));
}

// ---- code locations in rows -------------------------------------------------------------------

export interface ContextNode {
  path: string;
  line?: number;
  qualified_name?: string;
  kind?: string;
}

/**
 * The code locations a result names: every Symbol / File node in it (also inside lists and
 * paths), or, for rows of scalars, the columns that hold a path, a line, a name and a kind.
 */
export function contextNodes(rows: Row[], max = 50): ContextNode[] {
  const out: ContextNode[] = [];
  const seen = new Set<string>();
  const add = (c: ContextNode) => {
    const key = `${c.path}:${c.line ?? ""}|${c.qualified_name ?? ""}`;
    if (seen.has(key) || out.length >= max) return;
    seen.add(key);
    out.push(c);
  };
  const visit = (v: unknown) => {
    if (isRawNode(v)) {
      const p = v.properties;
      if (typeof p.path !== "string") return;
      if (typeof p.qualified_name === "string") {
        add({
          path: p.path,
          line: Number(p.line),
          qualified_name: p.qualified_name,
          kind: String(p.kind ?? ""),
        });
      } else if (v.labels.includes("File")) add({ path: p.path, kind: "File" });
    } else if (isRawPath(v)) v.nodes.forEach(visit);
    else if (Array.isArray(v)) v.forEach(visit);
  };
  for (const r of rows) {
    const before = out.length;
    Object.values(r).forEach(visit);
    if (out.length > before) continue;
    const c = scalarLocation(r);
    if (c) add(c);
  }
  return out;
}

function scalarLocation(r: Row): ContextNode | undefined {
  const cols = Object.keys(r);
  const find = (re: RegExp, type: "string" | "number") =>
    cols.find((c) => re.test(c) && typeof r[c] === type && r[c] !== "");
  const pathCol = find(/path|file/i, "string");
  if (!pathCol) return undefined;
  const lineCol = find(/line/i, "number");
  const nameCol = find(/qualified|^qn$/i, "string") ??
    cols.find((c) =>
      c !== pathCol && /name|symbol|caller|callee|method|function|class/i.test(c) &&
      typeof r[c] === "string"
    );
  const kindCol = find(/kind|type|label/i, "string");
  const path = String(r[pathCol]);
  return {
    path,
    ...(lineCol ? { line: Number(r[lineCol]) } : {}),
    ...(nameCol ? { qualified_name: String(r[nameCol]) } : {}),
    ...(kindCol ? { kind: String(r[kindCol]) } : {}),
  };
}

export function contextLine(c: ContextNode): string {
  const loc = c.line !== undefined && c.line > 0 ? `${c.path}:${c.line}` : c.path;
  const kind = c.kind ? c.kind.toLowerCase() : c.qualified_name ? "symbol" : "file";
  return [loc, c.qualified_name ?? c.path, kind].join(" | ");
}
