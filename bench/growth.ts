/**
 * The cold index's growth curve (`deno task bench --growth 1000,10000[,100000]`, or alone:
 * `deno run -A --unstable-raw-imports bench/growth.ts [sizes...]`, default 1000 10000): for each
 * size a generated repository (bench/genrepo.ts) indexed cold by a separate `cgraph index --full`
 * process, as a user runs it. Per size: the command's wall time, the run's own time and files/s,
 * the CPU seconds of the process (all threads, the parse workers included) and of the database
 * meanwhile, and the process's peak RSS (`/usr/bin/time`'s maximum resident set, else VmHWM from
 * /proc: the workers are threads, so both count them). Figures are printed with the targets and
 * beside the previous run's (CGRAPH_BENCH_HISTORY, as bench/fresh.ts). Numbers, never assertions.
 */
import type { Db } from "../src/db/client.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { generateRepo } from "./genrepo.ts";
import { type Figures, readHistory, writeHistory } from "./util.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const ROOT = new URL("../", import.meta.url).pathname;
const MB = 1024 * 1024;

/** One cold `cgraph index --full` of a generated repository. */
export interface GrowthRun {
  files: number;
  /** The whole command as a user waits for it (process start, connection, the run), ms. */
  wallMs: number;
  /** The run's own time (`duration_ms`), ms. */
  runMs: number;
  /** files / run time. */
  filesPerSecond: number;
  /** User + system CPU seconds of the process, all threads (NaN when not measurable). */
  cpuS: number;
  /** CPU seconds the database spent meanwhile (NaN when it does not say). */
  dbCpuS: number;
  /** Peak resident set of the process, bytes. */
  peakRss: number;
  /** The 1-minute load average before and after. */
  load: [number, number];
  /** The run's phases (`timings_ms`: scan, parse, resolve, write, ...), ms. */
  phases: Record<string, number>;
  /** The graph's size in the database (GRAPH.MEMORY USAGE), MB; NaN when it does not say. */
  graphMb: number;
}

/** Peak RSS targets (issue #14), by size. */
const RSS_TARGET: Record<number, number> = {
  1000: 300 * MB,
  10_000: 1024 * MB,
  100_000: 2048 * MB,
};
/** Throughput targets (issue #14), by size. */
const FPS_TARGET: Record<number, number> = { 1000: 600, 10_000: 350 };
/** A 100,000-file repository indexes in under 5 minutes (the whole command). */
const WALL_TARGET: Record<number, number> = { 100_000: 300_000 };

const mb = (n: number) => `${Math.round(n / MB)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function loadAverage(): Promise<number> {
  try {
    return Number((await Deno.readTextFile("/proc/loadavg")).split(" ")[0]);
  } catch {
    return NaN;
  }
}

/** The database's CPU seconds so far (INFO cpu: the server's whole process), or NaN. */
async function dbCpu(db: Db): Promise<number> {
  try {
    const info = String(await db.command(["INFO", "cpu"]));
    const field = (k: string) => Number(info.match(new RegExp(`^${k}:([\\d.]+)`, "m"))?.[1]);
    return field("used_cpu_user") + field("used_cpu_sys");
  } catch {
    return NaN;
  }
}

/** The child's environment: the bench's database, whatever the caller's variables say. */
function childEnv(db: Db): Record<string, string> {
  const ep = db.endpoint;
  const auth = ep.password ? `:${encodeURIComponent(ep.password)}@` : "";
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(Deno.env.toObject())) {
    if (!/^(FALKORDB_|CGRAPH_DB$|CODE_GRAPH_)/.test(k)) env[k] = v;
  }
  return { ...env, FALKORDB_URL: `redis://${auth}${ep.host}:${ep.port}`, CGRAPH_LOG: "warn" };
}

