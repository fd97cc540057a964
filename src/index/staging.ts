/**
 * The first half of a full index's write, done while files are still being parsed: the staging
 * graph is cleared and indexed, and each file's node, its symbols and its hash and facts are
 * written in batches as its facts arrive. Parsing keeps the cores busy and this thread idle, so
 * nothing is left for after parsing but the edges; and those, with each file's edge caches, are
 * written while the next files are resolved (`EdgeStream`, `EdgeCacheStream`).
 */
import type { Db } from "../db/client.ts";
import type { FileFacts } from "../graph/facts.ts";
import {
  type Edge,
  type FileNode,
  fileNode,
  type SymbolNode,
  symbolNodes,
} from "../graph/model.ts";
import {
  type FactsLayout,
  LayoutRecorder,
  SEGMENT_FILES,
  SegmentPacker,
  unpackSegment,
} from "./facts_store.ts";
import { edgeDigest, encodeEdgeList } from "./graph_info.ts";
import { GraphWriter } from "./writer.ts";
import { nextTurn } from "./turn.ts";

/** Files per batch of hashes and facts: one stored segment (facts_store.ts). */
const BATCH = SEGMENT_FILES;
/**
 * Files per write of nodes (the file and its definitions): small enough that the last files'
 * nodes are written while parsing still keeps this thread idle, not when resolution has it busy
 * (a write goes on only while resolution yields, so one late batch of a few hundred files held
 * every edge back by a few hundred ms), large enough to amortise a round trip.
 */
const NODE_FILES = 50;
/** Edges per write while resolution goes on: a round trip's worth, small enough to start early. */
const EDGE_CHUNK = 1500;
/**
 * Chunks of edges unanswered by the database while resolution goes on. When the database is the
 * slower, resolution waits for it: edges queued faster than they are written would be held
 * (hundreds of thousands at 10,000 files) until the end.
 */
const IN_FLIGHT = 4;
/** Files per write of the edge caches (tens of MB on 10,000 files, so never all at once). */
const CACHE_SLICE = 500;

/**
 * Items gathered into batches, each written after the one before, off the caller's path: the
 * first failure skips the rest and is kept for `finish()`, never left unhandled.
 */
class Batches<T> {
  private pending: T[] = [];
  private chain: Promise<void>;
  private failure: unknown;
  /** Batches handed to the writer and not written yet, and who waits for fewer. */
  private unwritten = 0;
  private waiting: (() => void)[] = [];

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

  /** Resolves once at most `max` batches wait to be written (at once when so already). */
  async room(max: number): Promise<void> {
    while (this.unwritten > max) await new Promise<void>((r) => this.waiting.push(r));
  }

