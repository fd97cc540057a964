/**
 * Where a `cgraph view` draw's time goes, in Chromium's own CPU profiler (CDP Profiler): indexes
 * a generated repository of N files once (kept as project `prof-map-N`; `hub`: the bench's
 * 500-caller function, as `prof-hub`), serves the view, loads the module map (`level`: file, dir,
 * auto) or the neighbourhood, and prints the functions with the most self time; the profile is
 * written to /tmp/prof/ for DevTools.
 *
 *   deno run -A --unstable-raw-imports bench/view_profile.ts 3000 file ['lean_from=2&...']
 *   deno run -A --unstable-raw-imports bench/view_profile.ts 0 hub
 *
 * For readable names, point src/view/assets.ts at cytoscape.esm.mjs (not .min) while profiling.
 */
import type { Db } from "../src/db/client.ts";
import { indexProject } from "../src/index/indexer.ts";
import { resolveProject } from "../src/project/identity.ts";
import { serveView } from "../src/view/serve.ts";
import { chromiumPath, launch } from "../tests/helpers/browser.ts";
import { generateRepo } from "./genrepo.ts";
import { hubRepo } from "./view.ts";
import { listProjects } from "../src/query/projects.ts";

const files = Number(Deno.args[0] ?? 3000);
const level = Deno.args[1] ?? "file";
const extra = new URLSearchParams(Deno.args[2] ?? "");
const { ensureDb } = await import("../src/db/ensure.ts");
const db: Db = await ensureDb({ quiet: true });
const project = `prof-map-${files}`;
const dir = `/tmp/prof/repo-${files}`;
const hub = Deno.args[1] === "hub";
const have = (await listProjects(db)).projects.some((p) => p.project === project);
if (hub) {
  const hp = "prof-hub";
  if (!(await listProjects(db)).projects.some((p) => p.project === hp)) {
    await Deno.mkdir("/tmp/prof/hub", { recursive: true });
    await hubRepo("/tmp/prof/hub", 500);
    await indexProject(
      db,
      await resolveProject("/tmp/prof/hub", { project: hp, branch: "bench" }),
      { full: true },
    );
  }
} else if (!have) {
  await Deno.mkdir(dir, { recursive: true });
  await generateRepo(dir, files);
  await indexProject(db, await resolveProject(dir, { project, branch: "bench" }), { full: true });
}
let url = "";
const stop = new AbortController();
const served = serveView(
  hub
    ? { defaultPath: "/tmp/prof/hub", project: "prof-hub", branch: "bench" }
    : { defaultPath: dir, project, branch: "bench" },
  {
    port: 0,
    onListen: (u) => (url = u),
    signal: stop.signal,
  },
);
while (!url) await new Promise((r) => setTimeout(r, 20));
const browser = await launch(chromiumPath()!);
const page = await browser.newPage();
page.on("console", (m) => console.log("page:", m.text()));
const u = new URL(url);
if (hub) {
  u.searchParams.set("symbol", "app.hub.hub");
  u.searchParams.set("dir", "callers");
} else {
  u.searchParams.set("mode", extra.get("mode") ?? "modules");
  u.searchParams.set("level", level);
}
for (const [k, v] of extra) u.searchParams.set(k, v);
const wait = async () => {
  await page.waitForFunction(() => {
    // deno-lint-ignore no-explicit-any
    const v = (globalThis as any).cgraphView;
    return v?.ready && v.state.lastDraw;
  }, { timeout: 120_000 });
  // deno-lint-ignore no-explicit-any
  return await page.evaluate(() => (globalThis as any).cgraphView.state.lastDraw);
};
await page.goto(u.href);
console.log("first", await wait());
const client = await page.createCDPSession();
await client.send("Profiler.enable");
await client.send("Profiler.setSamplingInterval", { interval: 200 });
await client.send("Profiler.start");
await page.goto(u.href);
console.log("profiled", await wait());
const { profile } = await client.send("Profiler.stop");
const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = new Map<number, number>();
profile.samples!.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas![i] ?? 0)));
for (const [id, t] of dt) {
  const n = byId.get(id)!;
  const f = n.callFrame;
  const k = `${f.functionName || "(anon)"} ${
    f.url.split("/").pop()
  }:${f.lineNumber}:${f.columnNumber}`;
  self.set(k, (self.get(k) ?? 0) + t / 1000);
}
const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 40);
for (const [k, ms] of top) console.log(`${ms.toFixed(1).padStart(8)} ms  ${k}`);
await Deno.mkdir("/tmp/prof", { recursive: true });
await Deno.writeTextFile(`/tmp/prof/${level}-${files}.cpuprofile`, JSON.stringify(profile));
await browser.close();
stop.abort();
await served;
await db.close();
