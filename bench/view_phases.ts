/**
 * Where a `cgraph view` draw's time goes, phase by phase: the server's answer (its Server-Timing),
 * the transfer, JSON.parse, loading sigma.js, the page's positions and graph, the renderer's start
 * (sigma.js past 1,000 nodes, else Cytoscape), two frames, the GPU's work until done (software
 * WebGL here) (app.js: state.lastDraw.phases), with the CPU time of server and browser; the median and
 * the best of `runs` loads after a first one. The repository is generated and indexed once and
 * kept (project `view-phases-N`, files under $TMPDIR/cgraph-view-phases/N), so a second run starts
 * at once; `hub` draws the bench's 500-caller function instead (project `view-phases-hub`).
 *
 *   deno run -A --unstable-raw-imports bench/view_phases.ts [files=10000] [level=file|dir|auto|hub]
 *     [runs=5] ['extra=URL&parameters', e.g. 'renderer=canvas' or 'lean_from=2']
 *     [--profile] [--trace] [--shot] [--drop]
 *
 * `--profile`: Chromium's CPU profiler over the last load, its top self-time functions printed and
 * the profile written for DevTools (sigma.js and Cytoscape are their minified builds: names are
 * short); `--trace`: a performance trace of the last load
 * (DevTools' Performance panel); `--shot`: a screenshot after it; `--drop`: deletes the kept
 * project and its files. Outputs go to $TMPDIR/cgraph-view-phases/.
 */
import { join } from "node:path";
import type { Db } from "../src/db/client.ts";
import { indexProject } from "../src/index/indexer.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { resolveProject } from "../src/project/identity.ts";
import { listProjects } from "../src/query/projects.ts";
import { serveView } from "../src/view/serve.ts";
import { chromiumPath, launch } from "../tests/helpers/browser.ts";
import { generateRepo } from "./genrepo.ts";
import { cpuMs, hubRepo } from "./view.ts";

const flags = new Set(Deno.args.filter((a) => a.startsWith("--")));
const args = Deno.args.filter((a) => !a.startsWith("--"));
const files = Number(args[0] ?? 10_000);
const level = args[1] ?? "file";
const runs = Number(args[2] ?? 5);
const extra = new URLSearchParams(args[3] ?? "");
const hub = level === "hub";
const project = hub ? "view-phases-hub" : `view-phases-${files}`;
const out = join(Deno.env.get("TMPDIR") ?? "/tmp", "cgraph-view-phases");
const dir = join(out, hub ? "hub" : String(files));
const name = join(out, `${hub ? "hub" : `${files}-${level}`}`);

const { ensureDb } = await import("../src/db/ensure.ts");
const db: Db = await ensureDb({ quiet: true });
try {
  if (flags.has("--drop")) {
    await deleteGraphs(db, project);
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  } else {
    await measure(db);
  }
} finally {
  await db.close();
}

