/** Writes the in-memory model to a FalkorDB graph in batches. */
import { type Db, WRITE_TIMEOUT_MS } from "../db/client.ts";
import { bulkEdgesCommand, bulkNodesCommand, edgeBlob, nodeBlob } from "../db/bulk.ts";
import * as Q from "../db/cypher.ts";
import type { Arg } from "../db/resp.ts";
import { CypherJson } from "../db/params.ts";
import type { SymbolKind } from "../graph/facts.ts";
import type { Edge, EdgeType, FileNode, SymbolNode } from "../graph/model.ts";

const NODE_BATCH = 2000;
const EDGE_BATCH = 5000;

export class GraphWriter {
  /** Whether the server takes GRAPH.BULK (false once it refused it: then Cypher). */
  #bulk = true;
  /** Nodes `nodesInOrder` created; its first and last, by internal id and id property. */
  #numbered = 0;
  #ends: { first?: [number, string]; last?: [number, string] } = {};

  constructor(private readonly db: Db, readonly graph: string) {}

  async createIndexes(): Promise<void> {
    for (const q of Q.CREATE_INDEXES) await this.ignoreExisting(q);
    await this.ignoreExisting(Q.CREATE_FULLTEXT);
  }

  /** Creates file nodes; returns their internal ids, in the order given. */
  async files(files: FileNode[]): Promise<number[]> {
    return await this.batched(Q.CREATE_FILES, files.map((f) => row(f, Q.FILE_PROPS)), NODE_BATCH);
  }

  /** Creates definition nodes; returns their internal ids, in the order given. */
  async symbols(symbols: SymbolNode[]): Promise<number[]> {
    const ids = new Array<number>(symbols.length);
    for (const [kind, at] of groupByKind(symbols)) {
      const rows = at.map((i) => row(symbols[i], Q.SYMBOL_PROPS));
      const created = await this.batched(Q.createSymbols(kind), rows, NODE_BATCH);
      at.forEach((i, k) => ids[i] = created[k]);
    }
    return ids;
  }

  /**
   * Creates these files' and definitions' nodes; returns their internal ids, in the order given.
   * Only for a graph whose every node this writer created this way, from empty (a full run's
   * staging graph, cleared first): FalkorDB gives the nodes of a graph none was deleted from ids in
   * the order it creates them, so one GRAPH.BULK command creates them all, with no Cypher and no
   * ids to send back, and their ids follow from the nodes before. `checkNodeIds` checks that once
   * the nodes are written. A server that refuses the command gets Cypher, which returns the ids.
   */
  async nodesInOrder(
    files: FileNode[],
    symbols: SymbolNode[],
  ): Promise<{ files: number[]; symbols: number[] }> {
    if (this.#bulk) {
      const blobs = [nodeBlob("File", Q.FILE_PROPS, files.map((f) => row(f, Q.FILE_PROPS)))];
      const byKind = groupByKind(symbols);
      for (const [kind, at] of byKind) {
        blobs.push(
          nodeBlob(
            `Symbol:${kind}`,
            Q.SYMBOL_PROPS,
            at.map((i) => row(symbols[i], Q.SYMBOL_PROPS)),
          ),
        );
      }
      const count = files.length + symbols.length;
      // Numbered now, before the command goes: calls answer in the order they are made.
      const first = this.#numbered;
      this.#numbered += count;
      if (await this.#bulkCommand(bulkNodesCommand(this.graph, blobs, count), count, 0)) {
        // The server creates the blobs' nodes in order: the files, then each kind's definitions.
        const fileIds = files.map((_, i) => first + i);
        const symbolIds = new Array<number>(symbols.length);
        let next = first + files.length;
        let [firstKey, lastKey] = [files[0]?.id, files.at(-1)?.id];
        for (const at of byKind.values()) {
          for (const i of at) {
            symbolIds[i] = next++;
            firstKey ??= symbols[i].id;
            lastKey = symbols[i].id;
          }
        }
        if (count) {
          this.#ends.first ??= [first, firstKey!];
          this.#ends.last = [next - 1, lastKey!];
        }
        return { files: fileIds, symbols: symbolIds };
      }
      if (first > 0) {
        throw new Error(`GRAPH.BULK was refused after it created nodes in ${this.graph}`);
      }
      this.#numbered = 0;
    }
    return { files: await this.files(files), symbols: await this.symbols(symbols) };
  }

