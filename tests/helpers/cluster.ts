/**
 * A real FalkorDB cluster for tests: three redis-server (or valkey-server) primaries from the
 * embedded bundle, each with `--cluster-enabled yes` and the FalkorDB module, on free loopback
 * ports. The cluster is formed with raw commands (CLUSTER ADDSLOTSRANGE, CLUSTER MEET), so no
 * redis-cli/valkey-cli is needed: the bundle has only the server.
 */
import { freePort, poll } from "../../src/db/proc.ts";
import { Children } from "./children.ts";
import { bundledBinaries } from "./db.ts";

export interface ClusterNode {
  port: number;
  pid: number;
  /** The slot range it serves (inclusive). */
  slots: [number, number];
  /** Kills it (SIGKILL) and waits for the process to end. */
  kill(): Promise<void>;
  /** Starts it again on its port with its data (append-only file) and cluster config. */
  restart(): Promise<void>;
}

export interface TestCluster {
  nodes: ClusterNode[];
  /** A URL naming the first node (the client discovers the others). */
  url: string;
  stop(): Promise<void>;
}

/** One command over a fresh connection, in RESP; the reply as text (arrays flattened by lines). */
export async function rawCommand(port: number, args: string[]): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    const enc = new TextEncoder();
    let msg = `*${args.length}\r\n`;
    for (const a of args) msg += `$${enc.encode(a).length}\r\n${a}\r\n`;
    await conn.write(enc.encode(msg));
    const buf = new Uint8Array(1 << 16);
    let text = "";
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline) {
      const n = await conn.read(buf);
      if (n === null) break;
      text += new TextDecoder().decode(buf.subarray(0, n));
      if (complete(text)) break;
    }
    return text;
  } finally {
    conn.close();
  }
}

/** Whether a RESP reply is whole (enough for the simple and bulk replies used here). */
function complete(text: string): boolean {
  if (/^[+\-:]/.test(text)) return text.endsWith("\r\n");
  const m = /^\$(-?\d+)\r\n/.exec(text);
  if (m) return Number(m[1]) < 0 || text.length >= m[0].length + Number(m[1]) + 2;
  return text.endsWith("\r\n");
}

const SLOTS = 16384;

export async function startCluster(count = 3): Promise<TestCluster> {
  const bins = await bundledBinaries();
  const dir = await Deno.makeTempDir({ prefix: "cgraph-cluster-" });
  const nodes: ClusterNode[] = [];
  const children = new Children(dir);
  const stop = children.stop;

  try {
    for (let i = 0; i < count; i++) {
      const port = freePort();
      const nodeDir = `${dir}/n${i}`;
      await Deno.mkdir(nodeDir);
      const spawn = async () => {
        const child = children.spawn(bins.server, [
          "--port",
          String(port),
          "--bind",
          "127.0.0.1",
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          `${nodeDir}/nodes.conf`,
          "--cluster-node-timeout",
          "2000",
          // A dead primary fails its own slots only (the default stops the whole cluster).
          "--cluster-require-full-coverage",
          "no",
          "--save",
          "",
          "--appendonly",
          "yes",
          "--appendfsync",
          "always",
          "--dir",
          nodeDir,
          "--loadmodule",
          bins.module,
        ]);
        const up = await poll(
          async () =>
            (await rawCommand(port, ["PING"]).catch(() => "")).startsWith("+PONG") || undefined,
          15_000,
          50,
        );
        if (!up) throw new Error(`cluster node on port ${port} did not start`);
        return child;
      };
      let child = await spawn();
      const from = Math.floor((SLOTS * i) / count);
      const to = Math.floor((SLOTS * (i + 1)) / count) - 1;
      nodes.push({
        port,
        get pid() {
          return child.pid;
        },
        slots: [from, to],
        async kill() {
          try {
            child.kill("SIGKILL");
          } catch {
            // already gone
          }
          await child.status;
        },
        async restart() {
          child = await spawn();
        },
      });
    }
    for (const n of nodes) {
      const r = await rawCommand(n.port, [
        "CLUSTER",
        "ADDSLOTSRANGE",
        String(n.slots[0]),
        String(n.slots[1]),
      ]);
      if (!r.startsWith("+OK")) throw new Error(`CLUSTER ADDSLOTSRANGE on ${n.port}: ${r}`);
    }
    for (const n of nodes.slice(1)) {
      const r = await rawCommand(nodes[0].port, ["CLUSTER", "MEET", "127.0.0.1", String(n.port)]);
      if (!r.startsWith("+OK")) throw new Error(`CLUSTER MEET ${n.port}: ${r}`);
    }
    const ok = await poll(
      async () => {
        for (const n of nodes) {
          const info = await rawCommand(n.port, ["CLUSTER", "INFO"]).catch(() => "");
          if (
            !info.includes("cluster_state:ok") || !info.includes(`cluster_known_nodes:${count}`)
          ) {
            return undefined;
          }
        }
        return true;
      },
      30_000,
      100,
    );
    if (!ok) throw new Error("the test cluster did not reach cluster_state:ok");
    return { nodes, url: `redis://127.0.0.1:${nodes[0].port}`, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The hash slot of a key (CRC16/XMODEM of its hash tag or whole name, mod 16384). */
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
  return crc % SLOTS;
}
