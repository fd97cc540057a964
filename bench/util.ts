/** Small helpers the benchmarks share: percentiles, millisecond formatting, git in a temp repo. */

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
