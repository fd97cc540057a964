/**
 * The one connection to FalkorDB. Every call has a deadline (a dead server otherwise makes the
 * client wait forever), and every failure becomes a CgraphError that names the address and a fix.
 *
 * A single server (or the primary the Sentinels name) is spoken to over our own RESP connection
 * (redis.ts); graph replies are parsed by falkordb's Graph class (graph.ts). A Redis Cluster goes
 * through cluster.ts, which loads @redis/client: only then, so no other command pays for loading it.
 */
import { CgraphError } from "../errors.ts";
import type { ClusterBackend } from "./cluster.ts";
// Thrown by the cluster backend; defined apart so cluster.ts need not import this module.
export { ShardUnavailableError } from "./shard_error.ts";
import { address, type Endpoint } from "./config.ts";
import { type Graph, graphOver } from "./graph.ts";
import { ConnectionLostError, RedisConnection, ReplyError } from "./redis.ts";
import { type Arg, deadline, NoAnswerError } from "./resp.ts";

export { deadline };

export type Params = Record<string, unknown>;
export type Row = Record<string, unknown>;

export interface QueryOptions {
  /** Run as GRAPH.RO_QUERY: the database itself refuses any write. */
  readOnly?: boolean;
  /** Our own deadline for the round trip, in ms. */
  timeoutMs?: number;
  /** FalkorDB's server-side TIMEOUT (applies to reads only). */
  serverTimeoutMs?: number;
}

/** Default deadlines: reads are interactive, writes may be large UNWIND batches. */
export const READ_TIMEOUT_MS = envNumber("CGRAPH_READ_TIMEOUT_MS", 15_000);
export const WRITE_TIMEOUT_MS = envNumber("CGRAPH_WRITE_TIMEOUT_MS", 120_000);
const CONNECT_TIMEOUT_MS = envNumber("CGRAPH_CONNECT_TIMEOUT_MS", 5_000);

