/**
 * Where the time of a one-shot run that loads a graph's stored state goes (dev tool): a generated
 * git repository of N files indexed cold, then `runs` one-shot one-file edits (as bench/fresh.ts's
 * CLI figure) and `runs` new worktrees with 10 changed files (as bench/branch.ts), each printed
 * with its wall time, this process's CPU time, the database server's CPU time (when it runs on
 * this host) and the run's phases; best and median at the end.
 * `deno run -A --unstable-raw-imports bench/profile_load.ts [files] [runs] [--only edit|branch]
 * [--keep DIR]`: with `--keep`, the repository and its graphs stay in DIR (a later run with the
 * same DIR skips generating and indexing it cold: run it under `--cpu-prof` to profile the runs
 * alone).
 */
import process from "node:process";
import { join } from "node:path";
import { ensureDb } from "../src/db/ensure.ts";
import { indexProject } from "../src/index/indexer.ts";
import { RACY_DEFAULT_MS } from "../src/index/stat_cache.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { resolveProject } from "../src/project/identity.ts";
import "../src/tools/registry.ts";
import { generateRepo } from "./genrepo.ts";
import { git } from "./util.ts";

const flag = (name: string) =>
  Deno.args.includes(name) ? Deno.args[Deno.args.indexOf(name) + 1] : undefined;
const args = Deno.args.filter((a, i) => !a.startsWith("--") && !Deno.args[i - 1]?.startsWith("--"));
const only = flag("--only") ?? "";
const keep = flag("--keep");
const n = Number(args[0] ?? 10_000);
const runs = Number(args[1] ?? 3);
const db = await ensureDb({ quiet: true });
const dir = keep ?? await Deno.makeTempDir({ prefix: "cgraph-profload-" });
const repo = join(dir, "repo");
const stateFile = join(dir, "state.json");
const kept = await Deno.readTextFile(stateFile).then((t) => JSON.parse(t) as { project: string })
  .catch(() => undefined);
const project = kept?.project ?? `profload-${crypto.randomUUID().slice(0, 6)}`;

/** The database server's pid when it runs here (its CPU time is read from /proc). */
function serverPid(port: number): number | undefined {
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name)) continue;
    try {
      const cmd = Deno.readTextFileSync(`/proc/${e.name}/cmdline`);
      if (cmd.includes("redis-server") && cmd.includes(`:${port}`)) return Number(e.name);
    } catch {
      // gone
    }
  }
  return undefined;
}
const pid = serverPid(db.endpoint.port);
const ticks = () => {
  if (!pid) return 0;
  const f = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) * 10; // ms at 100 Hz
};

interface Sample {
  wall: number;
  cpu: number;
  dbCpu: number;
  timings: Record<string, number>;
}

async function measure(fn: () => Promise<Record<string, number>>): Promise<Sample> {
  const c0 = process.cpuUsage();
  const d0 = ticks();
  const t = performance.now();
  const timings = await fn();
  const wall = performance.now() - t;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000, dbCpu: ticks() - d0, timings };
}

function show(label: string, s: Sample) {
  console.log(
    `${label}: wall ${s.wall.toFixed(0)} ms, cpu ${s.cpu.toFixed(0)} ms, db cpu ${s.dbCpu} ms ${
      JSON.stringify(s.timings)
    }`,
  );
}

function sum(label: string, xs: Sample[]) {
  if (!xs.length) return;
  const by = (k: "wall" | "cpu" | "dbCpu") => xs.map((x) => x[k]).sort((a, b) => a - b);
  const best = (k: "wall" | "cpu" | "dbCpu") => by(k)[0].toFixed(0);
  const med = (k: "wall" | "cpu" | "dbCpu") => by(k)[Math.floor(xs.length / 2)].toFixed(0);
  const phases: Record<string, number> = {};
  for (const x of xs) {
    for (const [k, v] of Object.entries(x.timings)) phases[k] = Math.min(phases[k] ?? v, v);
  }
  console.log(
    `${label} (${xs.length}): wall best ${best("wall")} / median ${med("wall")} ms, cpu best ${
      best("cpu")
    } / median ${med("cpu")} ms, db cpu best ${best("dbCpu")} ms; best phases ${
      JSON.stringify(phases)
    }`,
  );
}

try {
  let paths: string[];
  if (kept) {
    paths = JSON.parse(await Deno.readTextFile(join(dir, "paths.json")));
  } else {
    await Deno.mkdir(repo, { recursive: true });
    paths = await generateRepo(repo, n, n > 2000 ? 7 : 42);
    await git(repo, "init", "-q", "-b", "main");
    await git(repo, "add", "-A");
    await git(repo, "commit", "-qm", "generated");
    const ref = await resolveProject(repo, { project });
    const cold = await measure(async () => (await indexProject(db, ref, { full: true })).timings);
    show("cold", cold);
    await new Promise((r) => setTimeout(r, RACY_DEFAULT_MS + 100));
    await indexProject(db, ref);
    if (keep) {
      await Deno.writeTextFile(join(dir, "paths.json"), JSON.stringify(paths));
      await Deno.writeTextFile(stateFile, JSON.stringify({ project }));
    }
  }
  const ref = await resolveProject(repo, { project });
  const py = paths.filter((p) => p.endsWith(".py"));
  const stamp = Date.now().toString(36);
  const edits: Sample[] = [];
  const branches: Sample[] = [];
  if (only !== "branch") {
    for (let i = 0; i < runs; i++) {
      await Deno.writeTextFile(
        join(repo, py[i]),
        `\n\ndef cli_edit_${stamp}_${i}():\n    return 1\n`,
        {
          append: true,
        },
      );
      const s = await measure(async () => (await indexProject(db, ref)).timings);
      show(`edit ${i}`, s);
      edits.push(s);
    }
    const noop = await measure(async () => (await indexProject(db, ref)).timings);
    show("noop", noop);
    if (only !== "edit") {
      // The base as the branch bench leaves it: committed.
      await git(repo, "commit", "-qam", "edits");
      await indexProject(db, ref);
    }
  }
  if (only !== "edit") {
    const wt = join(dir, "wt");
    if (!(await Deno.stat(wt).catch(() => undefined))) {
      await git(repo, "worktree", "add", "-q", "-b", "feature", wt);
      for (const p of py.slice(0, 10)) {
        await Deno.writeTextFile(join(wt, p), "\n\ndef branch_extra():\n    return 1\n", {
          append: true,
        });
      }
    }
    for (let i = 0; i < runs; i++) {
      const wref = await resolveProject(wt, { project });
      await deleteGraphs(db, project, wref.branch);
      // A server at rest, as a user finds it: no background save or AOF rewrite running (the
      // last copy's often starts one).
      for (let k = 0; k < 600; k++) {
        const info = String(await db.command(["INFO", "persistence"]));
        if (!/^(rdb_bgsave|aof_rewrite|module_fork)_in_progress:1/m.test(info)) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const s = await measure(async () => {
        const r = await indexProject(db, wref);
        const rows = await db.query(
          wref.keys.graph,
          "MATCH (s:Symbol {name: 'branch_extra'}) RETURN count(s) AS n",
          {},
          { readOnly: true },
        );
        if (Number(rows[0]?.n) !== 10 || r.seededFrom !== "main") {
          console.log(`  (branch run: ${rows[0]?.n} found, seeded from ${r.seededFrom})`);
        }
        return r.timings;
      });
      show(`branch ${i}`, s);
      branches.push(s);
    }
  }
  sum("one-file edit", edits);
  sum("new worktree", branches);
} finally {
  if (!keep) {
    await deleteGraphs(db, project).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
  await db.close();
}
