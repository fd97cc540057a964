/**
 * A lock file made by exclusive create (O_EXCL). It holds the owner's pid and host; a lock whose
 * owner is gone, or that is older than `staleMs`, is broken. Serialises downloads and server starts
 * between cgraph processes of one user.
 */
import { hostname } from "node:os";
import { CgraphError } from "../errors.ts";
import { log } from "../log.ts";
import { isAlive, sleep } from "./proc.ts";

interface LockInfo {
  pid: number;
  host: string;
  at: number;
}

export interface LockOptions {
  /** How long to wait for another holder, in ms. */
  waitMs: number;
  /** A lock older than this is taken to be abandoned, in ms. */
  staleMs: number;
  /** For messages: "starting the embedded FalkorDB". */
  purpose: string;
  /** No "waiting for..." line on stderr. */
  quiet?: boolean;
}

export type Release = () => Promise<void>;

export async function acquireLock(path: string, opts: LockOptions): Promise<Release> {
  const end = Date.now() + opts.waitMs;
  let told = false;
  const me: LockInfo = { pid: Deno.pid, host: hostname(), at: Date.now() };
  while (true) {
    try {
      const file = await Deno.open(path, { write: true, createNew: true, mode: 0o600 });
      try {
        await file.write(new TextEncoder().encode(JSON.stringify(me)));
      } finally {
        file.close();
      }
      return async () => {
        try {
          const now = await readLock(path);
          if (now && now.pid === me.pid && now.at === me.at) await Deno.remove(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if (!(err instanceof Deno.errors.AlreadyExists)) throw err;
    }
    const holder = await readLock(path);
    if (holder === undefined || isStale(holder, opts.staleMs)) {
      // Unreadable (half-written by a process that died) or abandoned: break it. A half-written
      // lock younger than a second may still be being written, so give it that second.
      const age = await lockAge(path);
      if (holder !== undefined || age === undefined || age > 1000) {
        log.debug(`breaking stale lock ${path}`);
        await Deno.remove(path).catch(() => {});
        continue;
      }
    }
    if (Date.now() >= end) {
      throw new CgraphError(
        `Timed out waiting for another cgraph process (pid ${holder?.pid ?? "?"}) ${opts.purpose}`,
        `If no other cgraph is running, delete ${path} and try again.`,
      );
    }
    if (!told && !opts.quiet) {
      log.info(`waiting for another cgraph process (pid ${holder?.pid ?? "?"}) ${opts.purpose}`);
      told = true;
    }
    await sleep(200);
  }
}

async function readLock(path: string): Promise<LockInfo | undefined> {
  try {
    const info = JSON.parse(await Deno.readTextFile(path));
    if (typeof info?.pid === "number" && typeof info?.at === "number") return info as LockInfo;
    return undefined;
  } catch {
    return undefined;
  }
}

async function lockAge(path: string): Promise<number | undefined> {
  try {
    const st = await Deno.stat(path);
    return st.mtime ? Date.now() - st.mtime.getTime() : undefined;
  } catch {
    return undefined;
  }
}

function isStale(info: LockInfo, staleMs: number): boolean {
  if (Date.now() - info.at > staleMs) return true;
  return info.host === hostname() && !isAlive(info.pid);
}