/** Peak RSS and CPU of a running process from /proc (when /usr/bin/time is missing). */
function procSampler(pid: number): { stop: () => { peak: number; cpu: number } } {
  let peak = 0;
  let cpu = NaN;
  const tick = Number(Deno.env.get("CLK_TCK")) || 100;
  const sample = () => {
    try {
      const status = Deno.readTextFileSync(`/proc/${pid}/status`);
      const hwm = Number(status.match(/^VmHWM:\s+(\d+)\s+kB/m)?.[1]);
      if (hwm) peak = Math.max(peak, hwm * 1024);
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      cpu = (Number(fields[11]) + Number(fields[12])) / tick;
    } catch {
      // gone, or no /proc
    }
  };
  const id = setInterval(sample, 50);
  return {
    stop: () => {
      clearInterval(id);
      return { peak, cpu };
    },
  };
}

/** The graph's size in the database, MB (GRAPH.MEMORY USAGE), or NaN. */
async function graphMb(db: Db, graph: string): Promise<number> {
  try {
    const reply = await db.command<unknown[]>(["GRAPH.MEMORY", "USAGE", graph]);
    return Number(reply[reply.indexOf("total_graph_sz_mb") + 1]);
  } catch {
    return NaN;
  }
}

/** Indexes `dir` cold in a separate `cgraph index --full` process. */
export async function coldIndexProcess(db: Db, dir: string, project: string): Promise<GrowthRun> {
  const timer = await Deno.stat("/usr/bin/time").then(() => "/usr/bin/time", () => undefined);
  const out = timer ? await Deno.makeTempFile({ prefix: "cgraph-growth-" }) : undefined;
  const cgraph = [
    Deno.execPath(),
    "run",
    "-A",
    "--unstable-raw-imports",
    MAIN,
    "index",
    dir,
    "--full",
    "--json",
    "--project",
    project,
    "--branch",
    "cold",
  ];
  const argv = timer ? [timer, "-f", "%M %U %S", "-o", out!, ...cgraph] : cgraph;
  const load0 = await loadAverage();
  const cpu0 = await dbCpu(db);
  const t0 = performance.now();
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: ROOT,
    env: childEnv(db),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const sampler = timer ? undefined : procSampler(child.pid);
  const result = await child.output();
  const wallMs = performance.now() - t0;
  const sampled = sampler?.stop();
  const dbCpuS = (await dbCpu(db)) - cpu0;
  const load1 = await loadAverage();
  if (!result.success) {
    throw new Error(`cgraph index failed: ${new TextDecoder().decode(result.stderr).slice(-2000)}`);
  }
  const summary = JSON.parse(new TextDecoder().decode(result.stdout));
  let peakRss = sampled?.peak ?? NaN;
  let cpuS = sampled?.cpu ?? NaN;
  if (out) {
    // The last line: a killed or failing child has /usr/bin/time print a note first.
    const last = (await Deno.readTextFile(out)).trim().split("\n").pop() ?? "";
    const [kb, user, sys] = last.split(/\s+/).map(Number);
    peakRss = kb * 1024;
    cpuS = user + sys;
    await Deno.remove(out).catch(() => {});
  }
  const files = summary.files?.scanned ?? 0;
  const runMs = Number(summary.duration_ms);
  return {
    files,
    wallMs,
    runMs,
    filesPerSecond: files / Math.max(runMs / 1000, 0.001),
    cpuS,
    dbCpuS,
    peakRss,
    load: [load0, load1],
    phases: summary.timings_ms ?? {},
    graphMb: await graphMb(db, summary.graph),
  };
}

const COLUMNS: [string, number][] = [
  ["files", 7],
  ["command", 17],
  ["run", 17],
  ["files/s", 9],
  ["CPU s", 12],
  ["db CPU s", 8],
  ["peak RSS", 17],
  ["graph", 7],
  ["load", 9],
  ["targets", 0],
];

function row(cells: string[]): string {
  return `  ${cells.map((c, i) => c.padEnd(COLUMNS[i][1])).join(" | ")}`.trimEnd();
}

