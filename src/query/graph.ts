/**
 * Reading one (project, branch) graph: typed nodes and bounded traversal steps. Every query is
 * read-only (GRAPH.RO_QUERY), so no tool can ever change a graph by accident.
 */
import type { Db, Params, Row } from "../db/client.ts";
import * as Q from "../db/queries.ts";
import type { SymbolKind } from "../graph/facts.ts";
import type { EdgeType } from "../graph/model.ts";

export type NodeKind = SymbolKind | "File";
export type Direction = Q.Direction;

/** A Symbol or a File node. For files, `name` and `qualified_name` are the path and line is 0. */
export interface NodeRef {
  id: string;
  name: string;
  qualified_name: string;
  kind: NodeKind;
  path: string;
  line: number;
  end_line?: number;
  signature?: string;
  /** First line of the doc comment, when an answer asked for it. */
  doc?: string;
}

/** An edge seen from the traversal: the node reached, from which anchor, over which edge. */
export interface Link {
  node: NodeRef;
  /** Id of the node this one was reached from. */
  via: string;
  /** Qualified name (or path) of that node, set by traversals deeper than one step. */
  via_name?: string;
  rel: EdgeType;
  dir: Direction;
  /** Line of the edge in its source file (call site, import, class header). */
  at?: number;
  count?: number;
  confidence?: number;
  depth: number;
}

export { SYMBOL_KINDS } from "../graph/facts.ts";

export function isFile(n: NodeRef): boolean {
  return n.kind === "File";
}

/** Hard cap on rows of one traversal step, whatever the caller asks for. */
export const STEP_CAP = 5000;

/** Confidence at or below which an edge is a name-only guess. */
export const GUESS = 0.7;

export class GraphReader {
  constructor(readonly db: Db, readonly graph: string) {}

  async rows(cypher: string, params: Params = {}): Promise<Row[]> {
    return await this.db.query(this.graph, cypher, params, { readOnly: true });
  }

  async nodes(cypher: string, params: Params = {}): Promise<NodeRef[]> {
    return (await this.rows(cypher, params)).map((r) => nodeOf(r));
  }

  /** Nodes by id (symbols and files), in no particular order. */
  async byIds(ids: string[]): Promise<Map<string, NodeRef>> {
    const out = new Map<string, NodeRef>();
    for (let i = 0; i < ids.length; i += 1000) {
      const chunk = ids.slice(i, i + 1000);
      for (const n of await this.nodes(Q.SYMBOLS_BY_IDS, { ids: chunk })) out.set(n.id, n);
      const rest = chunk.filter((id) => !out.has(id));
      if (rest.length) {
        for (const n of await this.nodes(Q.FILES_BY_IDS, { ids: rest })) out.set(n.id, n);
      }
    }
    return out;
  }

  /**
   * One traversal step from many anchors: every edge of the given types in one direction, with at
   * most `cap` rows in all. Returns the links and whether the cap cut the answer.
   */
  async step(
    anchors: NodeRef[],
    types: EdgeType[],
    dir: Direction,
    depth: number,
    cap = STEP_CAP,
  ): Promise<{ links: Link[]; capped: boolean }> {
    const links: Link[] = [];
    let capped = false;
    const groups: ["Symbol" | "File", string[]][] = [
      ["Symbol", anchors.filter((a) => !isFile(a)).map((a) => a.id)],
      ["File", anchors.filter(isFile).map((a) => a.id)],
    ];
    for (const [label, ids] of groups) {
      if (!ids.length || links.length >= cap) continue;
      const left = cap - links.length;
      const rows = await this.rows(Q.stepQuery(label, types, dir), { ids, cap: left + 1 });
      if (rows.length > left) {
        capped = true;
        rows.length = left;
      }
      for (const r of rows) {
        links.push({
          node: nodeOf(r),
          via: String(r.via),
          rel: String(r.rel) as EdgeType,
          dir,
          at: optNumber(r.at),
          count: optNumber(r.count),
          confidence: optNumber(r.confidence),
          depth,
        });
      }
    }
    return { links, capped };
  }
}

function optNumber(v: unknown): number | undefined {
  return v === null || v === undefined ? undefined : Number(v);
}

export function nodeOf(r: Row, p = ""): NodeRef {
  const kind = r[`${p}kind`];
  const path = String(r[`${p}path`] ?? "");
  if (kind === null || kind === undefined) {
    return {
      id: String(r[`${p}id`]),
      name: path,
      qualified_name: path,
      kind: "File",
      path,
      line: 0,
    };
  }
  const n: NodeRef = {
    id: String(r[`${p}id`]),
    name: String(r[`${p}name`] ?? ""),
    qualified_name: String(r[`${p}qn`] ?? r[`${p}name`] ?? ""),
    kind: String(kind) as SymbolKind,
    path,
    line: Number(r[`${p}line`] ?? 0),
  };
  const end = optNumber(r[`${p}end_line`]);
  if (end !== undefined) n.end_line = end;
  const sig = r[`${p}signature`];
  if (typeof sig === "string" && sig) n.signature = sig;
  return n;
}

/** Stable order for listings: path, then line, then name. */
export function byLocation(a: NodeRef, b: NodeRef): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line ||
    (a.qualified_name < b.qualified_name ? -1 : a.qualified_name > b.qualified_name ? 1 : 0);
}
