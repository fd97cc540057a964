/**
 * Is there a FalkorDB at an address? A raw socket probe first (so a port held by something that
 * is not Redis, or a server that never answers, costs at most a short deadline and leaves no
 * socket behind), then a real connection that checks the graph module is loaded.
 */
import { CgraphError } from "../errors.ts";
import { Db, DbQueryError } from "./client.ts";
import { address, type Endpoint } from "./config.ts";
import { encodeCommand, NoAnswerError, withConnection } from "./resp.ts";

export type ProbeKind =
  | "refused" // nothing listens there
  | "timeout" // no answer in time
  | "not-redis" // something answered, but not in the Redis protocol
  | "auth-required" // Redis, but it wants a password we do not have
  | "auth-failed" // Redis, and it refused our password
  | "redis"; // Redis answered PING

export interface ProbeResult {
  kind: ProbeKind;
  detail: string;
}

const dec = new TextDecoder();

/** Speaks just enough RESP to know whether a Redis answers at `ep`, within `timeoutMs`. */
export async function probeRedis(ep: Endpoint, timeoutMs = 2000): Promise<ProbeResult> {
  try {
    return await withConnection(ep, timeoutMs, async (conn) => {
      const commands = ep.password
        ? [encodeCommand(ep.username ? ["AUTH", ep.username, ep.password] : ["AUTH", ep.password])]
        : [];
      commands.push(encodeCommand(["PING"]));
      for (const c of commands) await conn.write(c);
      const lines: string[] = [];
      let buffered = "";
      const buf = new Uint8Array(4096);
      while (lines.length < commands.length) {
        const n = await conn.read(buf);
        if (n === null) break;
        buffered += dec.decode(buf.subarray(0, n));
        if (buffered.length > 0 && !"+-:$*_#,(!=%~>|".includes(buffered[0])) break;
        const parts = buffered.split("\r\n");
        buffered = parts.pop() ?? "";
        lines.push(...parts);
      }
      return answerOf(lines, buffered);
    });
  } catch (err) {
    if (err instanceof NoAnswerError) {
      return { kind: "timeout", detail: `no answer within ${timeoutMs} ms` };
    }
    if (err instanceof Deno.errors.ConnectionRefused) {
      return { kind: "refused", detail: "nothing is listening there (connection refused)" };
    }
    return { kind: "refused", detail: (err as Error).message };
  }
}

/** What the lines a server sent back to AUTH and PING say it is. */
function answerOf(lines: string[], rest: string): ProbeResult {
  if (lines.length === 0) {
    const text = rest.trim().slice(0, 60);
    return {
      kind: "not-redis",
      detail: text
        ? `something that is not Redis answered: ${JSON.stringify(text)}`
        : "the connection was closed without a Redis answer",
    };
  }
  const errorLine = lines.find((l) => l.startsWith("-"));
  if (errorLine) {
    const msg = errorLine.slice(1);
    if (/^NOAUTH/i.test(msg)) return { kind: "auth-required", detail: msg };
    if (/^(WRONGPASS|ERR invalid password|ERR AUTH)/i.test(msg)) {
      return { kind: "auth-failed", detail: msg };
    }
    return { kind: "redis", detail: msg };
  }
  return { kind: "redis", detail: "answered PING" };
}

export interface ModuleCheck {
  ok: boolean;
  /** FalkorDB's version as "4.16.3" when MODULE LIST told it. */
  version?: string;
  why?: string;
}

/** Does the server have the graph module? MODULE LIST, else a trivial GRAPH.RO_QUERY. */
export async function checkGraphModule(db: Db, timeoutMs = 3000): Promise<ModuleCheck> {
  try {
    const list = await db.command<unknown[]>(["MODULE", "LIST"], timeoutMs);
    for (const entry of list ?? []) {
      const fields = moduleFields(entry);
      if (String(fields.name ?? "").toLowerCase() === "graph") {
        return { ok: true, version: moduleVersion(fields.ver) };
      }
    }
    return { ok: false, why: "MODULE LIST has no 'graph' module" };
  } catch (err) {
    if (!(err instanceof DbQueryError)) throw err;
    // MODULE may be disabled or not permitted: ask the graph module directly.
  }
  try {
    await db.command(["GRAPH.RO_QUERY", "cgraph_probe_no_such_graph", "RETURN 1"], timeoutMs);
    return { ok: true };
  } catch (err) {
    if (!(err instanceof DbQueryError)) throw err;
    if (/unknown command/i.test(err.message)) {
      return { ok: false, why: "the GRAPH.* commands are unknown" };
    }
    // "Invalid graph operation on empty key" and the like come from the graph module itself.
    return { ok: true };
  }
}