/**
 * Indexes a generated repository of each size cold in its own process; prints each size's figures
 * with the targets and the previous run's (in parentheses), and records them.
 */
export async function benchGrowth(db: Db, sizes: number[]): Promise<GrowthRun[]> {
  const previous = await readHistory();
  const runs: GrowthRun[] = [];
  const recorded: Figures = {};
  console.log(
    "cold index growth: a generated repository per size, indexed by its own `cgraph index --full`" +
      " (previous run in parentheses; graph: its size in the database, MB)",
  );
  console.log(row(COLUMNS.map(([name]) => name)));
  for (const n of sizes) {
    const dir = await Deno.makeTempDir({ prefix: "cgraph-bench-growth-" });
    const project = `bench-growth-${crypto.randomUUID().slice(0, 6)}`;
    try {
      await generateRepo(dir, n, n > 2000 ? 7 : 42);
      const run = await coldIndexProcess(db, dir, project);
      runs.push(run);
      const was = (k: string, f: (x: number) => string, now: string) => {
        const x = previous[`growth_${k}@${n}`];
        return x === undefined ? now : `${now} (${f(x)})`;
      };
      const fps = (x: number) => x.toFixed(0);
      const cpu = (x: number) => x.toFixed(1);
      const targets: string[] = [];
      if (RSS_TARGET[n]) targets.push(`RSS < ${mb(RSS_TARGET[n])}`);
      if (FPS_TARGET[n]) targets.push(`>= ${FPS_TARGET[n]} files/s`);
      if (WALL_TARGET[n]) targets.push(`command < ${s(WALL_TARGET[n])}`);
      console.log(row([
        String(run.files),
        was("wall", s, s(run.wallMs)),
        was("run", s, s(run.runMs)),
        was("fps", fps, fps(run.filesPerSecond)),
        was("cpu", cpu, cpu(run.cpuS)),
        cpu(run.dbCpuS),
        was("rss", mb, mb(run.peakRss)),
        Number.isFinite(run.graphMb) ? String(run.graphMb) : "-",
        `${run.load[0].toFixed(1)}-${run.load[1].toFixed(1)}`,
        targets.join(", "),
      ]));
      const phases = Object.entries(run.phases).filter(([, ms]) => ms >= 50);
      console.log(`    phases: ${phases.map(([k, ms]) => `${k} ${s(ms)}`).join(", ")}`);
      Object.assign(recorded, {
        [`growth_wall@${n}`]: run.wallMs,
        [`growth_run@${n}`]: run.runMs,
        [`growth_fps@${n}`]: run.filesPerSecond,
        [`growth_cpu@${n}`]: run.cpuS,
        [`growth_rss@${n}`]: run.peakRss,
      });
    } finally {
      await deleteGraphs(db, project).catch(() => {});
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  }
  if (runs.length > 1) {
    const [first, last] = [runs[0], runs[runs.length - 1]];
    const times = (a: number, b: number) => `${(b / a).toFixed(1)}x`;
    console.log(
      `  ${times(first.files, last.files)} the files: ${
        times(first.runMs, last.runMs)
      } the run's ` +
        `time, ${times(first.cpuS, last.cpuS)} the CPU, ${
          times(first.peakRss, last.peakRss)
        } the ` +
        `peak RSS; files/s at ${last.files} files is ${
          ((last.filesPerSecond / first.filesPerSecond) * 100).toFixed(0)
        }% of files/s at ${first.files} (target: within 20%, 1,000 to 100,000 files)`,
    );
  }
  await writeHistory(recorded);
  return runs;
}

if (import.meta.main) {
  const { ensureDb } = await import("../src/db/ensure.ts");
  const sizes = Deno.args.length ? Deno.args.map(Number).filter((n) => n > 0) : [1000, 10_000];
  const db = await ensureDb({ quiet: true });
  try {
    await benchGrowth(db, sizes);
  } finally {
    await db.close();
  }
}
