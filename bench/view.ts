/**
 * `cgraph view` drawing times, in a real headless Chromium against a real server and FalkorDB:
 * a 500-node neighbourhood (one function with 500 callers) and the module map of a generated
 * repository (`files` files, 10,000 by default), by file and as `auto` draws it; the by-file map
 * (drawn by sigma.js, WebGL, past 1,000 nodes) also as Cytoscape's canvas renderer draws it
 * (`&renderer=canvas`), for comparison. Each figure is the median of `runs` page loads after a
 * first one (shown apart: nothing is compiled yet), from the request to the API until the graph is
 * laid out and painted, with its phases: the server's answer (its Server-Timing), the transfer,
 * JSON.parse, loading sigma.js, the page's positions and graph, the renderer's start, two frames,
 * and the GPU's work on them until done. Chromium runs headless with software WebGL and canvas
 * (SwiftShader: there is no GPU here), so that last phase is CPU work, often the largest.
 * Skipped, and says so, without a Chromium.
 */
import { join } from "node:path";
import type { Db } from "../src/db/client.ts";
import { indexProject } from "../src/index/indexer.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { resolveProject } from "../src/project/identity.ts";
import { serveView } from "../src/view/serve.ts";
import { chromiumPath, launch } from "../tests/helpers/browser.ts";
import { generateRepo } from "./genrepo.ts";
import { fmtMs } from "./util.ts";

export interface ViewBenchOptions {
  /** Files of the generated repository whose module map is drawn. */
  files: number;
  runs: number;
}