function envNumber(name: string, fallback: number): number {
  const n = Number(Deno.env.get(name));
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

/** TYPE's answers for keys that are not a module's (a graph is FalkorDB's `graphdata`). */
const PLAIN_TYPES = new Set(["none", "string", "list", "set", "zset", "hash", "stream"]);

/** What one listing of graphs found: the names, and the cluster nodes that did not answer. */
export interface GraphListing {
  names: string[];
  unreachable: string[];
}

export class Db {
  #closed = false;
  #closedBy: CgraphError | undefined;
  #lastError: string | undefined;

  private constructor(
    private readonly conn: RedisConnection | undefined,
    private readonly cluster: ClusterBackend | undefined,
    readonly endpoint: Endpoint,
  ) {
    if (conn) conn.onLost = (err) => this.#lastError = err.message;
  }

  /** True on a Redis Cluster (every key of a project lives on the shard of its hash tag). */
  get isCluster(): boolean {
    return this.cluster !== undefined;
  }

  /** Connects or throws a CgraphError naming the address; never waits longer than the deadline. */
  static async connect(endpoint: Endpoint, timeoutMs = CONNECT_TIMEOUT_MS): Promise<Db> {
    try {
      const conn = await open(endpoint, endpoint, timeoutMs);
      const info = await ask(conn, ["INFO", "server"], timeoutMs);
      if (/redis_mode:cluster/.test(String(info))) {
        await conn.close();
        return await Db.#connectCluster(endpoint, timeoutMs);
      }
      if (/redis_mode:sentinel/.test(String(info))) {
        // A Sentinel itself, as the falkordb client allowed: the one primary it monitors.
        return new Db(await sentinelsPrimary(conn, endpoint, timeoutMs), undefined, endpoint);
      }
      return new Db(conn, undefined, endpoint);
    } catch (err) {
      throw err instanceof CgraphError ? err : unreachable(endpoint, messageOf(err));
    }
  }

  /** A cluster: our own routing client over @redis/client (see cluster.ts), loaded only here. */
  static async #connectCluster(endpoint: Endpoint, timeoutMs: number): Promise<Db> {
    const { ClusterBackend } = await import("./cluster.ts");
    let lastError: string | undefined;
    const cluster = await deadline(
      ClusterBackend.connect(endpoint, timeoutMs, (err) => lastError = err.message),
      timeoutMs + 1000,
      () => unreachable(endpoint, `no answer within ${timeoutMs} ms`),
    ).catch((err) => {
      throw err instanceof CgraphError ? err : unreachable(endpoint, lastError ?? messageOf(err));
    });
    return new Db(undefined, cluster, endpoint);
  }

  get address(): string {
    return address(this.endpoint);
  }

  /** True once close() was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Runs Cypher on a graph; returns rows as objects keyed by the RETURN aliases. */
  async query(
    graph: string,
    cypher: string,
    params?: Params,
    opts: QueryOptions = {},
  ): Promise<Row[]> {
    const g = await this.#graph(graph);
    const options = { params: params as never, TIMEOUT: opts.serverTimeoutMs };
    const ms = opts.timeoutMs ?? (opts.readOnly ? READ_TIMEOUT_MS : WRITE_TIMEOUT_MS);
    const reply = await this.#call(
      () => opts.readOnly ? g.roQuery<Row>(cypher, options) : g.query<Row>(cypher, options),
      ms,
    );
    return (reply.data ?? []) as Row[];
  }

  /**
   * A raw Redis command (HGETALL, SET, GRAPH.BULK, ...), with the same deadline and error mapping.
   * An argument may be bytes (sent as they are); the key (the second argument) is text.
   */
  async command<T = unknown>(args: readonly Arg[], timeoutMs = READ_TIMEOUT_MS): Promise<T> {
    const cluster = this.cluster;
    if (cluster) return await this.#call(() => cluster.command<T>(args), timeoutMs);
    const conn = this.conn!;
    return await this.#call(() => conn.send(args) as Promise<T>, timeoutMs);
  }

  /**
   * Whether a graph exists: one command on the shard that would hold it (GRAPH.LIST asks every
   * shard). A key of a plain Redis type under that name is not a graph.
   */
  async graphExists(graph: string): Promise<boolean> {
    const type = String(await this.command<string>(["TYPE", graph]));
    return !PLAIN_TYPES.has(type);
  }

  /** Whether a key of any type exists. */
  async exists(key: string): Promise<boolean> {
    return Number(await this.command<number>(["EXISTS", key])) > 0;
  }

  async hashGetAll(key: string): Promise<Record<string, string>> {
    const flat = await this.command<string[] | Record<string, string>>(["HGETALL", key]);
    if (!Array.isArray(flat)) return { ...flat };
    const out: Record<string, string> = {};
    for (let i = 0; i + 1 < flat.length; i += 2) out[String(flat[i])] = String(flat[i + 1]);
    return out;
  }

  async hashSet(key: string, fields: Record<string, string>): Promise<void> {
    const entries = Object.entries(fields);
    if (entries.length === 0) return;
    // Large hash maps go in chunks so one command never carries megabytes.
    for (let i = 0; i < entries.length; i += 5000) {
      await this.command(["HSET", key, ...entries.slice(i, i + 5000).flat()], WRITE_TIMEOUT_MS);
    }
  }

  /** Names of all graphs on the server (on a cluster: on the nodes that answered). */
  async listGraphs(): Promise<string[]> {
    return (await this.listGraphsReport()).names;
  }

  /** Names of all graphs, and on a cluster the primaries that did not answer. */
  async listGraphsReport(): Promise<GraphListing> {
    const cluster = this.cluster;
    if (cluster) return await this.#call(() => cluster.listGraphs(3000), READ_TIMEOUT_MS);
    const conn = this.conn!;
    const names = await this.#call(() => conn.send(["GRAPH.LIST"]), READ_TIMEOUT_MS);
    return { names: (names as unknown[]).map(String), unreachable: [] };
  }

  async deleteGraph(graph: string): Promise<void> {
    if (await this.graphExists(graph)) {
      const g = await this.#graph(graph);
      await this.#call(() => g.delete(), WRITE_TIMEOUT_MS);
    }
  }

  #graph(name: string): Promise<Graph> {
    if (this.cluster) return this.cluster.graph(name);
    const conn = this.conn!;
    return graphOver(name, (args) => conn.send(args));
  }

  /**
   * Closes the connection. `reason`: what a call made on this Db from now on answers (the
   * connection was given up for a reason the caller should hear, not closed by its owner).
   */
  async close(reason?: CgraphError): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#closedBy = reason;
    try {
      const closing = this.cluster ? this.cluster.close() : this.conn!.close();
      await deadline(closing, 2000, () => new Error("close timed out"));
    } catch {
      // Closing a dead connection: nothing to save.
    }
  }

  async #call<T>(fn: () => Promise<T>, ms: number): Promise<T> {
    if (this.#closed) {
      throw this.#closedBy ??
        new DbUnavailableError("internal: the database connection was already closed");
    }
    try {
      return await deadline(fn(), ms, () => this.#lost(`no answer within ${ms} ms`));
    } catch (err) {
      // Given up while this call ran (the Sentinels moved the primary): say why.
      if (this.#closedBy) throw this.#closedBy;
      if (err instanceof CgraphError) throw err;
      const msg = messageOf(err);
      if (
        err instanceof ConnectionLostError ||
        // the cluster's client (@redis/client) says so in words
        (!(err instanceof ReplyError) &&
          /client is closed|socket closed|connection|ECONN|EPIPE|not connected/i.test(msg))
      ) {
        throw this.#lost(this.#lastError ?? msg);
      }
      const sentinel = this.endpoint.sentinel;
      if (sentinel && /^READONLY/.test(msg)) {
        // A demoted primary: drop this connection; the next call asks the Sentinels again.
        const demoted = new DbUnavailableError(
          `FalkorDB at ${this.address} is no longer the primary of '${sentinel.master}' ` +
            `(it answered: ${msg})`,
          "The Sentinels failed over to another server: try again, cgraph connects to the new " +
            "primary at the next call.",
        );
        await this.close(demoted);
        throw demoted;
      }
      throw new DbQueryError(msg);
    }
  }

  #lost(why: string): CgraphError {
    const sentinel = this.endpoint.sentinel;
    if (sentinel) {
      return new DbUnavailableError(
        `The FalkorDB primary of '${sentinel.master}' at ${this.address} stopped answering: ${why}`,
        "cgraph asks the Sentinels for the primary again at the next call (a failover takes a " +
          "few seconds); 'cgraph db status' shows what they say.",
      );
    }
    return new DbUnavailableError(
      `FalkorDB at ${this.address} (${this.endpoint.origin}) stopped answering: ${why}`,
      "Check that the server is running ('cgraph db status'), then try again.",
    );
  }
}

