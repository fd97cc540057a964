/**
 * Sentinel-managed FalkorDB (FALKORDB_SENTINELS + FALKORDB_SENTINEL_MASTER): the Sentinels are
 * asked which server is the primary (`SENTINEL get-master-addr-by-name`), and cgraph connects there
 * as to any standalone FalkorDB; writes must go to the primary.
 *
 * A failover shows on the connection in use: the dead primary stops answering, or a demoted one
 * answers READONLY; either is a DbUnavailableError, the session drops that connection, and the
 * next call asks the Sentinels again. A switchover (the old primary still up) is caught by asking
 * the Sentinels once a second while connected (followSentinels): the connection is closed and the
 * session's next call connects to the new primary. While they still name
 * a primary that does not answer (their `down-after-milliseconds`, then the election), or name
 * one that is still a replica, a call fails at once with a SentinelFailoverError instead of waiting.
 *
 * Why not the libraries' own support: the falkordb client's (6.6.2) asks the one Sentinel it was
 * given for SENTINEL MASTERS (a single monitored primary only) and logs with console.debug;
 * `createSentinel` of @redis/client (5.12.1) rediscovers in an endless loop once connected, keeps
 * calls waiting while no primary is known, and prints unexpected errors with console.log. An MCP
 * stdio server cannot have stray output on stdout, and a call must fail fast; hence this resolver.
 */
import { CgraphError } from "../errors.ts";
import { log } from "../log.ts";
import { type Db, DbQueryError, DbUnavailableError } from "./client.ts";
import { address, type Endpoint, type SentinelConfig } from "./config.ts";
import { connectVerified, probeRedis, type Verified } from "./probe.ts";
import { respCommands } from "./resp.ts";

/** How long one Sentinel may take to answer. */
const SENTINEL_TIMEOUT_MS = 1500;

/** What one Sentinel said. */
export interface SentinelAnswer {
  address: string;
  /** The primary it names ("host:port"), null when it monitors no such name. */
  primary?: string | null;
  /** Why it gave no answer. */
  error?: string;
}

export interface Resolution {
  /** The primary most Sentinels name (ties: the first Sentinel's). */
  primary?: { host: string; port: number };
  answers: SentinelAnswer[];
}

/** No primary can be used now (a failover under way): the next call tries again. */
export class SentinelFailoverError extends DbUnavailableError {
  constructor(message: string, hint?: string) {
    super(message, hint);
    this.name = "SentinelFailoverError";
  }
}

const RETRY_HINT = "A failover takes a few seconds (the Sentinels' down-after-milliseconds, then " +
  "the election): cgraph asks them again at the next call. If this lasts, run 'cgraph db status'.";

/** Asks every Sentinel at once; never takes longer than one Sentinel's deadline. */
export async function resolvePrimary(cfg: SentinelConfig, timeoutMs = SENTINEL_TIMEOUT_MS) {
  const answers = await Promise.all(cfg.sentinels.map(async (s): Promise<SentinelAnswer> => {
    const where = address(s);
    try {
      const auth = cfg.password
        ? [cfg.username ? ["AUTH", cfg.username, cfg.password] : ["AUTH", cfg.password]]
        : [];
      const replies = await respCommands(
        s,
        [...auth, ["SENTINEL", "get-master-addr-by-name", cfg.master]],
        timeoutMs,
      );
      for (const r of replies) if (r instanceof Error) return { address: where, error: r.message };
      const reply = replies[replies.length - 1];
      if (reply === null) return { address: where, primary: null };
      if (Array.isArray(reply) && reply.length === 2) {
        return { address: where, primary: address({ host: String(reply[0]), port: +reply[1]! }) };
      }
      return { address: where, error: `unexpected answer ${JSON.stringify(reply)}` };
    } catch (err) {
      return { address: where, error: (err as Error).message };
    }
  }));
  const votes = new Map<string, number>();
  for (const a of answers) if (a.primary) votes.set(a.primary, (votes.get(a.primary) ?? 0) + 1);
  let best: string | undefined;
  for (const a of answers) {
    if (a.primary && (best === undefined || votes.get(a.primary)! > votes.get(best)!)) {
      best = a.primary;
    }
  }
  const result: Resolution = { answers };
  if (best) {
    const cut = best.lastIndexOf(":");
    result.primary = {
      host: best.slice(0, cut).replace(/^\[|\]$/g, ""),
      port: +best.slice(cut + 1),
    };
  }
  return result;
}

/** "h:p answers: primary h:p; h:p: connection refused", for messages and `cgraph db status`. */
export function describeAnswers(answers: SentinelAnswer[]): string {
  return answers.map((a) =>
    a.error
      ? `${a.address}: ${a.error}`
      : `${a.address}: ${a.primary ? `primary ${a.primary}` : "no such primary"}`
  ).join("; ");
}

/**
 * The Sentinels' primary, connected and checked (the graph module loaded, ROLE master). Throws a
 * CgraphError when the Sentinels are misconfigured, a SentinelFailoverError while no primary can
 * be used.
 */
