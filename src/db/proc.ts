/**
 * Small process and port helpers for auto-init: every call has a deadline, nothing writes to stdout.
 */
import process from "node:process";

export interface RunResult {
  /** True when the program ran and exited 0. */
  ok: boolean;
  code: number | null;
  stdout: string;
  stderr: string;
  /** Why it did not run or did not finish: "not found", "timed out after 5000 ms", ... */
  error?: string;
}

/** Runs a program with stdin closed and a deadline; never throws. */
export async function runProgram(
  cmd: string,
  args: string[],
  timeoutMs: number,
  opts: { env?: Record<string, string>; cwd?: string } = {},
): Promise<RunResult> {
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(cmd, {
      args,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: opts.env,
      cwd: opts.cwd,
    }).spawn();
  } catch (err) {
    const why = err instanceof Deno.errors.NotFound
      ? "not found"
      : err instanceof Deno.errors.PermissionDenied
      ? "not executable (permission denied)"
      : (err as Error).message;
    return { ok: false, code: null, stdout: "", stderr: "", error: why };
  }
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      child.kill("SIGKILL");
    } catch {
      // already gone
    }
  }, timeoutMs);
  try {
    const out = await child.output();
    const dec = new TextDecoder();
    const result: RunResult = {
      ok: out.success && !timedOut,
      code: out.code,
      stdout: dec.decode(out.stdout),
      stderr: dec.decode(out.stderr),
    };
    if (timedOut) result.error = `timed out after ${timeoutMs} ms`;
    else if (!out.success) {
      result.error = firstLine(result.stderr) || firstLine(result.stdout) ||
        (out.signal ? `killed by ${out.signal}` : `exit code ${out.code}`);
    }
    return result;
  } finally {
    clearTimeout(timer);
  }
}

export function firstLine(text: string): string {
  return text.split("\n").map((l) => l.trim()).find((l) => l.length > 0) ?? "";
}

/** True when a process with this pid exists (signal 0 probe) and is not a zombie. */
export function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as { code?: string }).code !== "EPERM") return false;
  }
  if (Deno.build.os === "linux") {
    // An exited daemon stays a zombie until init reaps it; it is gone all the same.
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
    } catch {
      return false;
    }
  }
  return true;
}

/** The command line of a running process, or undefined when it is gone or unknown. */
export async function commandLineOf(pid: number): Promise<string | undefined> {
  if (!isAlive(pid)) return undefined;
  if (Deno.build.os === "linux") {
    try {
      const raw = await Deno.readTextFile(`/proc/${pid}/cmdline`);
      return raw.split("\0").join(" ").trim();
    } catch {
      return undefined;
    }
  }
  const r = await runProgram("ps", ["-o", "command=", "-p", String(pid)], 3000);
  return r.ok ? r.stdout.trim() || undefined : undefined;
}

/** Sends a signal; false when the process was already gone. */
export function signal(pid: number, sig: Deno.Signal): boolean {
  try {
    Deno.kill(pid, sig);
    return true;
  } catch {
    return false;
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `check` until it returns a value other than undefined, or the deadline passes. */
export async function poll<T>(
  check: () => Promise<T | undefined>,
  timeoutMs: number,
  intervalMs = 100,
): Promise<T | undefined> {
  const end = Date.now() + timeoutMs;
  while (true) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() >= end) return undefined;
    await sleep(intervalMs);
  }
}

/** True when nothing listens on 127.0.0.1:port (we could bind it). */
export function portIsFree(port: number): boolean {
  try {
    const listener = Deno.listen({ hostname: "127.0.0.1", port, transport: "tcp" });
    listener.close();
    return true;
  } catch {
    return false;
  }
}

/** A port that was free on 127.0.0.1 a moment ago. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0, transport: "tcp" });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** Parses "v=8.2.3" / "v8.2.3" / "7.2.4" out of a `--version` line. */
export function parseVersion(text: string): [number, number, number] | undefined {
  const m = /v=?(\d+)\.(\d+)(?:\.(\d+))?/.exec(text) ?? /\b(\d+)\.(\d+)\.(\d+)\b/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

export function versionAtLeast(v: [number, number, number], min: [number, number]): boolean {
  return v[0] > min[0] || (v[0] === min[0] && v[1] >= min[1]);
}
