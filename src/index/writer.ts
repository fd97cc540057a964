/** Writes the in-memory model to a FalkorDB graph in batches. */
import type { Db } from "../db/client.ts";
import * as Q from "../db/cypher.ts";
import type { SymbolKind } from "../graph/facts.ts";
import type { Edge, EdgeType, FileNode, SymbolNode } from "../graph/model.ts";

const NODE_BATCH = 2000;
const EDGE_BATCH = 5000;

export class GraphWriter {
  constructor(private readonly db: Db, readonly graph: string) {}

  async createIndexes(): Promise<void> {
    for (const q of Q.CREATE_INDEXES) await this.ignoreExisting(q);
    await this.ignoreExisting(Q.CREATE_FULLTEXT);
  }

  async files(files: FileNode[]): Promise<void> {
    await this.batched(Q.CREATE_FILES, files, NODE_BATCH);
  }

  async symbols(symbols: SymbolNode[]): Promise<void> {
    const byKind = new Map<SymbolKind, SymbolNode[]>();
    for (const s of symbols) byKind.set(s.kind, [...(byKind.get(s.kind) ?? []), s]);
    for (const [kind, rows] of byKind) await this.batched(Q.createSymbols(kind), rows, NODE_BATCH);
  }

  /** Each kind of edge (type, and which ends are files) in its own statements, sent together. */
  async edges(edges: Edge[]): Promise<void> {
    await Promise.all(
      [...groupEdges(edges)].map(([[type, fromFile, toFile], rows]) =>
        this.batched(Q.createEdges(type, fromFile, toFile), rows.map(edgeRow), EDGE_BATCH)
      ),
    );
  }

  async deleteEdges(edges: Edge[]): Promise<void> {
    for (const [key, rows] of groupEdges(edges)) {
      const [type, fromFile, toFile] = key;
      const ends = rows.map((e) => ({ from: e.from, to: e.to }));
      await this.batched(Q.deleteEdges(type, fromFile, toFile), ends, EDGE_BATCH);
    }
  }

  /** Sets the properties of existing file nodes (found by id) to these. */
  async updateFiles(files: FileNode[]): Promise<void> {
    await this.batched(Q.UPDATE_FILES, files, NODE_BATCH);
  }

  /** Sets the properties of existing definition nodes (found by id) to these. */
  async updateSymbols(symbols: SymbolNode[]): Promise<void> {
    await this.batched(Q.UPDATE_SYMBOLS, symbols, NODE_BATCH);
  }

  /** Removes definitions by id, with every edge touching them. */
  async deleteSymbols(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += NODE_BATCH) {
      await this.db.query(this.graph, Q.DELETE_SYMBOLS, { ids: ids.slice(i, i + NODE_BATCH) });
    }
  }

  /** Removes these files' nodes and every edge touching them. */
  async deleteFiles(paths: string[]): Promise<void> {
    for (let i = 0; i < paths.length; i += NODE_BATCH) {
      const chunk = paths.slice(i, i + NODE_BATCH);
      await this.db.query(this.graph, Q.DELETE_FILE_SYMBOLS, { paths: chunk });
      await this.db.query(this.graph, Q.DELETE_FILES, { paths: chunk });
    }
  }

  /**
   * Two batches in flight: this thread encodes the next batch while the database runs the one
   * before (on a second core), instead of each waiting for the other. Order does not matter to
   * these writes; a failure still fails the whole call.
   */
  private async batched(cypher: string, rows: object[], size: number): Promise<void> {
    let running: Promise<unknown> | undefined;
    for (let i = 0; i < rows.length; i += size) {
      const next = this.db.query(this.graph, cypher, { rows: rows.slice(i, i + size) });
      next.catch(() => {}); // awaited below; a failure of `running` first must not leave it unheard
      if (running) await running;
      running = next;
    }
    await running;
  }

  private async ignoreExisting(cypher: string): Promise<void> {
    try {
      await this.db.query(this.graph, cypher);
    } catch (err) {
      if (!/already indexed|already exists/i.test((err as Error).message)) throw err;
    }
  }
}

function edgeRow(e: Edge): Record<string, unknown> {
  return {
    from: e.from,
    to: e.to,
    line: e.line ?? 0,
    count: e.count ?? 1,
    confidence: e.confidence ?? 1,
    via: e.via ?? null,
    type_only: e.typeOnly ? true : null,
  };
}

function groupEdges(edges: Edge[]): Map<[EdgeType, boolean, boolean], Edge[]> {
  const groups = new Map<string, { key: [EdgeType, boolean, boolean]; rows: Edge[] }>();
  for (const e of edges) {
    const k = `${e.type}|${!!e.fromFile}|${!!e.toFile}`;
    let g = groups.get(k);
    if (!g) groups.set(k, g = { key: [e.type, !!e.fromFile, !!e.toFile], rows: [] });
    g.rows.push(e);
  }
  return new Map([...groups.values()].map((g) => [g.key, g.rows]));
}
