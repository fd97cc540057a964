/**
 * The embedded FalkorDB: a private redis-server with the FalkorDB module, run as a daemon that
 * outlives cgraph and is shared by every cgraph process of the user (per data directory).
 *
 * Files, all in the data directory:
 *   falkordb/           the server's data (append-only file and snapshots)
 *   instance.json       pid, port, binaries, start time of the running server (see InstanceState)
 *   falkordb.password   the server's password, 32 random hex characters (mode 0600)
 *   falkordb.conf       the server's configuration, rewritten at each start (mode 0600)
 *   falkordb.pid / .log the server's pid file and log
 *   falkordb.lock       held while a process starts or stops the server
 */
import { join } from "node:path";
import { CgraphError } from "../errors.ts";
import { log } from "../log.ts";
import type { Db } from "./client.ts";
import type { Endpoint } from "./config.ts";
import { type Binaries, type CandidateCheck, resolveBinaries } from "./binaries.ts";
import { acquireLock } from "./lock.ts";
import { connectVerified, probeRedis } from "./probe.ts";
import { commandLineOf, freePort, isAlive, poll, portIsFree, runProgram, signal } from "./proc.ts";

/** The port the embedded server prefers when it is free. */
export const PREFERRED_PORT = 6479;
export const EMBEDDED_ORIGIN = "embedded server";
const HOST = "127.0.0.1";
/** How long a starting server may stay silent (CGRAPH_DB_START_WAIT_MS). */
function startWaitMs(): number {
  const ms = Number(Deno.env.get("CGRAPH_DB_START_WAIT_MS"));
  return Number.isFinite(ms) && ms > 0 ? ms : 60_000;
}
/** How long a server that answers LOADING (reading its data) is waited for. */
const LOADING_WAIT_MS = 600_000;

export interface EmbeddedPaths {
  dataDir: string;
  dbDir: string;
  stateFile: string;
  passwordFile: string;
  configFile: string;
  pidFile: string;
  logFile: string;
  lockFile: string;
}

export function embeddedPaths(dataDir: string): EmbeddedPaths {
  return {
    dataDir,
    dbDir: join(dataDir, "falkordb"),
    stateFile: join(dataDir, "instance.json"),
    passwordFile: join(dataDir, "falkordb.password"),
    configFile: join(dataDir, "falkordb.conf"),
    pidFile: join(dataDir, "falkordb.pid"),
    logFile: join(dataDir, "falkordb.log"),
    lockFile: join(dataDir, "falkordb.lock"),
  };
}

export interface InstanceState {
  pid: number;
  host: string;
  port: number;
  password_file: string;
  server: string;
  server_version: string;
  module: string;
  data_dir: string;
  log_file: string;
  config_file: string;
  started_at: string;
}

export interface EmbeddedContext {
  env: (k: string) => string | undefined;
  dataDir: string;
  cacheDir: string;
  /** No progress lines (a start is still said, unless `announce` is false). */
  quiet?: boolean;
  /**
   * Say once, even when quiet, that a server was started, where, and that `cgraph db stop` stops
   * it: it keeps running after this process (default true; `cgraph db start` says so itself).
   */
  announce?: boolean;
}

export interface EmbeddedReady {
  db: Db;
  state: InstanceState;
  /** True when an already running instance was reused. */
  reused: boolean;
  moduleVersion?: string;
  tried?: CandidateCheck[];
}

export async function readInstance(paths: EmbeddedPaths): Promise<InstanceState | undefined> {
  try {
    const s = JSON.parse(await Deno.readTextFile(paths.stateFile));
    if (typeof s?.pid === "number" && typeof s?.port === "number") return s as InstanceState;
  } catch {
    // missing or unreadable: no instance
  }
  return undefined;
}

async function readPassword(file: string): Promise<string | undefined> {
  try {
    return (await Deno.readTextFile(file)).trim() || undefined;
  } catch {
    return undefined;
  }
}

export async function instanceEndpoint(state: InstanceState): Promise<Endpoint> {
  return {
    host: state.host || HOST,
    port: state.port,
    password: await readPassword(state.password_file),
    origin: EMBEDDED_ORIGIN,
  };
}

export interface InstanceCheck {
  state?: InstanceState;
  running: boolean;
  /** Why it is not usable: "no instance.json", "pid 123 is gone", ... */
  why?: string;
  moduleVersion?: string;
  db?: Db;
}

