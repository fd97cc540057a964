/**
 * FalkorDB on a Redis Cluster (valkey or redis-server with `--cluster-enabled yes` and the module).
 *
 * The falkordb client detects a cluster, but its graph commands carry no key for routing (each
 * goes to a random node and follows MOVED), so one dead primary fails queries on every shard. Here
 * every command goes to the shard that owns its key: graph queries by the graph name, raw commands
 * by their first key (EVAL: the first of KEYS). The falkordb Graph class still parses replies.
 * This module (and @redis/client with it) is loaded only once a server answers in cluster mode.
 * Node connections are opened on first use and reconnect in the background; while a primary is
 * down, commands for its slots fail at once with a ShardUnavailableError naming it, and every other
 * shard keeps answering.
 */
import { Buffer } from "node:buffer";
import { createCluster } from "@redis/client";
import type { Arg } from "./resp.ts";
import { ShardUnavailableError } from "./shard_error.ts";
import type { Endpoint } from "./config.ts";
import { type Graph, graphOver } from "./graph.ts";

export { ShardUnavailableError };

/** The slot of a key: CRC16 (XMODEM) of its hash tag (or whole name) mod 16384, as Redis does. */
export function keySlot(key: string): number {
  const open = key.indexOf("{");
  if (open >= 0) {
    const close = key.indexOf("}", open + 1);
    if (close > open + 1) key = key.slice(open + 1, close);
  }
  let crc = 0;
  for (const byte of new TextEncoder().encode(key)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc % 16384;
}

/** Commands that name no key (sent to any primary that answers). */
const KEYLESS = new Set([
  "PING",
  "INFO",
  "MODULE",
  "CLUSTER",
  "CONFIG",
  "SHUTDOWN",
  "GRAPH.LIST",
  "GRAPH.CONFIG",
  "COMMAND",
  "DBSIZE",
]);

/** The key a command is routed by, or undefined for a command that names none. */
export function routingKey(args: readonly Arg[]): string | undefined {
  const text = (i: number) => typeof args[i] === "string" ? args[i] as string : undefined;
  const name = text(0)?.toUpperCase();
  if (!name || KEYLESS.has(name)) return undefined;
  if (name === "EVAL" || name === "EVALSHA" || name === "FCALL") {
    return Number(text(2)) > 0 ? text(3) : undefined;
  }
  return text(1);
}

/** Arguments as @redis/client takes them: bytes as Buffers. */
function wire(args: readonly Arg[]): (string | Buffer)[] {
  return args.map((a) => typeof a === "string" ? a : Buffer.from(a.buffer, a.byteOffset, a.length));
}

// deno-lint-ignore no-explicit-any
type AnyCluster = any;

export class ClusterBackend {
  private constructor(private readonly cluster: AnyCluster) {}

  static async connect(
    ep: Endpoint,
    timeoutMs: number,
    onError: (err: Error) => void,
  ): Promise<ClusterBackend> {
    const socket = { connectTimeout: timeoutMs, tls: ep.tls ?? false };
    const cluster = createCluster({
      rootNodes: [{ socket: { host: ep.host, port: ep.port, tls: ep.tls ?? false } }],
      defaults: {
        username: ep.username,
        password: ep.password,
        disableOfflineQueue: true,
        disableClientInfo: true,
        // A node connection that fails stays closed; the next command for its slots dials again
        // (see #send), so a dead primary fails fast and a restarted one is used at once.
        socket: { ...socket, reconnectStrategy: false },
      },
      // Connect to a node when a command needs it, so one dead primary does not stop the rest.
      minimizeConnections: true,
      maxCommandRedirections: 16,
      // deno-lint-ignore no-explicit-any
    } as any);
    cluster.on("error", onError);
    cluster.on("node-error", () => {});
    await cluster.connect();
    return new ClusterBackend(cluster);
  }

  /** The address of the primary that owns a key, for messages. */
  ownerOf(key: string): string {
    try {
      const shard = this.cluster.slots[keySlot(key)];
      return shard?.master?.address ?? "unknown node";
    } catch {
      return "unknown node";
    }
  }

  /** A falkordb Graph whose commands go to the shard owning `name`. */
  graph(name: string): Promise<Graph> {
    return graphOver(name, (args, readOnly) => this.#send(args[1], readOnly, args));
  }

  async command<T>(args: readonly Arg[]): Promise<T> {
    const key = routingKey(args);
    if (key !== undefined) return await this.#send(key, false, wire(args)) as T;
    // No key: the first primary that answers.
    let last: unknown;
    for (const master of this.cluster.masters) {
      try {
        redialNode(master);
        const client = await this.cluster.nodeClient(master);
        return await client.sendCommand(wire(args)) as T;
      } catch (err) {
        last = err;
      }
    }
    throw last ?? new Error("no cluster node answered");
  }

  /** GRAPH.LIST of every primary; the ones that do not answer are named, not fatal. */
  async listGraphs(timeoutMs: number): Promise<{ names: string[]; unreachable: string[] }> {
    const names: string[] = [];
    const unreachable: string[] = [];
    await Promise.all(
      this.cluster.masters.map(async (master: { address: string }) => {
        try {
          redialNode(master);
          const client: AnyCluster = await withDeadline(this.cluster.nodeClient(master), timeoutMs);
          const list = await withDeadline(client.sendCommand(["GRAPH.LIST"]), timeoutMs);
          names.push(...(list as string[]).map(String));
        } catch {
          unreachable.push(master.address);
        }
      }),
    );
    return { names, unreachable: unreachable.sort() };
  }

  async close(): Promise<void> {
    await this.cluster.close();
  }

  async #send(key: string, readOnly: boolean, args: (string | Buffer)[]): Promise<unknown> {
    this.#redial(key);
    try {
      return await this.cluster.sendCommand(key, readOnly, args);
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      if (/^CLUSTERDOWN/.test(msg)) {
        throw new ShardUnavailableError(
          `The FalkorDB cluster refuses ${key} (slot ${keySlot(key)}, node ${
            this.ownerOf(key)
          }): ${msg}`,
          "A primary is down and the cluster requires full slot coverage: restart it, or set 'cluster-require-full-coverage no' on the nodes so the other shards keep answering.",
        );
      }
      if (/offline|client is closed|socket closed|ECONN|EPIPE|connection/i.test(msg)) {
        throw new ShardUnavailableError(
          `The FalkorDB cluster node ${this.ownerOf(key)} that holds ${key} (slot ${
            keySlot(key)
          }) is not answering: ${msg}`,
          "Projects on the other nodes still answer. Restart that node (or fail over to a replica), then try again.",
        );
      }
      throw err;
    }
  }

  /** Forgets the closed connection to the primary of a key's slot, so the next use dials again. */
  #redial(key: string): void {
    try {
      redialNode(this.cluster.slots[keySlot(key)]?.master);
    } catch {
      // no slot map yet: the cluster client discovers it
    }
  }
}

// deno-lint-ignore no-explicit-any
function redialNode(node: any): void {
  if (node?.client && !node.client.isOpen && !node.connectPromise) node.client = undefined;
}

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
