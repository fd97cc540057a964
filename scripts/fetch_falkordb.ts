/**
 * Downloads (once) and verifies the FalkorDB binaries cgraph's embedded server uses, into the
 * per-user cache: the same code path auto-init takes on first use. Used by CI to fail early and
 * clearly when the registry is unreachable.
 */
import { ensureBundle } from "../src/db/download.ts";
import { describeError } from "../src/errors.ts";
import { cacheDir } from "../src/paths.ts";

try {
  const bundle = await ensureBundle(cacheDir());
  console.error(`FalkorDB binaries ready: ${bundle.server}, ${bundle.module}`);
} catch (err) {
  console.error(`cgraph: ${describeError(err)}`);
  Deno.exit(1);
}