/** Is the instance in instance.json alive and answering? Keeps the connection when `keep`. */
export async function checkInstance(paths: EmbeddedPaths, keep = false): Promise<InstanceCheck> {
  const state = await readInstance(paths);
  if (!state) return { running: false, why: `no running instance recorded (${paths.stateFile})` };
  if (!isAlive(state.pid)) return { state, running: false, why: `its pid ${state.pid} is gone` };
  try {
    const v = await connectVerified(await instanceEndpoint(state), {
      probeTimeoutMs: 1500,
      connectTimeoutMs: 3000,
    });
    if (!keep) await v.db.close();
    return { state, running: true, moduleVersion: v.moduleVersion, db: keep ? v.db : undefined };
  } catch (err) {
    return { state, running: false, why: (err as Error).message };
  }
}

/** Reuses the running embedded server, or starts one (downloading binaries on first use). */
export async function startEmbedded(ctx: EmbeddedContext): Promise<EmbeddedReady> {
  const paths = embeddedPaths(ctx.dataDir);
  const quick = await checkInstance(paths, true);
  if (quick.running && quick.db) {
    return { db: quick.db, state: quick.state!, reused: true, moduleVersion: quick.moduleVersion };
  }
  const bins = await resolveBinaries({ env: ctx.env, cacheDir: ctx.cacheDir, quiet: ctx.quiet });
  await Deno.mkdir(paths.dbDir, { recursive: true, mode: 0o700 });
  const release = await acquireLock(paths.lockFile, {
    waitMs: 90_000,
    staleMs: 120_000,
    purpose: "starting the embedded FalkorDB",
    quiet: ctx.quiet,
  });
  try {
    // Someone else may have started it while we waited.
    const again = await checkInstance(paths, true);
    if (again.running && again.db) {
      return {
        db: again.db,
        state: again.state!,
        reused: true,
        moduleVersion: again.moduleVersion,
      };
    }
    if (again.state && !ctx.quiet) {
      log.info(`replacing the stale embedded FalkorDB (${again.why})`);
    }
    await retireStale(paths, again.state, ctx.quiet ?? false);
    const state = await launch(paths, bins, ctx.quiet ?? false, ctx.announce ?? true);
    const v = await connectVerified(await instanceEndpoint(state), {
      fix: `See the server log: ${paths.logFile}`,
    });
    return { db: v.db, state, reused: false, moduleVersion: v.moduleVersion, tried: bins.tried };
  } finally {
    await release();
  }
}

/** True when `pid` is a redis/valkey server started from our config (not a reused pid). */
async function isOurServer(pid: number, paths: EmbeddedPaths, port?: number): Promise<boolean> {
  const cmd = await commandLineOf(pid);
  if (!cmd || !/(redis|valkey)-server/.test(cmd)) return false;
  return cmd.includes(paths.configFile) || (port !== undefined && cmd.includes(`:${port}`));
}

/** Terminates a leftover server of this data directory, if one is still alive. */
async function retireStale(
  paths: EmbeddedPaths,
  state: InstanceState | undefined,
  quiet: boolean,
): Promise<void> {
  const pids = new Set<number>();
  if (state) pids.add(state.pid);
  const fromPidFile = Number((await Deno.readTextFile(paths.pidFile).catch(() => "")).trim());
  if (fromPidFile > 0) pids.add(fromPidFile);
  for (const pid of pids) {
    if (isAlive(pid) && await isOurServer(pid, paths, state?.port)) {
      if (!quiet) log.info(`stopping the unresponsive embedded FalkorDB (pid ${pid})`);
      await terminate(pid);
    }
  }
  await Deno.remove(paths.stateFile).catch(() => {});
  await Deno.remove(paths.pidFile).catch(() => {});
}

/** SIGTERM (a clean shutdown for Redis), then SIGKILL if it is still there after `graceMs`. */
async function terminate(pid: number, graceMs = 10_000): Promise<boolean> {
  signal(pid, "SIGTERM");
  signal(pid, "SIGCONT"); // a stopped process handles SIGTERM only once it runs again
  if (await poll(() => Promise.resolve(isAlive(pid) ? undefined : true), graceMs, 50)) return true;
  signal(pid, "SIGKILL");
  return (await poll(() => Promise.resolve(isAlive(pid) ? undefined : true), 3000, 50)) ?? false;
}

