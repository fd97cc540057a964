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
