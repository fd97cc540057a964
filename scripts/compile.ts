/**
 * `deno task compile [target...]`: release binaries, `dist/cgraph-<target>`, for
 * x86_64-unknown-linux-gnu, aarch64-unknown-linux-gnu, x86_64-apple-darwin, aarch64-apple-darwin
 * (default: all four).
 *
 * Every binary is compiled from dist/cgraph.js, the single-file build (scripts/build.ts), so its
 * inputs are exactly the bundle's: same code, grammars embedded as bytes, own parse-worker entry.
 * `deno compile` downloads the Deno runtime for each target (denort, from dl.deno.land) unless it
 * is already in DENO_DIR; without that download this task fails, and says so.
 *
 * `--skip-build` compiles the existing dist/cgraph.js (CI builds it once, then compiles).
 */
import { join } from "node:path";
import { build, BUNDLE, ROOT } from "./build.ts";

export const TARGETS = [
  "x86_64-unknown-linux-gnu",
  "aarch64-unknown-linux-gnu",
  "x86_64-apple-darwin",
  "aarch64-apple-darwin",
] as const;

export function binaryName(target: string): string {
  return `cgraph-${target}`;
}

async function compile(target: string): Promise<string> {
  const out = join(ROOT, "dist", binaryName(target));
  const r = await new Deno.Command(Deno.execPath(), {
    args: [
      "compile",
      "--no-config",
      "--no-lock",
      "-A",
      "--target",
      target,
      "-o",
      out,
      BUNDLE,
    ],
    cwd: ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  if (!r.success) throw new Error(`deno compile --target ${target} failed (exit ${r.code})`);
  return out;
}

if (import.meta.main) {
  const args = Deno.args.filter((a) => a !== "--skip-build");
  const unknown = args.filter((a) => !(TARGETS as readonly string[]).includes(a));
  if (unknown.length > 0) {
    console.error(`compile: unknown target ${unknown.join(", ")}; known: ${TARGETS.join(", ")}`);
    Deno.exit(2);
  }
  const targets = args.length > 0 ? args : [...TARGETS];
  try {
    if (!Deno.args.includes("--skip-build")) await build();
    for (const t of targets) console.error(`compiled ${await compile(t)}`);
  } catch (err) {
    console.error(`compile: ${err instanceof Error ? err.message : String(err)}`);
    Deno.exit(1);
  }
}
