/**
 * `deno task build`: the single-file build, dist/cgraph.js.
 *
 * `deno bundle` of main.ts with every npm package and every grammar (imported as bytes by
 * grammars/mod.ts) inlined: the result needs no npm cache, no DENO_DIR content and no network, and
 * is its own parse-worker entry (see main.ts). Run it with `deno run -A dist/cgraph.js <command>`.
 *
 * One fix-up follows the bundler: esbuild resolves a `require()` of a dual package to its ESM
 * build ("module" field) and hands the CommonJS caller the namespace object, where Node would have
 * loaded the "main" build and returned its `module.exports` (falkordb -> @js-temporal/polyfill ->
 * `require("jsbi")` breaks on this). The bundle's `__toCommonJS` helper is patched so that an ESM
 * module exporting only `default` is required as that default, which is what its CommonJS twin
 * exports. The build fails if the helper is used but no longer has the shape patched here.
 *
 * `deno task compile` (scripts/compile.ts) turns this same file into the release binaries.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const BUNDLE = join(ROOT, "dist", "cgraph.js");

const HELPER =
  'var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);';
const PATCHED = "var __toCommonJS = (mod) => { " +
  'const keys = Object.keys(mod); if (keys.length === 1 && keys[0] === "default") ' +
  "return mod.default; " +
  'return __copyProps(__defProp({}, "__esModule", { value: true }), mod); };';

/** Applies the fix-up described above; throws when the bundle's helper changed shape. */
export function patchBundle(code: string): string {
  if (!code.includes("__toCommonJS(")) return code;
  if (!code.includes(HELPER)) {
    throw new Error(
      "the bundle uses __toCommonJS but its definition changed: revisit scripts/build.ts",
    );
  }
  return code.replace(HELPER, PATCHED);
}

export async function build(out = BUNDLE): Promise<string> {
  await Deno.mkdir(dirname(out), { recursive: true });
  const cmd = new Deno.Command(Deno.execPath(), {
    args: [
      "bundle",
      "--unstable-raw-imports",
      "--platform",
      "deno",
      "--quiet",
      "-o",
      out,
      join(ROOT, "main.ts"),
    ],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "piped",
  });
  const r = await cmd.output();
  const stderr = new TextDecoder().decode(r.stderr);
  if (!r.success) throw new Error(`deno bundle failed:\n${stderr}`);
  const code = await Deno.readTextFile(out);
  await Deno.writeTextFile(out, patchBundle(code));
  return out;
}

if (import.meta.main) {
  try {
    const out = await build(Deno.args[0] ?? BUNDLE);
    const size = (await Deno.stat(out)).size;
    console.error(`built ${out} (${(size / 1048576).toFixed(1)} MiB)`);
  } catch (err) {
    console.error(`build: ${err instanceof Error ? err.message : String(err)}`);
    Deno.exit(1);
  }
}