async function ensurePassword(file: string): Promise<string> {
  const have = await readPassword(file);
  if (have) {
    await Deno.chmod(file, 0o600).catch(() => {});
    return have;
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const password = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  await Deno.writeTextFile(file, password + "\n", { mode: 0o600 });
  await Deno.chmod(file, 0o600).catch(() => {});
  return password;
}

/** A value quoted for a redis.conf line. */
function q(value: string): string {
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function configText(paths: EmbeddedPaths, bins: Binaries, port: number, password: string): string {
  return [
    "# Written by cgraph at each start of its embedded FalkorDB; edits are overwritten.",
    `bind ${HOST}`,
    "protected-mode yes",
    `port ${port}`,
    "daemonize yes",
    `pidfile ${q(paths.pidFile)}`,
    `logfile ${q(paths.logFile)}`,
    `dir ${q(paths.dbDir)}`,
    "appendonly yes",
    "appendfsync everysec",
    // The log is what persists (and what a start loads): snapshots beside it would fork the
    // server and write every graph again each minute an index writes, on the cores it needs.
    'save ""',
    // Replaying logged graph writes at start-up is far slower than loading a snapshot (a 150 MB
    // log of index writes took over a minute): compact the log into the snapshot early.
    "auto-aof-rewrite-percentage 25",
    "auto-aof-rewrite-min-size 16mb",
    `requirepass ${q(password)}`,
    `loadmodule ${q(bins.module)}`,
    `proc-title-template "{title} {listen-addr} {server-mode} {config-file}"`,
    "",
  ].join("\n");
}

async function logSize(file: string): Promise<number> {
  try {
    return (await Deno.stat(file)).size;
  } catch {
    return 0;
  }
}

/** The log lines written since byte `from` (at most the last `max`). */
async function logSince(file: string, from: number, max = 12): Promise<string[]> {
  try {
    const bytes = await Deno.readFile(file);
    const text = new TextDecoder().decode(bytes.subarray(Math.min(from, bytes.length)));
    return text.split("\n").map((l) => l.trimEnd()).filter((l) => l.length > 0).slice(-max);
  } catch {
    return [];
  }
}

async function launch(
  paths: EmbeddedPaths,
  bins: Binaries,
  quiet: boolean,
  announce: boolean,
): Promise<InstanceState> {
  const password = await ensurePassword(paths.passwordFile);
  let lastFailure = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = attempt === 0 && portIsFree(PREFERRED_PORT) ? PREFERRED_PORT : freePort();
    await Deno.writeTextFile(paths.configFile, configText(paths, bins, port, password), {
      mode: 0o600,
    });
    await Deno.chmod(paths.configFile, 0o600).catch(() => {});
    await Deno.remove(paths.pidFile).catch(() => {});
    const logFrom = await logSize(paths.logFile);
    if (!quiet) {
      log.info(`starting the embedded FalkorDB on ${HOST}:${port} (data in ${paths.dbDir})`);
    }
    const run = await runProgram(bins.server, [paths.configFile], 20_000, { cwd: paths.dataDir });
    if (!run.ok) {
      lastFailure = `'${bins.server} ${paths.configFile}' failed: ${run.error}` +
        tail(await logSince(paths.logFile, logFrom));
      if (/already in use/i.test(lastFailure)) continue;
      break;
    }
    const ep: Endpoint = { host: HOST, port, password, origin: EMBEDDED_ORIGIN };
    let pid = 0;
    // A server that answers LOADING is reading its data (many or large graphs take minutes):
    // it is waited for as long as it keeps loading (up to LOADING_WAIT_MS), never killed at 60 s
    // and restarted, which would only start the load over again.
    let loadingSince = 0;
    const started = Date.now();
    const startWait = startWaitMs();
    const ready = await poll(
      async () => {
        pid = Number((await Deno.readTextFile(paths.pidFile).catch(() => "")).trim()) || pid;
        if (pid && !isAlive(pid)) return "died";
        const p = await probeRedis(ep, 1000);
        if (p.kind === "redis" && p.detail === "answered PING") return pid ? "up" : undefined;
        if (p.kind === "auth-failed" || p.kind === "auth-required" || p.kind === "not-redis") {
          return `${HOST}:${port} is held by another server (${p.detail})`;
        }
        if (p.kind === "redis" && /LOADING/.test(p.detail)) {
          if (!loadingSince && !quiet) {
            log.info(`the embedded FalkorDB is loading its data (${paths.dbDir}); waiting for it`);
          }
          loadingSince ||= Date.now();
        }
        const limit = loadingSince ? LOADING_WAIT_MS : startWait;
        return Date.now() - started > limit ? "timeout" : undefined;
      },
      LOADING_WAIT_MS,
      100,
    );
    if (ready === "up") {
      const state: InstanceState = {
        pid,
        host: HOST,
        port,
        password_file: paths.passwordFile,
        server: bins.server,
        server_version: bins.serverVersion,
        module: bins.module,
        data_dir: paths.dbDir,
        log_file: paths.logFile,
        config_file: paths.configFile,
        started_at: new Date().toISOString(),
      };
      const tmp = `${paths.stateFile}.${crypto.randomUUID()}.tmp`;
      await Deno.writeTextFile(tmp, JSON.stringify(state, null, 2) + "\n", { mode: 0o600 });
      await Deno.rename(tmp, paths.stateFile);
      if (announce) {
        log.info(
          `started an embedded FalkorDB (pid ${pid}, 127.0.0.1:${port}, data ${paths.dataDir}); ` +
            "it keeps running for later calls; 'cgraph db stop' stops it",
        );
      }
      return state;
    }
    const lines = await logSince(paths.logFile, logFrom);
    if (pid && isAlive(pid) && await isOurServer(pid, paths, port)) await terminate(pid);
    lastFailure = (ready === "died"
      ? `the server exited during start-up`
      : ready === "timeout" || !ready
      ? `the server did not answer within ${(loadingSince ? LOADING_WAIT_MS : startWait) / 1000} s`
      : ready) + tail(lines);
    if (/already in use/i.test(lastFailure) || ready?.includes("held by another")) {
      continue;
    }
    break;
  }
  throw new CgraphError(
    `The embedded FalkorDB did not start (server ${bins.server} ${bins.serverVersion}, ` +
      `module ${bins.module}): ${lastFailure}`,
    `Its log is ${paths.logFile}. Set FALKORDB_SERVER / FALKORDB_MODULE to other binaries, ` +
      "or FALKORDB_URL to a running FalkorDB.",
  );
}

function tail(lines: string[]): string {
  return lines.length ? "\n  log: " + lines.join("\n  log: ") : "";
}

export interface StopResult {
  stopped: boolean;
  detail: string;
}

/** Stops the embedded server of this data directory (SHUTDOWN, else SIGTERM by pid). */
export async function stopEmbedded(dataDir: string): Promise<StopResult> {
  const paths = embeddedPaths(dataDir);
  const state = await readInstance(paths);
  const pidFromFile = Number((await Deno.readTextFile(paths.pidFile).catch(() => "")).trim());
  const pid = state?.pid ?? (pidFromFile > 0 ? pidFromFile : undefined);
  if (pid === undefined || !isAlive(pid) || !(await isOurServer(pid, paths, state?.port))) {
    await Deno.remove(paths.stateFile).catch(() => {});
    await Deno.remove(paths.pidFile).catch(() => {});
    return { stopped: false, detail: `no embedded FalkorDB is running (data dir ${dataDir})` };
  }
  await Deno.mkdir(dataDir, { recursive: true });
  const release = await acquireLock(paths.lockFile, {
    waitMs: 90_000,
    staleMs: 120_000,
    purpose: "stopping the embedded FalkorDB",
  });
  try {
    if (state) {
      // SHUTDOWN writes the data out and exits; the connection closing is the expected answer.
      const check = await checkInstance(paths, true);
      if (check.db) {
        await check.db.command(["SHUTDOWN"], 15_000).catch(() => {});
        await check.db.close();
      }
    }
    let gone = await poll(() => Promise.resolve(isAlive(pid) ? undefined : true), 15_000, 50);
    if (!gone) gone = await terminate(pid);
    if (!gone) {
      throw new CgraphError(
        `The embedded FalkorDB (pid ${pid}) did not stop`,
        `Stop it by hand: kill -9 ${pid}`,
      );
    }
    await Deno.remove(paths.stateFile).catch(() => {});
    await Deno.remove(paths.pidFile).catch(() => {});
    return {
      stopped: true,
      detail: `stopped the embedded FalkorDB (pid ${pid}${state ? `, port ${state.port}` : ""})`,
    };
  } finally {
    await release();
  }
}
