/**
 * The first half of a full index's write, done while files are still being parsed: the staging
 * graph is cleared and indexed, and each file's node, its symbols and its hash and facts are
 * written in batches as its facts arrive. Parsing keeps the cores busy and this thread idle, so
 * the write phase after resolution is left with the edges alone; and calls and imports, most of
 * those, are written while resolution goes on (`EdgeStream`).
 */
import type { Db } from "../db/client.ts";
import type { FileFacts } from "../graph/facts.ts";
import { type Edge, fileNode, symbolNodes } from "../graph/model.ts";
import { GraphWriter } from "./writer.ts";

/** Files per batch: large enough to amortise a round trip, small enough to start early. */
const BATCH = 250;

export class StagingStream {
  private readonly writer: GraphWriter;
  private pending: FileFacts[] = [];
  private chain: Promise<void>;
  private failure: unknown;

  /**
   * @param graph the staging graph; `hashes` and `facts` are the staging keys of the file-hash
   *   and facts caches. Everything at these keys is removed first.
   */
  constructor(
    private readonly db: Db,
    graph: string,
    private readonly hashes: string,
    private readonly facts: string,
    clearKeys: string[],
  ) {
    this.writer = new GraphWriter(db, graph);
    this.chain = this.guard(async () => {
      await db.deleteGraph(graph);
      await db.command(["DEL", ...clearKeys]);
      await this.writer.createIndexes();
    });
  }

  /** Queues one file's facts; a full batch starts writing without waiting for the caller. */
  add(f: FileFacts): void {
    this.pending.push(f);
    if (this.pending.length >= BATCH) this.flushPending();
  }

  /** Writes what is queued and waits for every write; rethrows the first failure. */
  async finish(): Promise<void> {
    this.flushPending();
    await this.chain;
    if (this.failure !== undefined) throw this.failure;
  }

  private flushPending(): void {
    if (!this.pending.length) return;
    const batch = this.pending;
    this.pending = [];
    this.chain = this.chain.then(() =>
      this.guard(async () => {
        await this.writer.files(batch.map(fileNode));
        await this.writer.symbols(batch.flatMap(symbolNodes));
        await this.db.hashSet(this.hashes, Object.fromEntries(batch.map((f) => [f.path, f.hash])));
        await this.db.hashSet(
          this.facts,
          Object.fromEntries(batch.map((f) => [f.path, JSON.stringify(f)])),
        );
      })
    );
  }

  /** Runs a step unless one failed before; a failure is kept for finish(), never left unhandled. */
  private async guard(step: () => Promise<void>): Promise<void> {
    if (this.failure !== undefined) return;
    try {
      await step();
    } catch (err) {
      this.failure = err;
    }
  }
}

/** Edges per write while resolution goes on: a round trip's worth, small enough to start early. */
const EDGE_CHUNK = 1500;

/**
 * The second half: edges that are final as soon as they are resolved (calls, imports) written
 * while the next files are resolved, after the nodes they join (`nodesWritten`). `add` hands the
 * database a full chunk and lets it run: the caller's next step runs meanwhile.
 */
export class EdgeStream {
  private pending: Edge[] = [];
  private chain: Promise<void>;
  private failure: unknown;

  constructor(
    nodesWritten: Promise<void>,
    private readonly write: (edges: Edge[]) => Promise<void>,
  ) {
    this.chain = nodesWritten.catch((err) => {
      this.failure = err;
    });
  }

  /** Queues edges; at a full chunk, queues its write and gives the event loop a turn. */
  async add(edges: Edge[]): Promise<void> {
    for (const e of edges) this.pending.push(e);
    if (this.pending.length < EDGE_CHUNK) return;
    this.flush();
    // The write's requests go out, and replies come in, only while this thread yields.
    await new Promise((r) => setTimeout(r, 0));
  }

  /** Writes what is queued and waits for every write; rethrows the first failure. */
  async finish(): Promise<void> {
    this.flush();
    await this.chain;
    if (this.failure !== undefined) throw this.failure;
  }

  private flush(): void {
    if (!this.pending.length) return;
    const batch = this.pending;
    this.pending = [];
    this.chain = this.chain.then(async () => {
      if (this.failure !== undefined) return;
      try {
        await this.write(batch);
      } catch (err) {
        this.failure = err;
      }
    });
  }
}