  /**
   * Throws unless the first and last nodes `nodesInOrder` numbered have the ids it gave them (a
   * graph something else wrote to or deleted from meanwhile: its edges would join the wrong nodes).
   */
  async checkNodeIds(): Promise<void> {
    for (const end of [this.#ends.first, this.#ends.last]) {
      if (!end) continue;
      const [internal, id] = end;
      const rows = await this.db.query(this.graph, Q.NODE_ID_AT, { n: internal });
      if (rows[0]?.id !== id) {
        throw new Error(
          `the nodes of ${this.graph} are not numbered as they were created (node ${internal} is ` +
            `${JSON.stringify(rows[0]?.id ?? null)}, not ${JSON.stringify(id)}): was it written ` +
            `to by another process? Index again.`,
        );
      }
    }
  }

  /**
   * Runs a GRAPH.BULK command that creates `nodes` nodes and `edges` edges, and checks that it did.
   * False when the server refuses the command (a user whose ACL does not allow it): this writer
   * then writes Cypher.
   */
  async #bulkCommand(args: Arg[], nodes: number, edges: number): Promise<boolean> {
    let reply: string;
    try {
      reply = String(await this.db.command(args, WRITE_TIMEOUT_MS));
    } catch (err) {
      if (!/unknown command|NOPERM|no permissions/i.test((err as Error).message)) throw err;
      this.#bulk = false;
      return false;
    }
    const made = /(\d+) nodes created, (\d+) edges created/.exec(reply);
    if (!made || Number(made[1]) !== nodes || Number(made[2]) !== edges) {
      throw new Error(`GRAPH.BULK of ${nodes} nodes and ${edges} edges answered: ${reply}`);
    }
    return true;
  }

  /** Each kind of edge (type, and which ends are files) in its own statements, sent together. */
  async edges(edges: Edge[]): Promise<void> {
    await Promise.all(
      [...groupEdges(edges)].map(([[type, fromFile, toFile], rows]) =>
        this.batched(Q.createEdges(type, fromFile, toFile), rows.map(edgeRow), EDGE_BATCH)
      ),
    );
  }

  /**
   * `edges`, each end found by its internal node id where `nodeId` knows it (a graph this run
   * created every node of: a seek instead of an index lookup), else by its indexed id.
   */
  async edgesById(
    edges: Edge[],
    nodeId: (id: string, file: boolean) => number | undefined,
  ): Promise<void> {
    const { byType, rest } = rowsById(edges, nodeId);
    await Promise.all([this.bulkEdges(byType), this.edges(rest)]);
  }

