/**
 * Small helpers the benchmarks share: percentiles, millisecond formatting, git in a temp repo, the
 * previous run's figures.
 */
import { join } from "node:path";
import { cacheDir } from "../src/paths.ts";

/** The p-th percentile of an ascending list (nearest rank). */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export const fmtMs = (n: number) => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;

/** Runs git in `dir` as a fixed bench identity; throws with git's message on failure. */
export async function git(dir: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=bench", "-c", "user.email=bench@localhost", ...args],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(`git ${args[0]}: ${new TextDecoder().decode(out.stderr)}`);
}

/** Figures by name (`noop@1000`, `growth_rss@10000`, ...): what a run records for the next. */
export interface Figures {
  [name: string]: number;
}

/** Where the previous run's figures are kept: CGRAPH_BENCH_HISTORY, else the cache directory. */
export function historyPath(): string {
  return Deno.env.get("CGRAPH_BENCH_HISTORY") || join(cacheDir(), "bench-fresh.json");
}

/** The previous runs' figures (none when there is no history yet). */
export async function readHistory(): Promise<Figures> {
  try {
    return JSON.parse(await Deno.readTextFile(historyPath())) as Figures;
  } catch {
    return {};
  }
}

/** Records figures over the history's (read again now: another bench may have written since). */
export async function writeHistory(figures: Figures): Promise<void> {
  const now = { ...await readHistory(), ...figures };
  await Deno.mkdir(join(historyPath(), ".."), { recursive: true });
  await Deno.writeTextFile(historyPath(), JSON.stringify(now, null, 2));
}
