/**
 * Per-user directories. Downloads (FalkorDB binaries) go to the cache; the embedded server's data,
 * password and pid/port file go to the data directory. Both can be moved by environment variables.
 */
import { join } from "node:path";

function home(): string {
  return Deno.env.get("HOME") ?? Deno.env.get("USERPROFILE") ?? Deno.cwd();
}

/** `CGRAPH_CACHE_DIR`, else the platform's cache directory + `/cgraph`. */
export function cacheDir(): string {
  const explicit = Deno.env.get("CGRAPH_CACHE_DIR");
  if (explicit) return explicit;
  if (Deno.build.os === "darwin") return join(home(), "Library", "Caches", "cgraph");
  if (Deno.build.os === "windows") {
    return join(Deno.env.get("LOCALAPPDATA") ?? home(), "cgraph", "cache");
  }
  return join(Deno.env.get("XDG_CACHE_HOME") ?? join(home(), ".cache"), "cgraph");
}

/** `CGRAPH_DATA_DIR`, else the platform's data directory + `/cgraph`. */
export function dataDir(): string {
  const explicit = Deno.env.get("CGRAPH_DATA_DIR");
  if (explicit) return explicit;
  if (Deno.build.os === "darwin") return join(home(), "Library", "Application Support", "cgraph");
  if (Deno.build.os === "windows") {
    return join(Deno.env.get("LOCALAPPDATA") ?? home(), "cgraph", "data");
  }
  return join(Deno.env.get("XDG_DATA_HOME") ?? join(home(), ".local", "share"), "cgraph");
}