/** The database cannot be reached or stopped answering: the connection is of no further use. */
export class DbUnavailableError extends CgraphError {
  constructor(message: string, hint?: string) {
    super(message, hint);
    this.name = "DbUnavailableError";
  }
}

/** The database answered, but refused the query (syntax error, read-only violation, timeout...). */
export class DbQueryError extends CgraphError {
  constructor(message: string) {
    super(message);
    this.name = "DbQueryError";
  }
}

/** Our connection to `at` (AUTH with the endpoint's credentials), within the deadline. */
function open(at: { host: string; port: number }, ep: Endpoint, timeoutMs: number) {
  return RedisConnection.connect({
    host: at.host,
    port: at.port,
    tls: ep.tls ?? false,
    username: ep.username,
    password: ep.password,
  }, timeoutMs);
}

/** One command's reply within the deadline; the connection is closed if it fails. */
async function ask(conn: RedisConnection, args: string[], timeoutMs: number): Promise<unknown> {
  try {
    return await deadline(
      conn.send(args),
      timeoutMs,
      () => new NoAnswerError(`no answer within ${timeoutMs} ms`),
    );
  } catch (err) {
    await conn.close();
    throw err;
  }
}

/**
 * `conn` is to a Sentinel: a connection to the one primary it monitors (SENTINEL MASTERS), with the
 * same credentials. Several primaries: which one is for FALKORDB_SENTINEL_MASTER to say.
 */
async function sentinelsPrimary(
  conn: RedisConnection,
  ep: Endpoint,
  timeoutMs: number,
): Promise<RedisConnection> {
  const masters = await ask(conn, ["SENTINEL", "MASTERS"], timeoutMs);
  await conn.close();
  const fields = (Array.isArray(masters) ? masters : []).map((m) => {
    const out: Record<string, string> = {};
    for (let i = 0; Array.isArray(m) && i + 1 < m.length; i += 2) {
      out[String(m[i])] = String(m[i + 1]);
    }
    return out;
  });
  if (fields.length !== 1 || !fields[0].ip || !fields[0].port) {
    throw new CgraphError(
      `${address(ep)} (${ep.origin}) is a Redis Sentinel that monitors ${
        fields.length === 0 ? "no primary" : `${fields.length} primaries`
      }`,
      "Set FALKORDB_SENTINELS to the Sentinels and FALKORDB_SENTINEL_MASTER to the primary's " +
        "name, instead of pointing cgraph at one Sentinel.",
    );
  }
  return await open({ host: fields[0].ip, port: Number(fields[0].port) }, ep, timeoutMs);
}

function unreachable(ep: Endpoint, why: string): CgraphError {
  const fix = ep.origin.startsWith("FALKORDB")
    ? `Start FalkorDB there, or fix ${ep.origin}; unset it to let cgraph start its own server.`
    : "Run 'cgraph db status' to see what cgraph tried.";
  return new DbUnavailableError(
    `Cannot reach FalkorDB at ${address(ep)} (${ep.origin}): ${why}`,
    fix,
  );
}

function messageOf(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length) return messageOf(err.errors[0]);
  return err instanceof Error ? err.message || err.name : String(err);
}
