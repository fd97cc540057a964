/**
 * Cold full index time of repositories, as a user runs it (`cgraph index --full`), for this
 * checkout and optionally a baseline checkout: the figure behind "cold index speed drops by no
 * more than 10%". Each repository is indexed `--runs` times per checkout (alternating, so load
 * on the machine hits both alike); the best run counts. Where `/usr/bin/time` exists the CPU
 * time of the whole process (user + system, all threads) is shown too: on a machine shared with
 * other jobs it moves far less than the wall-clock time does. "command" is the whole `cgraph index`
 * as a user waits for it (process start, database connection, the run).
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
const timer = await Deno.stat("/usr/bin/time").then(() => "/usr/bin/time", () => undefined);

interface Run {
  /** The index run's own time (`duration_ms`: from taking the lock to the graph written). */
  ms: number;
  /** The whole command, as a user waits for it: process start, database connection, the run. */
  wall: number;
  /** CPU seconds (user + system) of the whole process, when measurable. */
  cpu?: number;
  files: number;
}

async function indexOnce(checkout: string, path: string, project: string): Promise<Run> {
  const cgraph = [
    "deno",
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
  ];
  const cpuFile = timer ? await Deno.makeTempFile({ prefix: "cgraph-cold-" }) : undefined;
  const argv = timer ? [timer, "-f", "%U %S", "-o", cpuFile!, ...cgraph] : cgraph;
  const t0 = performance.now();
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    stdout: "piped",
    stderr: "piped",
  }).output();
  const wall = performance.now() - t0;
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`${checkout}: ${new TextDecoder().decode(out.stderr)}`);
  const summary = JSON.parse(text);
  let cpu: number | undefined;
  if (cpuFile) {
    const [user, sys] = (await Deno.readTextFile(cpuFile)).trim().split(/\s+/).slice(-2).map(
      Number,
    );
    if (Number.isFinite(user) && Number.isFinite(sys)) cpu = user + sys;
    await Deno.remove(cpuFile).catch(() => {});
  }
  return { ms: summary.duration_ms as number, wall, cpu, files: summary.files?.scanned ?? 0 };
}

const change = (cur: number, base: number) => `${(((cur - base) / base) * 100).toFixed(1)}%`;
const vs = (what: string) =>
  `${what} current | ${values.baseline ? `${what} baseline | change | ` : ""}`;
console.log(`| repository | ${vs("cold")}${vs("command")}${vs("CPU")}`);
for (const path of positionals) {
  const best = new Map<string, number>();
  const walls = new Map<string, number>();
  const cpu = new Map<string, number>();
  let files = 0;
  for (let i = 0; i < Number(values.runs); i++) {
    for (const [name, dir] of checkouts) {
      const project = `cold-${name}-${path.split("/").pop()}`;
      const run = await indexOnce(dir, path, project);
      files = run.files;
      best.set(name, Math.min(best.get(name) ?? Infinity, run.ms));
      walls.set(name, Math.min(walls.get(name) ?? Infinity, run.wall));
      if (run.cpu !== undefined) cpu.set(name, Math.min(cpu.get(name) ?? Infinity, run.cpu));
    }
  }
  const cur = best.get("current")!;
  const base = best.get("baseline");
  const cells = [`${cur.toFixed(0)} ms`];
  if (base !== undefined) cells.push(`${base.toFixed(0)} ms`, change(cur, base));
  const wallCur = walls.get("current")!;
  const wallBase = walls.get("baseline");
  cells.push(`${wallCur.toFixed(0)} ms`);
  if (wallBase !== undefined) cells.push(`${wallBase.toFixed(0)} ms`, change(wallCur, wallBase));
  const cpuCur = cpu.get("current");
  const cpuBase = cpu.get("baseline");
  cells.push(cpuCur === undefined ? "-" : `${cpuCur.toFixed(2)} s`);
  if (cpuBase !== undefined && cpuCur !== undefined) {
    cells.push(`${cpuBase.toFixed(2)} s`, change(cpuCur, cpuBase));
  }
  console.log(`| ${path.split("/").pop()} (${files || "?"} files) | ${cells.join(" | ")} |`);
}