/** A hub function and `callers` functions calling it, ten to a file. */
export async function hubRepo(dir: string, callers: number): Promise<void> {
  await Deno.mkdir(join(dir, "app"), { recursive: true });
  await Deno.writeTextFile(join(dir, "app/__init__.py"), "");
  await Deno.writeTextFile(join(dir, "app/hub.py"), "def hub(x):\n    return x\n");
  for (let f = 0; f < callers / 10; f++) {
    const body = Array.from(
      { length: 10 },
      (_, k) => `def caller_${f}_${k}(x):\n    return hub(x) + ${k}\n`,
    ).join("\n\n");
    await Deno.writeTextFile(join(dir, `app/c${f}.py`), `from app.hub import hub\n\n\n${body}`);
  }
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * CPU time (ms) used so far by this process (the server answering the API) and by the browser's
 * process tree, from /proc (Linux); undefined elsewhere. On a busy machine wall-clock times
 * stretch with the load; CPU time much less so.
 */
export function cpuMs(rootPid: number): number | undefined {
  const tick = 100; // USER_HZ on Linux
  const stat = (pid: number | "self") => {
    try {
      const text = Deno.readTextFileSync(`/proc/${pid}/stat`);
      const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
      return { ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) * (1000 / tick) };
    } catch {
      return undefined;
    }
  };
  const self = stat("self");
  if (!self) return undefined;
  const children = new Map<number, number[]>();
  const cpu = new Map<number, number>();
  for (const e of Deno.readDirSync("/proc")) {
    const pid = Number(e.name);
    if (!Number.isInteger(pid)) continue;
    const s = stat(pid);
    if (!s) continue;
    cpu.set(pid, s.cpu);
    children.set(s.ppid, [...(children.get(s.ppid) ?? []), pid]);
  }
  let total = self.cpu;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    total += cpu.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** A draw's phases (ms), as the page measures them (app.js: state.lastDraw.phases). */
interface Phases {
  /** The server's own time for the API call (Server-Timing). */
  server: number;
  /** From the request to the answer's headers, then its body read. */
  headers: number;
  body: number;
  parse: number;
  /** sigma.js and graphology loaded (their first draw on a page; 0 for Cytoscape). */
  load: number;
  /** Positions, and the graphology graph sigma draws. */
  elements: number;
  /** The renderer's start (new Sigma(), or cytoscape() with its elements), then its layout. */
  init: number;
  layout: number;
  /** To the frame the renderer paints in, then one more. */
  toFrame: number;
  paint: number;
  /** Then until the GPU (software WebGL here: SwiftShader) has drawn them. */
  gpu: number;
}

interface Draw {
  /** CPU time of server and browser for the whole load (page, assets, API, draw). */
  cpu?: number;
  ms: number;
  drawMs: number;
  layoutMs: number;
  nodes: number;
  edges: number;
  /** `sigma` or `canvas` (Cytoscape's). */
  renderer: string;
  phases: Phases;
}

export async function benchView(db: Db, opts: ViewBenchOptions): Promise<void> {
  const chromium = chromiumPath();
  if (!chromium) {
    console.log("view: skipped (no Chromium; apt-get install chromium)");
    return;
  }
  const hubDir = await Deno.makeTempDir({ prefix: "cgraph-bench-view-hub-" });
  const mapDir = await Deno.makeTempDir({ prefix: "cgraph-bench-view-map-" });
  const tag = crypto.randomUUID().slice(0, 6);
  const projects = [`bench-view-hub-${tag}`, `bench-view-map-${tag}`];
  const stop = new AbortController();
  let browser: Awaited<ReturnType<typeof launch>> | undefined;
  try {
    await hubRepo(hubDir, 500);
    await indexProject(
      db,
      await resolveProject(hubDir, { project: projects[0], branch: "bench" }),
      {
        full: true,
      },
    );
    await generateRepo(mapDir, opts.files);
    const t = performance.now();
    const summary = await indexProject(
      db,
      await resolveProject(mapDir, { project: projects[1], branch: "bench" }),
      { full: true },
    );
    const indexMs = performance.now() - t;

    let url = "";
    const served = serveView({ defaultPath: hubDir, project: projects[0], branch: "bench" }, {
      port: 0,
      onListen: (u) => (url = u),
      signal: stop.signal,
    });
    while (!url) await new Promise((r) => setTimeout(r, 20));
    browser = await launch(chromium);
    const page = await browser.newPage();
    const browserPid = browser.process()?.pid ?? -1;

    const measure = async (params: Record<string, string>): Promise<Draw[]> => {
      const out: Draw[] = [];
      for (let i = 0; i <= opts.runs; i++) {
        const u = new URL(url);
        for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
        const cpu0 = cpuMs(browserPid);
        await page.goto(u.href);
        await page.waitForFunction(
          () => {
            const v =
              (globalThis as { cgraphView?: { ready: boolean; state: { lastDraw?: Draw } } })
                .cgraphView;
            return v?.ready && v.state.lastDraw;
          },
          { timeout: 120_000 },
        );
        const draw = await page.evaluate(() =>
          (globalThis as unknown as { cgraphView: { state: { lastDraw: Draw } } }).cgraphView
            .state.lastDraw
        );
        const cpu1 = cpuMs(browserPid);
        if (cpu0 !== undefined && cpu1 !== undefined) draw.cpu = cpu1 - cpu0;
        out.push(draw);
      }
      return out;
    };
    /** The first load (cold: nothing compiled yet), then the median of the next `runs`. */
    const report = (label: string, all: Draw[], target: string) => {
      const [first, ...runs] = all;
      const med = (f: (d: Draw) => number) => fmtMs(median(runs.map(f)));
      const cpu = runs[0].cpu === undefined ? "" : `; CPU ${med((r) => r.cpu!)}`;
      const p = (r: Draw) => r.phases;
      console.log(
        `  ${label.padEnd(44)} ${med((r) => r.ms)}${target ? `   target ${target}` : ""}\n` +
          `    API ${med((r) => r.ms - r.drawMs)}: server ${med((r) => p(r).server)}, transfer ${
            med((r) => p(r).headers - p(r).server + p(r).body)
          }, JSON.parse ${med((r) => p(r).parse)}; page: load ${med((r) => p(r).load)}, elements ${
            med((r) => p(r).elements)
          }, ${runs[0].renderer === "sigma" ? "sigma" : "Cytoscape"} ${
            med((r) => p(r).init + p(r).layout)
          }, frames ${med((r) => p(r).toFrame + p(r).paint)}, GPU ${med((r) => p(r).gpu)}\n` +
          `    ${runs[0].nodes} nodes, ${runs[0].edges} edges; first load ${fmtMs(first.ms)}${cpu}`,
      );
    };
    console.log(`view (headless ${chromium}; median of ${opts.runs} loads after a first one):`);
    report(
      "500-node neighbourhood",
      await measure({ symbol: "app.hub.hub", dir: "callers", depth: "1" }),
      "< 1 s",
    );
    const map = { project: projects[1], branch: "bench", mode: "modules" };
    report(
      `module map, ${summary.files.scanned} files, by file`,
      await measure({ ...map, level: "file" }),
      "< 3 s",
    );
    report(`module map, ${summary.files.scanned} files, auto`, await measure(map), "< 3 s");
    report(
      `  the same by file, Cytoscape's canvas renderer`,
      await measure({ ...map, level: "file", renderer: "canvas" }),
      "",
    );
    console.log(`  (index of the ${summary.files.scanned}-file repository: ${fmtMs(indexMs)})`);
    const load = Deno.loadavg()[0].toFixed(1);
    console.log(
      `  (wall-clock times; load average ${load} on ${navigator.hardwareConcurrency} cores)`,
    );
    stop.abort();
    await served;
  } finally {
    stop.abort();
    await browser?.close();
    for (const p of projects) await deleteGraphs(db, p);
    await Deno.remove(hubDir, { recursive: true });
    await Deno.remove(mapDir, { recursive: true });
  }
}

if (import.meta.main) {
  const { ensureDb } = await import("../src/db/ensure.ts");
  const db = await ensureDb({ quiet: true });
  const files = Number(Deno.args[0] ?? 10_000);
  try {
    await benchView(db, { files, runs: 3 });
  } finally {
    await db.close();
  }
}
