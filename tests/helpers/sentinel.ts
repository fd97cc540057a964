/**
 * A real Sentinel-managed FalkorDB for tests: one primary and one replica (the bundle's server
 * with the FalkorDB module, the replica started with `--replicaof`) and one Sentinel
 * (`redis-server sentinel.conf --sentinel`, quorum 1, short `down-after-milliseconds` and
 * `failover-timeout`), all children of this process on free loopback ports.
 */
import { freePort, poll } from "../../src/db/proc.ts";
import { Children } from "./children.ts";
import { rawCommand } from "./cluster.ts";
import { bundledBinaries } from "./db.ts";

export interface SentinelNode {
  port: number;
  /** Kills it (SIGKILL) and waits for the process to end. */
  kill(): Promise<void>;
  /** Starts it again on its port, with `extra` arguments (`--replicaof host port`). */
  restart(extra?: string[]): Promise<void>;
}

export interface TestSentinelSetup {
  /** The name the Sentinel monitors. */
  master: string;
  primary: SentinelNode;
  replica: SentinelNode;
  sentinel: SentinelNode;
  /** The primary's address as the Sentinel reports it now ("127.0.0.1:port"), or undefined. */
  currentPrimary(): Promise<string | undefined>;
  stop(): Promise<void>;
}

export async function startSentinelSetup(master = "cgraph-test"): Promise<TestSentinelSetup> {
  const bins = await bundledBinaries();
  const dir = await Deno.makeTempDir({ prefix: "cgraph-sentinel-" });
  const children = new Children(dir);
  const stop = children.stop;

  const spawn = async (args: string[]): Promise<SentinelNode> => {
    const port = Number(args[args.indexOf("--port") + 1]);
    const start = async (extra: string[]) => {
      const child = children.spawn(bins.server, [...args, ...extra]);
      const up = await poll(
        async () =>
          (await rawCommand(port, ["PING"]).catch(() => "")).startsWith("+PONG") || undefined,
        15_000,
        50,
      );
      if (!up) throw new Error(`test server on port ${port} did not start (${args.join(" ")})`);
      return child;
    };
    let child = await start([]);
    return {
      port,
      async restart(extra = []) {
        child = await start(extra);
      },
      async kill() {
        try {
          child.kill("SIGKILL");
        } catch {
          // already gone
        }
        await child.status;
      },
    };
  };
  const dataNode = async (name: string, port: number, extra: string[] = []) => {
    await Deno.mkdir(`${dir}/${name}`);
    return await spawn([
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      `${dir}/${name}`,
      "--loadmodule",
      bins.module,
      ...extra,
    ]);
  };
  try {
    const primary = await dataNode("primary", freePort());
    const replica = await dataNode("replica", freePort(), [
      "--replicaof",
      "127.0.0.1",
      String(primary.port),
    ]);
    const linked = await poll(
      async () =>
        /master_link_status:up/.test(await rawCommand(replica.port, ["INFO", "replication"])) ||
        undefined,
      15_000,
      100,
    );
    if (!linked) throw new Error("the test replica did not link to its primary");

    const sentinelPort = freePort();
    const conf = `${dir}/sentinel.conf`;
    await Deno.writeTextFile(
      conf,
      [
        `port ${sentinelPort}`,
        "bind 127.0.0.1",
        `dir ${dir}`,
        `sentinel monitor ${master} 127.0.0.1 ${primary.port} 1`,
        `sentinel down-after-milliseconds ${master} 1000`,
        `sentinel failover-timeout ${master} 4000`,
        `sentinel parallel-syncs ${master} 1`,
        "",
      ].join("\n"),
    );
    const sentinel = await spawn([conf, "--sentinel", "--port", String(sentinelPort)]);
    // The Sentinel learns of the replica from the primary's INFO: wait until it knows it.
    const knows = await poll(
      async () => {
        const r = await rawCommand(sentinel.port, ["SENTINEL", "REPLICAS", master]).catch(() => "");
        return r.includes(String(replica.port)) || undefined;
      },
      15_000,
      100,
    );
    if (!knows) throw new Error("the test Sentinel did not discover the replica");

    return {
      master,
      primary,
      replica,
      sentinel,
      async currentPrimary() {
        const r = await rawCommand(sentinel.port, [
          "SENTINEL",
          "GET-MASTER-ADDR-BY-NAME",
          master,
        ]).catch(() => "");
        const m = /\r\n\$\d+\r\n([^\r]+)\r\n\$\d+\r\n(\d+)\r\n/.exec(r);
        return m ? `${m[1]}:${m[2]}` : undefined;
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