export async function connectSentinelPrimary(
  cfg: SentinelConfig,
  credentials: { username?: string; password?: string; tls?: boolean },
): Promise<Verified & { resolution: Resolution }> {
  const resolution = await resolvePrimary(cfg);
  const { primary, answers } = resolution;
  const names = cfg.sentinels.map(address).join(", ");
  if (!primary) {
    if (answers.every((a) => a.error)) {
      throw new DbUnavailableError(
        `None of the Sentinels (FALKORDB_SENTINELS=${names}) answered: ${describeAnswers(answers)}`,
        "Start the Sentinels, or fix FALKORDB_SENTINELS (host:port of each, comma-separated).",
      );
    }
    throw new CgraphError(
      `The Sentinels (${names}) monitor no primary named '${cfg.master}' ` +
        `(FALKORDB_SENTINEL_MASTER): ${describeAnswers(answers)}`,
      "Set FALKORDB_SENTINEL_MASTER to the name in the Sentinels' 'sentinel monitor <name> ...' " +
        "line ('SENTINEL MASTERS' lists them).",
    );
  }
  const ep: Endpoint = {
    ...primary,
    ...credentials,
    origin: `primary '${cfg.master}' named by the Sentinels`,
    sentinel: cfg,
  };
  const where = address(ep);
  const probe = await probeRedis(ep, 2000);
  if (probe.kind === "refused" || probe.kind === "timeout") {
    throw new SentinelFailoverError(
      `No FalkorDB primary for '${cfg.master}' answers right now: the Sentinels name ${where}, ` +
        `which is not answering: ${probe.detail}; a failover may be under way`,
      RETRY_HINT,
    );
  }
  const verified = await connectVerified(ep, {
    fix: "Check the servers the Sentinels monitor ('cgraph db status').",
  });
  const role = await primaryRole(verified.db);
  if (role !== undefined && role !== "master") {
    await verified.db.close();
    throw new SentinelFailoverError(
      `No FalkorDB primary for '${cfg.master}' right now: the Sentinels name ${where}, which is ` +
        `still a ${role === "slave" ? "replica" : role}; a failover is under way`,
      RETRY_HINT,
    );
  }
  followSentinels(verified.db, cfg);
  return { ...verified, resolution };
}

/** How often a connected process asks the Sentinels whether the primary moved. */
const FOLLOW_MS = 1000;

/**
 * While `db` is open, asks the Sentinels once a second which server is the primary; when they
 * name another one (a switchover, the old primary still up and taking writes until the Sentinels
 * demote it, seconds later), closes `db`, so the session connects to the new primary at its next
 * call. Sentinels that do not answer change nothing. The timer never keeps a process alive.
 */
export function followSentinels(db: Db, cfg: SentinelConfig, everyMs = FOLLOW_MS): void {
  const here = address(db.endpoint);
  let busy = false;
  const timer = setInterval(async () => {
    if (db.closed) return clearInterval(timer);
    if (busy) return;
    busy = true;
    try {
      const { primary } = await resolvePrimary(cfg);
      if (!primary || address(primary) === here || db.closed) return;
      clearInterval(timer);
      log.info(
        `the Sentinels moved the primary of '${cfg.master}' from ${here} to ${address(primary)}`,
      );
      await db.close(
        new DbUnavailableError(
          `The Sentinels moved the primary of '${cfg.master}' from ${here} to ${
            address(primary)
          } while this call ran`,
          "Try again: the next call goes to the new primary.",
        ),
      );
    } finally {
      busy = false;
    }
  }, everyMs);
  Deno.unrefTimer(timer);
}

/** ROLE's first field ("master", "slave"), undefined when the command is not allowed. */
async function primaryRole(db: Db): Promise<string | undefined> {
  try {
    const reply = await db.command<unknown[]>(["ROLE"], 3000);
    return Array.isArray(reply) ? String(reply[0]) : undefined;
  } catch (err) {
    if (err instanceof DbQueryError) return undefined;
    await db.close();
    throw err;
  }
}

export { respCommands } from "./resp.ts";

/** What `cgraph db status` shows in sentinel mode. */
export interface SentinelReport {
  master: string;
  /** The primary the Sentinels name, when they name one. */
  primary?: string;
  /** Whether that primary answers as a FalkorDB primary now. */
  primary_ok: boolean;
  /** Why not, when it does not. */
  detail?: string;
  sentinels: SentinelAnswer[];
  moduleVersion?: string;
}

/** Asks the Sentinels and checks their primary; starts nothing, never throws a CgraphError. */
export async function sentinelStatus(
  cfg: SentinelConfig,
  credentials: { username?: string; password?: string },
): Promise<SentinelReport> {
  const { primary, answers } = await resolvePrimary(cfg);
  const report: SentinelReport = {
    master: cfg.master,
    primary: primary ? address(primary) : undefined,
    primary_ok: false,
    sentinels: answers,
  };
  try {
    const v = await connectSentinelPrimary(cfg, credentials);
    report.primary = address(v.db.endpoint);
    report.primary_ok = true;
    report.moduleVersion = v.moduleVersion;
    await v.db.close();
  } catch (err) {
    if (!(err instanceof CgraphError)) throw err;
    report.detail = err.message;
  }
  return report;
}
