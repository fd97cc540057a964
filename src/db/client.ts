/**
 * The one connection to FalkorDB. Every call has a deadline (a dead server otherwise makes the
 * client wait forever), and every failure becomes a CgraphError that names the address and a fix.
 */
import { FalkorDB } from "falkordb";
import { CgraphError } from "../errors.ts";
import { address, type Endpoint } from "./config.ts";

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

export class Db {
  #closed = false;
  #lastError: string | undefined;

  private constructor(private readonly client: FalkorDB, readonly endpoint: Endpoint) {
    client.on("error", (err: Error) => {
      this.#lastError = err.message;
    });
  }

  /** Connects or throws a CgraphError naming the address; never waits longer than the deadline. */
  static async connect(endpoint: Endpoint, timeoutMs = CONNECT_TIMEOUT_MS): Promise<Db> {
    const options = {
      socket: {
        host: endpoint.host,
        port: endpoint.port,
        tls: endpoint.tls ?? false,
        connectTimeout: timeoutMs,
        reconnectStrategy: false,
      },
      username: endpoint.username,
      password: endpoint.password,
      disableOfflineQueue: true,
      disableClientInfo: true,
    };
    let client: FalkorDB;
    try {
      client = await deadline(
        // deno-lint-ignore no-explicit-any
        FalkorDB.connect(options as any),
        timeoutMs + 1000,
        () => unreachable(endpoint, `no answer within ${timeoutMs} ms`),
      );
    } catch (err) {
      throw err instanceof CgraphError ? err : unreachable(endpoint, messageOf(err));
    }
    return new Db(client, endpoint);
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
    const g = this.client.selectGraph(graph);
    const options = { params: params as never, TIMEOUT: opts.serverTimeoutMs };
    const ms = opts.timeoutMs ?? (opts.readOnly ? READ_TIMEOUT_MS : WRITE_TIMEOUT_MS);
    const reply = await this.#call(
      () => opts.readOnly ? g.roQuery<Row>(cypher, options) : g.query<Row>(cypher, options),
      ms,
    );
    return (reply.data ?? []) as Row[];
  }

  /** A raw Redis command (HGETALL, SET, ...), with the same deadline and error mapping. */
  async command<T = unknown>(args: string[], timeoutMs = READ_TIMEOUT_MS): Promise<T> {
    const conn = await this.#call(() => this.client.connection, timeoutMs);
    return await this.#call(() => conn.sendCommand(args) as Promise<T>, timeoutMs);
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

  /** Names of all graphs on the server. */
  async listGraphs(): Promise<string[]> {
    return await this.#call(() => this.client.list(), READ_TIMEOUT_MS);
  }

  async deleteGraph(graph: string): Promise<void> {
    const exists = (await this.listGraphs()).includes(graph);
    if (exists) await this.#call(() => this.client.selectGraph(graph).delete(), WRITE_TIMEOUT_MS);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await deadline(this.client.close(), 2000, () => new Error("close timed out"));
    } catch {
      // Closing a dead connection: nothing to save.
    }
  }

  async #call<T>(fn: () => Promise<T>, ms: number): Promise<T> {
    if (this.#closed) {
      throw new DbUnavailableError("internal: the database connection was already closed");
    }
    try {
      return await deadline(fn(), ms, () => this.#lost(`no answer within ${ms} ms`));
    } catch (err) {
      if (err instanceof CgraphError) throw err;
      const msg = messageOf(err);
      if (/client is closed|socket closed|connection|ECONN|EPIPE|not connected/i.test(msg)) {
        throw this.#lost(this.#lastError ?? msg);
      }
      throw new DbQueryError(msg);
    }
  }

  #lost(why: string): CgraphError {
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

/** Resolves or rejects like `p`, or rejects with `onTimeout()` after `ms`. */
export function deadline<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
