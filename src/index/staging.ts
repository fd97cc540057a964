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
import { type FactsLayout, LayoutRecorder, packSegment, SEGMENT_FILES } from "./facts_store.ts";
import { GraphWriter } from "./writer.ts";

/**
 * Files per write of nodes (the file and its definitions): small enough that the last files'
 * nodes are written while parsing still keeps this thread idle, not when resolution has it busy
 * (a write goes on only while resolution yields, so one late batch of a few hundred files held
 * every edge back by a few hundred ms), large enough to amortise a round trip.
 */
const NODE_FILES = 50;
/** Edges per write while resolution goes on: a round trip's worth, small enough to start early. */
const EDGE_CHUNK = 1500;
/** Edge chunks written at once before resolution waits for the oldest (bounds what is queued). */
const IN_FLIGHT = 4;

/**
 * Items gathered into batches, each written after the one before, off the caller's path: the
 * first failure skips the rest and is kept for `finish()`, never left unhandled.
 */
class Batches<T> {
  private pending: T[] = [];
  private chain: Promise<void>;
  private failure: unknown;

  /** `first` runs before any batch (the graph made ready, the nodes written). */
  constructor(
    first: () => Promise<void>,
    private readonly size: number,
    private readonly write: (batch: T[]) => Promise<void>,
  ) {
    this.chain = this.guard(first);
  }

  /** Queues items; true when a full batch was handed to the writer. */
  add(items: Iterable<T>): boolean {
    for (const item of items) this.pending.push(item);
    if (this.pending.length < this.size) return false;
    this.flush();
    return true;
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
    this.chain = this.chain.then(() => this.guard(() => this.write(batch)));
  }

  private async guard(step: () => Promise<void>): Promise<void> {
    if (this.failure !== undefined) return;
    try {
      await step();
    } catch (err) {
      this.failure = err;
    }
  }
}

export class StagingStream {
  /** Nodes, a few files at a time. */
  private readonly nodes: Batches<FileFacts>;
  /** Hashes and facts, a stored segment (facts_store.ts) at a time. */
  private readonly caches: Batches<FileFacts>;
  readonly #segments = new LayoutRecorder();

  /**
   * @param graph the staging graph; `hashes` and `facts` are the staging keys of the file-hash
   *   and facts caches. Everything at these keys is removed first.
   */
  constructor(db: Db, graph: string, hashes: string, facts: string, clearKeys: string[]) {
    const writer = new GraphWriter(db, graph);
    const cleared = (async () => {
      await db.deleteGraph(graph);
      await db.command(["DEL", ...clearKeys]);
      await writer.createIndexes();
    })();
    this.nodes = new Batches<FileFacts>(() => cleared, NODE_FILES, async (batch) => {
      await writer.files(batch.map(fileNode));
      await writer.symbols(batch.flatMap(symbolNodes));
    });
    this.caches = new Batches<FileFacts>(() => cleared, SEGMENT_FILES, async (batch) => {
      await db.hashSet(hashes, Object.fromEntries(batch.map((f) => [f.path, f.hash])));
      const segment = this.#segments.next(batch.map((f) => f.path));
      await db.hashSet(facts, { [segment]: packSegment(batch) });
    });
  }

  /** Which segment holds each file's facts, as written. */
  get layout(): FactsLayout {
    return this.#segments.layout;
  }

  /** Queues one file's facts; a full batch starts writing without waiting for the caller. */
  add(f: FileFacts): void {
    this.nodes.add([f]);
    this.caches.add([f]);
  }

  /**
   * Writes the nodes still queued and waits for every node write (the edges' ends); rethrows the
   * first failure. The hashes and facts may still be on their way.
   */
  nodesWritten(): Promise<void> {
    return this.nodes.finish();
  }

  /** Writes what is queued and waits for every write; rethrows the first failure. */
  async finish(): Promise<void> {
    // Both are waited for, whichever fails first.
    const [nodes, caches] = await Promise.allSettled([this.nodes.finish(), this.caches.finish()]);
    if (nodes.status === "rejected") throw nodes.reason;
    if (caches.status === "rejected") throw caches.reason;
  }
}

/**
 * The second half: edges that are final as soon as they are resolved (calls, imports) written
 * while the next files are resolved, after the nodes they join (`nodesWritten`). A full chunk's
 * writes go out at once, without waiting for the chunks before (order does not matter to them):
 * the database works through them on the other core while this thread resolves, which lets the
 * event loop run only when a chunk is handed over. At most `IN_FLIGHT` chunks are unanswered at a
 * time; past that, `add` waits for the oldest.
 */
export class EdgeStream {
  private pending: Edge[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown;

  constructor(
    private readonly nodesWritten: Promise<void>,
    private readonly write: (edges: Edge[]) => Promise<void>,
  ) {
    nodesWritten.catch(() => {}); // seen by the first chunk's write, or by finish()
  }

  /** Queues edges; at a full chunk, its write starts and the event loop gets a turn. */
  async add(edges: Edge[]): Promise<void> {
    for (const e of edges) this.pending.push(e);
    if (this.pending.length < EDGE_CHUNK) return;
    this.flush();
    // The write's requests go out, and replies come in, only while this thread yields.
    if (this.inFlight.size > IN_FLIGHT) await Promise.race(this.inFlight);
    else await new Promise((r) => setTimeout(r, 0));
  }

  /** Writes what is queued and waits for every write; rethrows the first failure. */
  async finish(): Promise<void> {
    this.flush();
    await this.nodesWritten.catch((err) => this.failure ??= err);
    await Promise.all(this.inFlight);
    if (this.failure !== undefined) throw this.failure;
  }

  private flush(): void {
    if (!this.pending.length) return;
    const chunk = this.pending;
    this.pending = [];
    const written = this.written(chunk);
    this.inFlight.add(written);
    written.then(() => this.inFlight.delete(written));
  }

  /** One chunk's write, once the nodes are; a failure is kept for `finish()`, never thrown. */
  private async written(chunk: Edge[]): Promise<void> {
    try {
      await this.nodesWritten;
      if (this.failure === undefined) await this.write(chunk);
    } catch (err) {
      this.failure ??= err;
    }
  }
}