  /**
   * Rows of internal ids and properties, by type, appended through GRAPH.BULK (db/bulk.ts): one
   * command, a blob per type. A server that refuses the command (a user whose ACL does not allow
   * it) gets them as Cypher, and so does every later call.
   */
  private async bulkEdges(byType: Map<EdgeType, unknown[][]>): Promise<void> {
    if (!byType.size) return;
    if (this.#bulk) {
      const blobs: Uint8Array[] = [];
      let count = 0;
      for (const [type, rows] of byType) {
        blobs.push(edgeBlob(type, Q.EDGE_PROPS[type], rows));
        count += rows.length;
      }
      if (await this.#bulkCommand(bulkEdgesCommand(this.graph, blobs, count), 0, count)) return;
    }
    await Promise.all(
      // Rows of numbers, `"value"`, true and null: written as their JSON (params.ts CypherJson).
      [...byType].map(([type, rows]) =>
        this.batched(Q.createEdgesById(type), rows, EDGE_BATCH, true)
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
   * these writes; a failure still fails the whole call. Returns the column `n` of the rows the
   * statements return (created nodes' ids), in the order of `rows`.
   */
  private async batched(
    cypher: string,
    rows: object[],
    size: number,
    json = false,
  ): Promise<number[]> {
    const parts: number[][] = [];
    let running: Promise<unknown> | undefined;
    for (let i = 0; i < rows.length; i += size) {
      const batch = rows.slice(i, i + size);
      const part: number[] = [];
      parts.push(part);
      const params = { rows: json ? new CypherJson(batch) : batch };
      const next = this.db.query(this.graph, cypher, params).then((reply) => {
        if (!reply.length) return;
        // A statement that returns rows returns one per row given, in order.
        if (reply.length !== batch.length) {
          throw new Error(`expected ${batch.length} ids, the database returned ${reply.length}`);
        }
        for (const row of reply) part.push(row.n as number);
      });
      next.catch(() => {}); // awaited below; a failure of `running` first must not leave it unheard
      if (running) await running;
      running = next;
    }
    await running;
    return parts.length === 1 ? parts[0] : parts.flat();
  }

  private async ignoreExisting(cypher: string): Promise<void> {
    try {
      await this.db.query(this.graph, cypher);
    } catch (err) {
      if (!/already indexed|already exists/i.test((err as Error).message)) throw err;
    }
  }
}

/** The indexes of `symbols`, by kind, in order. */
function groupByKind(symbols: SymbolNode[]): Map<SymbolKind, number[]> {
  const byKind = new Map<SymbolKind, number[]>();
  symbols.forEach((s, i) => {
    const list = byKind.get(s.kind);
    if (list) list.push(i);
    else byKind.set(s.kind, [i]);
  });
  return byKind;
}

/** A node's properties as a row of its create statement (a missing one null). */
function row<T extends object>(node: T, props: readonly (keyof T)[]): unknown[] {
  return props.map((p) => node[p] ?? null);
}

/**
 * `edges` as rows of internal ids and properties, by type, and those with an end `nodeId` does
 * not know. (Its own function: the loop is what runs hot, and the optimizing compiler compiles it
 * alone, not with the writes' async machinery around it, which cost 60-100 ms to compile.)
 */
function rowsById(
  edges: Edge[],
  nodeId: (id: string, file: boolean) => number | undefined,
): { byType: Map<EdgeType, unknown[][]>; rest: Edge[] } {
  // The result made first: a loop the optimizing compiler takes over mid-way (on-stack) had then
  // never seen the literal, and gave its code up at the first return (three times a run).
  const out = { byType: new Map<EdgeType, unknown[][]>(), rest: [] as Edge[] };
  const { byType, rest } = out;
  for (const e of edges) {
    const from = nodeId(e.from, !!e.fromFile);
    const to = from === undefined ? undefined : nodeId(e.to, !!e.toFile);
    if (to === undefined) {
      rest.push(e);
      continue;
    }
    const row: unknown[] = [from, to];
    for (const p of Q.EDGE_PROPS[e.type]) row.push(propValue(e, p));
    const list = byType.get(e.type);
    if (list) list.push(row);
    else byType.set(e.type, [row]);
  }
  return out;
}

function edgeRow(e: Edge): Record<string, unknown> {
  const row: Record<string, unknown> = { from: e.from, to: e.to };
  for (const p of Q.EDGE_PROPS[e.type]) row[p] = propValue(e, p);
  return row;
}

/** The value an edge is written with for one of its properties (cypher.ts EDGE_PROPS). */
function propValue(e: Edge, prop: string): unknown {
  switch (prop) {
    case "line":
      return e.line ?? 0;
    case "count":
      return e.count ?? 1;
    case "confidence":
      return e.confidence ?? 1;
    case "via":
      return e.via ?? null;
    case "type_only":
      return e.typeOnly ? true : null;
  }
  throw new Error(`no value for edge property ${prop}`);
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