async function measure(db: Db): Promise<void> {
  if (!(await listProjects(db)).projects.some((p) => p.project === project)) {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.mkdir(dir, { recursive: true });
    if (hub) await hubRepo(dir, 500);
    else await generateRepo(dir, files);
    const t = performance.now();
    await indexProject(db, await resolveProject(dir, { project, branch: "bench" }), { full: true });
    console.log(`indexed ${dir} in ${(performance.now() - t).toFixed(0)} ms`);
  }
  let url = "";
  const stop = new AbortController();
  const served = serveView({ defaultPath: dir, project, branch: "bench" }, {
    port: 0,
    onListen: (u) => (url = u),
    signal: stop.signal,
  });
  while (!url) await new Promise((r) => setTimeout(r, 20));
  const browser = await launch(chromiumPath()!);
  try {
    const page = await browser.newPage();
    page.on("pageerror", (err) => console.log("page error:", String(err)));
    const browserPid = browser.process()?.pid ?? -1;
    const u = new URL(url);
    if (hub) {
      u.searchParams.set("symbol", "app.hub.hub");
      u.searchParams.set("dir", "callers");
    } else {
      u.searchParams.set("mode", "modules");
      u.searchParams.set("level", level);
    }
    for (const [k, v] of extra) u.searchParams.set(k, v);

    type Row = Record<string, number>;
    const rows: Row[] = [];
    for (let i = 0; i <= runs; i++) {
      const last = i === runs;
      if (last && flags.has("--trace")) {
        await page.tracing.start({
          path: `${name}.trace.json`,
          categories: [
            "devtools.timeline",
            "disabled-by-default-devtools.timeline",
            "disabled-by-default-devtools.timeline.frame",
            "v8.execute",
            "blink",
            "cc",
          ],
        });
      }
      const cdp = last && flags.has("--profile") ? await page.createCDPSession() : undefined;
      if (cdp) {
        await cdp.send("Profiler.enable");
        await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
        await cdp.send("Profiler.start");
      }
      const cpu0 = cpuMs(browserPid);
      await page.goto(u.href);
      await page.waitForFunction(() => {
        // deno-lint-ignore no-explicit-any
        const v = (globalThis as any).cgraphView;
        return v?.ready && v.state.lastDraw;
      }, { timeout: 120_000 });
      const cpu1 = cpuMs(browserPid);
      if (last && flags.has("--trace")) {
        await page.tracing.stop();
        console.log(`trace: ${name}.trace.json`);
      }
      if (cdp) topSelf((await cdp.send("Profiler.stop")).profile);
      // deno-lint-ignore no-explicit-any
      const d = await page.evaluate(() => (globalThis as any).cgraphView.state.lastDraw);
      const p = d.phases;
      const row: Row = {
        total: d.ms,
        cpu: (cpu1 ?? NaN) - (cpu0 ?? NaN),
        server: p.server,
        transfer: p.headers - p.server + p.body,
        parse: p.parse,
        load: p.load,
        elements: p.elements,
        renderer: p.init + p.layout,
        frames: p.toFrame + p.paint,
        gpu: p.gpu,
        kB: p.bytes / 1000,
      };
      if (i > 0) rows.push(row);
      console.log(
        `${i ? `run ${i}` : "first"}`.padEnd(8),
        fmt(row),
        `(${d.nodes} nodes, ${d.edges} edges; ${
          d.renderer === "sigma" ? "sigma.js" : "Cytoscape"
        })`,
      );
    }
    if (flags.has("--shot")) {
      await page.screenshot({ path: `${name}.png` });
      console.log(`screenshot: ${name}.png`);
    }
    const keys = Object.keys(rows[0]);
    const pick = (f: (xs: number[]) => number) =>
      Object.fromEntries(keys.map((k) => [k, f(rows.map((r) => r[k]))]));
    console.log(
      "median".padEnd(8),
      fmt(pick((xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1])),
    );
    console.log("best".padEnd(8), fmt(pick((xs) => Math.min(...xs))));
    console.log(`load average ${Deno.loadavg().map((x) => x.toFixed(1)).join(" ")}`);
  } finally {
    await browser.close();
    stop.abort();
    await served;
  }
}

function fmt(row: Record<string, number>): string {
  return Object.entries(row).map(([k, v]) => `${k} ${Math.round(v)}`).join(" · ");
}

interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Prints the functions with the most self time; writes the profile for DevTools. */
function topSelf(profile: CpuProfile): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  (profile.samples ?? []).forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const k = `${f.functionName || "(anonymous)"} ${f.url.split("/").pop()}:${f.lineNumber}`;
    self.set(k, (self.get(k) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000);
  });
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40)) {
    console.log(`${ms.toFixed(1).padStart(8)} ms  ${k}`);
  }
  Deno.writeTextFileSync(`${name}.cpuprofile`, JSON.stringify(profile));
  console.log(`profile: ${name}.cpuprofile`);
}
