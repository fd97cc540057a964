/**
 * Where FalkorDB is, from the environment. A configured server (FALKORDB_URL or FALKORDB_HOST /
 * FALKORDB_PORT) is always used as given and never silently replaced by another.
 */
import { CgraphError } from "../errors.ts";

export type DbMode = "auto" | "external" | "docker" | "embedded";

export interface Endpoint {
  host: string;
  port: number;
  username?: string;
  password?: string;
  tls?: boolean;
  /** Where this endpoint came from, for messages: "FALKORDB_URL", "embedded server", ... */
  origin: string;
  /** Set when the Sentinels named this server as the primary (see sentinel.ts). */
  sentinel?: SentinelConfig;
}

/** Sentinel mode: the Sentinels to ask and the name of the primary they monitor. */
export interface SentinelConfig {
  /** FALKORDB_SENTINEL_MASTER: the name in the Sentinels' `sentinel monitor <name> ...`. */
  master: string;
  /** FALKORDB_SENTINELS, in the order given. */
  sentinels: { host: string; port: number }[];
  /** FALKORDB_SENTINEL_USERNAME / _PASSWORD: the Sentinels' own credentials, when they ask. */
  username?: string;
  password?: string;
}

export const DEFAULT_SENTINEL_PORT = 26379;

const SENTINEL_USAGE = "Set FALKORDB_SENTINELS=host:port,host:port (the Sentinels) and " +
  "FALKORDB_SENTINEL_MASTER=<name> (the primary's name in their 'sentinel monitor' line).";

/**
 * Reads FALKORDB_SENTINELS and FALKORDB_SENTINEL_MASTER; undefined when neither is set. Either
 * alone, a bad address, or a FALKORDB_URL / FALKORDB_HOST beside them is an error.
 */
export function configuredSentinel(
  env: (k: string) => string | undefined = Deno.env.get,
): SentinelConfig | undefined {
  const list = env("FALKORDB_SENTINELS")?.trim();
  const master = env("FALKORDB_SENTINEL_MASTER")?.trim();
  if (!list && !master) return undefined;
  if (!list) {
    throw new CgraphError(
      "FALKORDB_SENTINEL_MASTER is set but FALKORDB_SENTINELS is not",
      SENTINEL_USAGE,
    );
  }
  if (!master) {
    throw new CgraphError(
      "FALKORDB_SENTINELS is set but FALKORDB_SENTINEL_MASTER is not",
      SENTINEL_USAGE,
    );
  }
  for (const other of ["FALKORDB_URL", "FALKORDB_HOST", "FALKORDB_PORT"]) {
    if (env(other)?.trim()) {
      throw new CgraphError(
        `FALKORDB_SENTINELS and ${other} are both set: cgraph cannot tell which server to use`,
        `In sentinel mode the Sentinels name the primary: unset ${other}.`,
      );
    }
  }
  if (/\s/.test(master)) {
    throw new CgraphError(
      `FALKORDB_SENTINEL_MASTER has a space in it: '${master}'`,
      SENTINEL_USAGE,
    );
  }
  const sentinels = list.split(",").map((s) => s.trim()).filter(Boolean).map((item) => {
    const m = /^(?:\[([^\]]+)\]|([^:\[\]]+))(?::(.*))?$/.exec(item);
    if (!m || !(m[1] ?? m[2])) {
      throw new CgraphError(`FALKORDB_SENTINELS has an invalid address: '${item}'`, SENTINEL_USAGE);
    }
    const port = m[3] === undefined ? DEFAULT_SENTINEL_PORT : parsePort(m[3], "FALKORDB_SENTINELS");
    return { host: m[1] ?? m[2], port };
  });
  if (sentinels.length === 0) {
    throw new CgraphError("FALKORDB_SENTINELS names no Sentinel", SENTINEL_USAGE);
  }
  return {
    master,
    sentinels,
    username: env("FALKORDB_SENTINEL_USERNAME") || undefined,
    password: env("FALKORDB_SENTINEL_PASSWORD") || undefined,
  };
}

export const DEFAULT_PORT = 6379;

/** Reads FALKORDB_URL, or FALKORDB_HOST / _PORT / _USERNAME / _PASSWORD; undefined when unset. */
export function configuredEndpoint(
  env: (k: string) => string | undefined = Deno.env.get,
): Endpoint | undefined {
  const url = env("FALKORDB_URL")?.trim();
  if (url) return parseUrl(url);
  const host = env("FALKORDB_HOST")?.trim();
  const port = env("FALKORDB_PORT")?.trim();
  if (!host && !port) return undefined;
  return {
    host: host || "localhost",
    port: port ? parsePort(port, "FALKORDB_PORT") : DEFAULT_PORT,
    username: env("FALKORDB_USERNAME") || undefined,
    password: env("FALKORDB_PASSWORD") || undefined,
    origin: "FALKORDB_HOST/FALKORDB_PORT",
  };
}

/** `redis://user:pass@host:port`, `rediss://` for TLS (`falkor://` and `falkors://` accepted too). */
export function parseUrl(raw: string): Endpoint {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CgraphError(
      `FALKORDB_URL is not a valid URL: ${redact(raw)}`,
      "Use redis://[user:password@]host:port, or rediss:// for TLS.",
    );
  }
  const scheme = url.protocol.replace(/:$/, "");
  if (!["redis", "rediss", "falkor", "falkors"].includes(scheme)) {
    throw new CgraphError(
      `FALKORDB_URL has scheme '${scheme}', expected redis:// or rediss://`,
      "Use redis://[user:password@]host:port, or rediss:// for TLS.",
    );
  }
  return {
    host: url.hostname.replace(/^\[|\]$/g, "") || "localhost",
    port: url.port ? parsePort(url.port, "FALKORDB_URL") : DEFAULT_PORT,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    tls: scheme === "rediss" || scheme === "falkors",
    origin: "FALKORDB_URL",
  };
}

function parsePort(raw: string, name: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new CgraphError(
      `${name} has an invalid port: ${raw}`,
      "A port is a number from 1 to 65535.",
    );
  }
  return port;
}

/** CGRAPH_DB: which way auto-init may find or start a server. */
export function dbMode(env: (k: string) => string | undefined = Deno.env.get): DbMode {
  const raw = (env("CGRAPH_DB") ?? "auto").trim().toLowerCase() || "auto";
  if (raw === "auto" || raw === "external" || raw === "docker" || raw === "embedded") return raw;
  throw new CgraphError(
    `CGRAPH_DB=${raw} is not a known mode`,
    "Use one of: auto, external, docker, embedded.",
  );
}

/** `host:port` as shown in messages (never the password). */
export function address(ep: Pick<Endpoint, "host" | "port">): string {
  return ep.host.includes(":") ? `[${ep.host}]:${ep.port}` : `${ep.host}:${ep.port}`;
}

function redact(raw: string): string {
  return raw.replace(/\/\/([^@/]*)@/, "//***@");
}
