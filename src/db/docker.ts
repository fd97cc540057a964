/**
 * FalkorDB in Docker: a container `cgraph-falkordb` from `falkordb/falkordb`, published on
 * 127.0.0.1 only, with its data in the named volume `cgraph-falkordb-data` (mounted at /data) and a
 * password kept in the data directory (`docker.password`, mode 0600). Started when a Docker engine
 * answers and nothing better is configured; reused (or restarted) afterwards.
 */
import { join } from "node:path";
import { CgraphError } from "../errors.ts";
import { log } from "../log.ts";
import type { Endpoint } from "./config.ts";
import { connectVerified, probeRedis, type Verified } from "./probe.ts";
import { firstLine, freePort, poll, portIsFree, runProgram } from "./proc.ts";
import { FALKORDB_IMAGE } from "./version.ts";

export const CONTAINER = "cgraph-falkordb";
/** The tested FalkorDB image (src/db/version.ts), never a moving tag. */
export const IMAGE = FALKORDB_IMAGE;
export const VOLUME = "cgraph-falkordb-data";
export const DOCKER_ORIGIN = "docker container cgraph-falkordb";
const HOST = "127.0.0.1";

export interface EngineCheck {
  ok: boolean;
  /** The engine's version when it answered; else why not. */
  detail: string;
}

/** Does a Docker engine answer? (`docker info`, short deadline.) */
export async function dockerEngine(timeoutMs = 4000): Promise<EngineCheck> {
  const r = await runProgram("docker", ["info", "--format", "{{.ServerVersion}}"], timeoutMs);
  if (r.ok && r.stdout.trim()) return { ok: true, detail: `engine ${r.stdout.trim()}` };
  if (r.error === "not found") return { ok: false, detail: "no docker client installed" };
  return { ok: false, detail: `no engine answered (${r.error ?? "no version reported"})` };
}

export interface ContainerInfo {
  exists: boolean;
  running: boolean;
  port?: number;
  status?: string;
}

/** The state of our container and the host port its 6379 is published on. */
export async function containerInfo(): Promise<ContainerInfo> {
  const r = await runProgram("docker", ["inspect", "--type", "container", CONTAINER], 10_000);
  if (!r.ok) return { exists: false, running: false };
  try {
    const [info] = JSON.parse(r.stdout);
    const bindings = info?.HostConfig?.PortBindings?.["6379/tcp"] ??
      info?.NetworkSettings?.Ports?.["6379/tcp"] ?? [];
    const port = Number(bindings?.[0]?.HostPort) || undefined;
    return {
      exists: true,
      running: info?.State?.Running === true,
      status: String(info?.State?.Status ?? "unknown"),
      port,
    };
  } catch {
    return { exists: true, running: false, status: "uninspectable" };
  }
}

async function dockerPassword(dataDir: string): Promise<string> {
  const file = join(dataDir, "docker.password");
  try {
    const have = (await Deno.readTextFile(file)).trim();
    if (have) return have;
  } catch {
    // first use
  }
  await Deno.mkdir(dataDir, { recursive: true });
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const password = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  await Deno.writeTextFile(file, password + "\n", { mode: 0o600 });
  return password;
}

export async function dockerEndpoint(dataDir: string, port: number): Promise<Endpoint> {
  return { host: HOST, port, password: await dockerPassword(dataDir), origin: DOCKER_ORIGIN };
}

function dockerFailed(what: string, detail: string): CgraphError {
  return new CgraphError(
    `Docker: ${what} failed: ${detail}`,
    `See 'docker logs ${CONTAINER}'; remove it with 'docker rm -f ${CONTAINER}' to start afresh ` +
      "(the data volume stays), or set CGRAPH_DB=embedded to run FalkorDB without Docker.",
  );
}

/**
 * Starts (or reuses) the container and waits until FalkorDB answers in it. A container this call
 * started is said once (unless `announce` is false), even when `quiet`: it keeps running.
 */
export async function startDocker(
  dataDir: string,
  quiet = false,
  announce = true,
): Promise<Verified> {
  let info = await containerInfo();
  let started = false;
  if (info.exists && !info.running) {
    if (!quiet) log.info(`starting the existing docker container ${CONTAINER}`);
    const r = await runProgram("docker", ["start", CONTAINER], 60_000);
    if (!r.ok) throw dockerFailed(`docker start ${CONTAINER}`, r.error ?? "unknown error");
    info = await containerInfo();
    started = true;
  }
  if (!info.exists) {
    const port = portIsFree(6379) ? 6379 : freePort();
    const password = await dockerPassword(dataDir);
    if (!quiet) {
      log.info(
        `starting FalkorDB in docker (container ${CONTAINER}, ${HOST}:${port}; the first run ` +
          `pulls ${IMAGE})`,
      );
    }
    const r = await runProgram("docker", [
      "run",
      "--detach",
      "--name",
      CONTAINER,
      "--label",
      "cgraph=1",
      "--restart",
      "unless-stopped",
      "--publish",
      `${HOST}:${port}:6379`,
      "--volume",
      `${VOLUME}:/data`,
      "--env",
      "FALKORDB_DATA_PATH=/data",
      "--env",
      "BROWSER=0",
      "--env",
      `REDIS_ARGS=--requirepass ${password} --appendonly yes`,
      IMAGE,
    ], 15 * 60_000);
    if (!r.ok) throw dockerFailed(`docker run ${IMAGE}`, r.error ?? "unknown error");
    info = await containerInfo();
    started = true;
  }
  if (!info.running || !info.port) {
    throw dockerFailed(
      `container ${CONTAINER}`,
      `it is ${info.status ?? "not running"}${info.port ? "" : " and publishes no port for 6379"}`,
    );
  }
  const ep = await dockerEndpoint(dataDir, info.port);
  const up = await poll(
    async () => {
      const p = await probeRedis(ep, 1000);
      if (p.kind === "redis" && p.detail === "answered PING") return "up";
      if (p.kind === "auth-failed" || p.kind === "auth-required") return p.detail;
      const again = await containerInfo();
      return again.running ? undefined : `the container stopped (${again.status})`;
    },
    60_000,
    250,
  );
  if (up !== "up") {
    const logs = await runProgram("docker", ["logs", "--tail", "10", CONTAINER], 10_000);
    throw dockerFailed(
      `waiting for FalkorDB in ${CONTAINER}`,
      `${up ?? "no answer within 60 s"}${
        logs.stdout || logs.stderr ? `; last log line: ${firstLine(lastLines(logs))}` : ""
      }`,
    );
  }
  const verified = await connectVerified(ep, { fix: `See 'docker logs ${CONTAINER}'.` });
  if (started && announce) {
    log.info(
      `started FalkorDB in docker (container ${CONTAINER}, ${HOST}:${info.port}); it keeps ` +
        "running for later calls; 'cgraph db stop' stops it",
    );
  }
  return verified;
}

function lastLines(r: { stdout: string; stderr: string }): string {
  const lines = (r.stdout + "\n" + r.stderr).split("\n").filter((l) => l.trim());
  return lines.slice(-1).join("\n");
}

/** Stops our container (the data volume stays); false when there was none running. */
export async function stopDocker(): Promise<boolean> {
  const info = await containerInfo();
  if (!info.running) return false;
  const r = await runProgram("docker", ["stop", CONTAINER], 60_000);
  if (!r.ok) throw dockerFailed(`docker stop ${CONTAINER}`, r.error ?? "unknown error");
  return true;
}
