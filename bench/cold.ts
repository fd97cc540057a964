/**
 * Cold full index time of repositories, as a user runs it (`cgraph index --full`), for this
 * checkout and optionally a baseline checkout: the figure behind "cold index speed drops by no
 * more than 10%". Each repository is indexed `--runs` times per checkout (alternating, so load
 * on the machine hits both alike); the best run counts.
 *
 * `deno run -A bench/cold.ts [--baseline DIR] [--runs 3] <path>...`
 */
import { parseArgs } from "node:util";
import { resolve } from "node:path";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: { baseline: { type: "string" }, runs: { type: "string", default: "3" } },
});
const here = resolve(new URL("..", import.meta.url).pathname);
const checkouts = [
  ["current", here],
  ...(values.baseline ? [["baseline", resolve(values.baseline)]] : []),
];

async function indexOnce(
  checkout: string,
  path: string,
  project: string,
): Promise<{ ms: number; files: number }> {
  const out = await new Deno.Command("deno", {
    args: [
      "run",
      "-A",
      "--unstable-raw-imports",
      "--config",
      `${checkout}/deno.json`,
      `${checkout}/main.ts`,
      "index",
      path,
      "--full",
      "--json",
      "--project",
      project,
      "--branch",
      "cold",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`${checkout}: ${new TextDecoder().decode(out.stderr)}`);
  const summary = JSON.parse(text);
  return { ms: summary.duration_ms as number, files: summary.files?.scanned ?? 0 };
}

console.log(`| repository | cold current | ${values.baseline ? "cold baseline | change |" : ""}`);
for (const path of positionals) {
  const best = new Map<string, number>();
  let files = 0;
  for (let i = 0; i < Number(values.runs); i++) {
    for (const [name, dir] of checkouts) {
      const project = `cold-${name}-${path.split("/").pop()}`;
      const run = await indexOnce(dir, path, project);
      files = run.files;
      best.set(name, Math.min(best.get(name) ?? Infinity, run.ms));
    }
  }
  const cur = best.get("current")!;
  const base = best.get("baseline");
  const cells = [`${cur.toFixed(0)} ms`];
  if (base !== undefined) {
    cells.push(`${base.toFixed(0)} ms`, `${(((cur - base) / base) * 100).toFixed(1)}%`);
  }
  console.log(`| ${path.split("/").pop()} (${files || "?"} files) | ${cells.join(" | ")} |`);
}