  private flush(): void {
    if (!this.pending.length) return;
    const batch = this.pending;
    this.pending = [];
    this.unwritten++;
    this.chain = this.chain.then(() => this.guard(() => this.write(batch))).then(() => {
      this.unwritten--;
      const waiting = this.waiting;
      this.waiting = [];
      for (const wake of waiting) wake();
    });
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

/** A batch of files ready to be written: their facts as stored, their segment. */
interface Sealed {
  stored: FileFacts[];
  segment: string;
}

/** One file's nodes: its own and its definitions'. */
interface Nodes {
  file: FileNode;
  symbols: SymbolNode[];
}

export class StagingStream {
  /** Nodes, a few files at a time. */
  private readonly nodes: Batches<Nodes>;
  /** Hashes and facts, a stored segment at a time. */
  private readonly batches: Batches<Sealed>;
  readonly #segments = new LayoutRecorder();
  /** The files added since the last batch, packed as they come (their facts are not held). */
  private pending = new SegmentPacker();
  /** Every file's facts as their stored segment reads them back (facts_store.ts), by path. */
  private readonly stored = new Map<string, FileFacts>();
  /**
   * Per file, the internal ids of the nodes written for it: its own, then its definitions' in the
   * order of its facts (`symbolNodes`). Edges join them by these (writer.ts `edgesById`).
   */
  private readonly ids = new Map<string, Float64Array>();
  private readonly writer: GraphWriter;
  /** Every node written and their ids checked (see `nodesWritten`), once asked for. */
  #nodesWritten?: Promise<void>;

  /**
   * @param graph the staging graph; `hashes` and `facts` are the staging keys of the file-hash
   *   and facts caches. Everything at these keys is removed first.
   */
  constructor(db: Db, graph: string, hashes: string, facts: string, clearKeys: string[]) {
    const writer = this.writer = new GraphWriter(db, graph);
    const cleared = (async () => {
      await db.deleteGraph(graph);
      await db.command(["DEL", ...clearKeys]);
      await writer.createIndexes();
    })();
    // The graph is new and only these batches create its nodes: numbered in order (writer.ts).
    this.nodes = new Batches<Nodes>(() => cleared, NODE_FILES, async (batch) => {
      const { files, symbols } = await writer.nodesInOrder(
        batch.map((n) => n.file),
        batch.flatMap((n) => n.symbols),
      );
      let at = 0;
      batch.forEach((n, i) => {
        const ids = new Float64Array(n.symbols.length + 1);
        ids[0] = files[i];
        for (let k = 0; k < n.symbols.length; k++) ids[k + 1] = symbols[at++];
        this.ids.set(n.file.path, ids);
      });
    });
    this.batches = new Batches<Sealed>(
      () => cleared,
      1,
      async ([{ stored, segment }]) => {
        await db.hashSet(hashes, Object.fromEntries(stored.map((f) => [f.path, f.hash])));
        const field = this.#segments.next(stored.map((f) => f.path));
        await db.hashSet(facts, { [field]: segment });
      },
    );
  }

  /** Which segment holds each file's facts, as written. */
  get layout(): FactsLayout {
    return this.#segments.layout;
  }

  /** Queues one file's facts; a full batch starts writing without waiting for the caller. */
  add(f: FileFacts): void {
    // Its nodes now: what waits for the database holds nothing of the facts as parsed.
    this.nodes.add([{ file: fileNode(f), symbols: symbolNodes(f) }]);
    this.pending.add(f);
    if (this.pending.size >= BATCH) this.seal();
  }

  /**
   * The facts of every file added, in the order of `paths`, as their packed segment reads them
   * back: equal to those added, but a third of their size, the calls, imports, inheritance and
   * hints of each decoded only when read (and again after `FactsStore.release`). What was added
   * is no longer held once written.
   */
  facts(paths: Iterable<string>): FileFacts[] {
    this.seal();
    const out: FileFacts[] = [];
    for (const p of paths) {
      const f = this.stored.get(p);
      if (f) out.push(f);
    }
    this.stored.clear();
    return out;
  }

  /**
   * Writes the nodes still queued, waits for every node write (the edges' ends) and checks their
   * ids (writer.ts `checkNodeIds`); rethrows the first failure. The hashes and facts may still be
   * on their way.
   */
  nodesWritten(): Promise<void> {
    return this.#nodesWritten ??= this.nodes.finish().then(() => this.writer.checkNodeIds());
  }

  /**
   * The internal id of a node written for file `path` (`index` -1: the file's own, else its
   * definition's at that index), once `nodesWritten` resolved.
   */
  nodeId(path: string, index: number): number | undefined {
    return this.ids.get(path)?.[index + 1];
  }

  /** Writes what is queued and waits for every write; rethrows the first failure. */
  async finish(): Promise<void> {
    this.seal();
    // Both are waited for, whichever fails first.
    const [nodes, rest] = await Promise.allSettled([this.nodesWritten(), this.batches.finish()]);
    if (nodes.status === "rejected") throw nodes.reason;
    if (rest.status === "rejected") throw rest.reason;
  }

  /**
   * Ends the segment of the files added since the last batch (each packed as it came), and queues
   * its write: what waits for the database holds nothing of the facts as parsed, only what their
   * segment reads back and the files' nodes.
   */
  private seal(): void {
    if (!this.pending.size) return;
    const segment = this.pending.pack();
    this.pending = new SegmentPacker();
    const stored = unpackSegment(segment);
    for (const f of stored) this.stored.set(f.path, f);
    this.batches.add([{ stored, segment }]);
  }
}

/**
 * The second half: each file's edges written while the next files are resolved, after the nodes
 * they join (`nodesWritten`). A full chunk's
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
    else await nextTurn();
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

/**
 * The edge caches (graph_info.ts) written as files are resolved: each file's edge list and digest
 * computed from its edges as they come, a slice of files per write, so no file's edges are kept.
 * The digests are kept (the run's state returns them).
 */
export class EdgeCacheStream {
  private readonly batches: Batches<[string, string, string]>;
  readonly digests: Record<string, string> = {};

  /**
   * @param cleared the keys are cleared (StagingStream's first step); `digestsKey` and `listsKey`
   *   are the staging keys of the edge digests and the edge lists.
   */
  constructor(
    db: Db,
    cleared: Promise<void>,
    digestsKey: string,
    listsKey: string,
    private readonly pathOf: (id: string) => string | undefined,
  ) {
    this.batches = new Batches<[string, string, string]>(
      () => cleared,
      CACHE_SLICE,
      async (slice) => {
        await db.hashSet(listsKey, Object.fromEntries(slice.map(([p, list]) => [p, list])));
        await db.hashSet(digestsKey, Object.fromEntries(slice.map(([p, , d]) => [p, d])));
      },
    );
  }

  /** One file's edges, all it owns (each file once). */
  async add(path: string, edges: readonly Edge[]): Promise<void> {
    const list = encodeEdgeList(edges);
    const digest = edgeDigest(path, edges, this.pathOf, list);
    this.digests[path] = digest;
    // A slice waits while the one before is still being written (as EdgeStream's chunks do).
    if (this.batches.add([[path, list, digest]])) await this.batches.room(1);
  }

  /** Whether a file's caches were added. */
  has(path: string): boolean {
    return Object.hasOwn(this.digests, path);
  }

  /** Writes what is queued and waits for every write; rethrows the first failure. */
  finish(): Promise<void> {
    return this.batches.finish();
  }
}