/** What a server says about itself: Redis or Valkey and its version, mode, FalkorDB's version. */
export interface ServerVersions {
  /** "Redis" or "Valkey". */
  server: string;
  version?: string;
  /** standalone, cluster or sentinel. */
  mode?: string;
  falkordb?: string;
}

export async function serverVersions(db: Db, timeoutMs = 3000): Promise<ServerVersions> {
  const info = String(await db.command(["INFO", "server"], timeoutMs));
  const field = (k: string) => new RegExp(`^${k}:(.*)$`, "m").exec(info)?.[1]?.trim();
  const valkey = field("server_name") === "valkey" || field("valkey_version") !== undefined;
  const mod = await checkGraphModule(db, timeoutMs).catch(() => undefined);
  return {
    server: valkey ? "Valkey" : "Redis",
    version: valkey ? (field("valkey_version") ?? field("redis_version")) : field("redis_version"),
    mode: field("redis_mode"),
    falkordb: mod?.version,
  };
}

function moduleFields(entry: unknown): Record<string, unknown> {
  if (Array.isArray(entry)) {
    const out: Record<string, unknown> = {};
    for (let i = 0; i + 1 < entry.length; i += 2) out[String(entry[i])] = entry[i + 1];
    return out;
  }
  if (entry instanceof Map) return Object.fromEntries(entry);
  return (entry ?? {}) as Record<string, unknown>;
}

function moduleVersion(ver: unknown): string | undefined {
  const n = Number(ver);
  if (!Number.isInteger(n) || n <= 0) return undefined;
  return `${Math.floor(n / 10000)}.${Math.floor(n / 100) % 100}.${n % 100}`;
}

export interface Verified {
  db: Db;
  moduleVersion?: string;
}

/**
 * Connects to `ep` and checks it is FalkorDB; throws a CgraphError naming the address and a fix.
 * `what` names the endpoint in messages ("FALKORDB_URL", "the embedded server", ...).
 */
export async function connectVerified(
  ep: Endpoint,
  opts: { probeTimeoutMs?: number; connectTimeoutMs?: number; fix?: string } = {},
): Promise<Verified> {
  const where = `${address(ep)} (${ep.origin})`;
  const probe = await probeRedis(ep, opts.probeTimeoutMs ?? 3000);
  const fix = opts.fix ?? "Run 'cgraph db status' to see what cgraph tried.";
  switch (probe.kind) {
    case "refused":
    case "timeout":
      throw new CgraphError(`Cannot reach FalkorDB at ${where}: ${probe.detail}`, fix);
    case "not-redis":
      throw new CgraphError(`The server at ${where} is not Redis/FalkorDB: ${probe.detail}`, fix);
    case "auth-required":
      throw new CgraphError(
        `FalkorDB at ${where} requires a password: ${probe.detail}`,
        "Put it in FALKORDB_URL (redis://:PASSWORD@host:port) or FALKORDB_PASSWORD.",
      );
    case "auth-failed":
      throw new CgraphError(
        `FalkorDB at ${where} refused the credentials: ${probe.detail}`,
        "Check the user name and password in FALKORDB_URL / FALKORDB_USERNAME / FALKORDB_PASSWORD.",
      );
  }
  const db = await Db.connect(ep, opts.connectTimeoutMs);
  try {
    const mod = await checkGraphModule(db);
    if (!mod.ok) {
      throw new CgraphError(
        `The server at ${where} is a Redis without the FalkorDB graph module (${mod.why})`,
        "Point cgraph at a FalkorDB server (or load falkordb.so into that Redis with " +
          "--loadmodule), or unset it to let cgraph start its own.",
      );
    }
    return { db, moduleVersion: mod.version };
  } catch (err) {
    await db.close();
    throw err;
  }
}
