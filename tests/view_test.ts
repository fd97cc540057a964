/// <reference lib="dom" />
/**
 * `cgraph view` end to end: a real server (`cgraph view` and `cgraph mcp --http` as
 * subprocesses), a real FalkorDB, a real headless Chromium (Debian's package, driven by
 * puppeteer-core). The page's graphs are checked against the MCP tools' own JSON answers
 * (get_callers, impact_analysis, detect_circular), and a screenshot must show a drawn graph.
 *
 * Without a Chromium (CHROMIUM_PATH, /usr/bin/chromium, ...) the browser tests are skipped and
 * say so; CI installs the Debian package first (.ci/run), so there they run.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import type { Browser, Page } from "puppeteer-core";
import { Session } from "../src/query/session.ts";
import { execute } from "../src/tools/execute.ts";
import { toolByName } from "../src/tools/registry.ts";
import { chromiumPath, inkOf, launch } from "./helpers/browser.ts";
import { testDb } from "./helpers/db.ts";
import { dropProject, indexAs, uniqueName } from "./helpers/graph.ts";
import { childEnv, dbUrl, ROOT } from "./helpers/mcp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const CHROMIUM = chromiumPath();
if (!CHROMIUM) {
  console.warn(
    "view_test: no Chromium found (CHROMIUM_PATH, /usr/bin/chromium): the browser tests are " +
      "SKIPPED. Install it with `apt-get install -y chromium` (.ci/run does).",
  );
}
const TOKEN = "view-test-token-0123456789abcdef";
type Json = Record<string, unknown>;

interface Server {
  url: string;
  stop(): Promise<void>;
}

/** Spawns cgraph with `args`; resolves once `pattern` shows up on stdout or stderr. */
async function spawnCgraph(args: string[], env: Json, pattern: RegExp): Promise<Server> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-raw-imports", join(ROOT, "main.ts"), ...args],
    cwd: ROOT,
    env: env as Record<string, string>,
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let text = "";
  let found: (url: string) => void = () => {};
  let failed: (err: Error) => void = () => {};
  const url = new Promise<string>((res, rej) => ((found = res), (failed = rej)));
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      text += decoder.decode(chunk, { stream: true });
      const m = pattern.exec(text);
      if (m) found(m[1]);
    }
  };
  Promise.all([drain(child.stdout), drain(child.stderr)]).then(() =>
    failed(new Error(`cgraph ${args[0]} ended before listening:\n${text}`))
  );
  const timer = setTimeout(() => failed(new Error(`no URL after 60 s:\n${text}`)), 60_000);
  try {
    return {
      url: await url,
      async stop() {
        try {
          child.kill("SIGTERM");
        } catch {
          // already gone
        }
        await child.status;
      },
    };
  } finally {
    clearTimeout(timer);
  }
}

/** A copy of the Python fixture plus an import cycle, a test file and a decision record. */
async function makeRepo(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-view-" });
  const src = join(ROOT, "fixtures/python");
  const copy = async (from: string, to: string) => {
    await Deno.mkdir(to, { recursive: true });
    for await (const e of Deno.readDir(from)) {
      if (e.isDirectory) await copy(join(from, e.name), join(to, e.name));
      else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
    }
  };
  await copy(src, dir);
  await Deno.mkdir(join(dir, "cyc"));
  await Deno.writeTextFile(join(dir, "cyc/__init__.py"), "");
  await Deno.writeTextFile(
    join(dir, "cyc/alpha.py"),
    "from cyc.beta import beta\n\n\ndef alpha(n):\n    return beta(n - 1) if n else 0\n",
  );
  await Deno.writeTextFile(
    join(dir, "cyc/beta.py"),
    "from cyc.alpha import alpha\n\n\ndef beta(n):\n    return alpha(n - 1) if n else 1\n",
  );
  await Deno.mkdir(join(dir, "tests"));
  await Deno.writeTextFile(
    join(dir, "tests/test_store.py"),
    "from shop.db import store\n\n\ndef test_store():\n    assert store({'a': 1})\n",
  );
  await Deno.mkdir(join(dir, "docs/adr"), { recursive: true });
  await Deno.writeTextFile(
    join(dir, "docs/adr/0001-records-go-through-store.md"),
    "# 1. Records go through store\n\nStatus: accepted\nDate: 2026-01-02\n\n" +
      "Every write calls `shop.db.store`, never the database directly.\n",
  );
  return dir;
}

async function toolJson(s: Session, name: string, args: Json): Promise<Json> {
  const out = await execute(toolByName(name)!, s, { ...args, format: "json" });
  return out.json!;
}

/** Waits until the page has drawn its current view (or shown a message). */
async function settled(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const v =
        (globalThis as unknown as { cgraphView?: { ready: boolean; state: { busy: number } } })
          .cgraphView;
      return v && v.ready && v.state.busy === 0;
    },
    { timeout: 30_000 },
  );
}

interface Drawn {
  id: string;
  qualified_name: string;
  path: string;
  line: number;
  role: string;
  scc: number;
  depth?: number;
}

interface DrawnEdge {
  id: string;
  source: string;
  target: string;
  cycle?: boolean;
  count?: number;
}

/**
 * What the page exposes (app.js: window.cgraphView), whoever draws: `drawing` is Cytoscape's
 * (cytoscape_view.js) or sigma's (sigma_view.js). Casts inside page.evaluate use it (types only).
 */
interface Win {
  cgraphView: {
    ready: boolean;
    state: { busy: number; renderer: string; lean: boolean; note?: string };
    drawing: {
      renderer: string;
      nodes(): Drawn[];
      edges(): DrawnEdge[];
      renderedPosition(id: string): { x: number; y: number };
      zoom(): number;
      focused(): DrawnEdge[];
      sigma?: {
        getStageCanvas(): HTMLCanvasElement;
        getNodeDisplayData(id: string): unknown;
        getNodeDisplayedLabels(): Set<string>;
      };
    };
    png(): Promise<Blob>;
    svg(): string;
  };
}

async function drawnNodes(page: Page): Promise<Drawn[]> {
  return await page.evaluate(() => (globalThis as unknown as Win).cgraphView.drawing.nodes());
}

async function drawnEdges(page: Page): Promise<DrawnEdge[]> {
  return await page.evaluate(() => (globalThis as unknown as Win).cgraphView.drawing.edges());
}

/** Where node `id` is drawn, in the page's pixels. */
async function placeOf(page: Page, id: string): Promise<{ x: number; y: number }> {
  return await page.evaluate((nid: string) => {
    const p = (globalThis as unknown as Win).cgraphView.drawing.renderedPosition(nid);
    const box = document.getElementById("graph")!.getBoundingClientRect();
    return { x: box.left + p.x, y: box.top + p.y };
  }, id);
}

/** Clicks a node with the mouse, at the place it is drawn. */
async function clickNode(page: Page, id: string, count = 1): Promise<void> {
  const pos = await placeOf(page, id);
  await page.mouse.click(pos.x, pos.y, { count });
}

/** Whether every drawn node lies inside the graph's box (the view was fitted to the graph). */
async function allInView(page: Page): Promise<{ inside: number; all: number }> {
  return await page.evaluate(() => {
    const d = (globalThis as unknown as Win).cgraphView.drawing;
    const box = document.getElementById("graph")!.getBoundingClientRect();
    const ps = d.nodes().map((n) => d.renderedPosition(n.id));
    const inside = ps.filter((p) =>
      p.x >= 0 && p.x <= box.width && p.y >= 0 && p.y <= box.height
    ).length;
    return { inside, all: ps.length };
  });
}

const key = (n: { qualified_name: string; path: string; line: number }) =>
  `${n.qualified_name} ${n.path}:${n.line}`;

Deno.test({
  name: "view: search, callers = get_callers, impact, cycle map, side panel, screenshot, 401",
  ignore: !CHROMIUM,
  ...opts,
  async fn(t) {
    const db = await testDb();
    const project = uniqueName("t-view");
    const dir = await makeRepo();
    let server: Server | undefined;
    let browser: Browser | undefined;
    try {
      await indexAs(db, dir, project);
      const s = new Session({ defaultPath: dir, connect: testDb, cacheMs: 0 });
      const base = { project, branch: "test" };
      await toolJson(s, "remember", {
        ...base,
        symbol: "shop.db.store",
        file: "shop/db.py",
        text: "store retries once on a dropped connection",
        kind: "note",
      });
      server = await spawnCgraph(
        ["view", dir, "--no-open", "--port", "0", "--project", project, "--branch", "test"],
        childEnv({ FALKORDB_URL: dbUrl(db) }),
        /cgraph view: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})/,
      );
      const url = new URL(server.url);
      const origin = url.origin;
      browser = await launch(CHROMIUM!);
      const page = await browser.newPage();

      await t.step("a wrong or missing token is refused with 401", async () => {
        for (const path of ["/?token=wrong", "/", "/api/projects", "/api/search?q=store&token=x"]) {
          const res = await fetch(origin + path);
          await res.body?.cancel();
          assertEquals(res.status, 401, path);
        }
        const res = await fetch(`${origin}/api/projects`, {
          headers: { authorization: "Bearer nope" },
        });
        await res.body?.cancel();
        assertEquals(res.status, 401);
        const nav = await page.goto(`${origin}/?token=wrong`);
        assertEquals(nav?.status(), 401);
        assert((await page.content()).includes("401 Unauthorized"));
      });

      await page.goto(server.url);
      await settled(page);

      await t.step(
        "search ranks as search_code; clicking a hit draws its callers = get_callers",
        async () => {
          await page.type("#search", "store");
          await page.keyboard.press("Enter");
          await page.waitForSelector("#results li");
          const shown = await page.$$eval(
            "#results li",
            (lis) => lis.map((li) => (li as HTMLElement).dataset.qualifiedName),
          );
          const search = await toolJson(s, "search_code", { ...base, query: "store", limit: 20 });
          assertEquals(
            shown,
            (search.hits as { node: { qualified_name: string } }[]).map((h) =>
              h.node.qualified_name
            ),
          );
          await page.click('#results li[data-qualified-name="shop.db.store"]');
          await settled(page);
          const nodes = await drawnNodes(page);
          const callers = await toolJson(s, "get_callers", {
            ...base,
            symbol: "shop.db.store",
            file: "shop/db.py",
          });
          const group = (callers.groups as { links: { node: Drawn }[] }[])[0];
          const want = group.links.map((l) => key(l.node)).sort();
          assert(want.length >= 3, `the fixture has callers of store: ${want}`);
          assertEquals(nodes.filter((n) => n.depth !== 0).map(key).sort(), want);
          assertEquals(nodes.filter((n) => n.depth === 0).map(key), [
            "shop.db.store shop/db.py:13",
          ]);
          const cli = await page.$eval("#equivalent-cli", (e) => e.textContent);
          assert(cli?.startsWith("cgraph callers shop.db.store --file shop/db.py --depth 1"), cli!);
          assert(cli?.includes(`--project ${project} --branch test`), cli!);
          // The test file's caller is drawn, and marked as a test.
          assertEquals(nodes.find((n) => n.path === "tests/test_store.py")?.role, "test");
          // Placed before Cytoscape starts, the view fitted from the positions: all in sight.
          const seen = await allInView(page);
          assertEquals(seen.inside, seen.all);
        },
      );

      await t.step("double click expands a caller with its own callers", async () => {
        const nodes = await drawnNodes(page);
        const save = nodes.find((n) => n.qualified_name === "shop.models.User.save")!;
        assert(save, "User.save calls store");
        await clickNode(page, save.id, 2);
        await page.waitForFunction(
          (n: number) => (globalThis as unknown as Win).cgraphView.drawing.nodes().length > n,
          { timeout: 15_000 },
          nodes.length,
        );
        const after = (await drawnNodes(page)).map((n) => n.qualified_name);
        const more = await toolJson(s, "get_callers", { ...base, symbol: "shop.models.User.save" });
        for (const l of (more.groups as { links: { node: Drawn }[] }[])[0].links) {
          assert(after.includes(l.node.qualified_name), `${l.node.qualified_name} after expanding`);
        }
      });

      await t.step(
        "the side panel shows signature, doc, source, file:line, notes, decisions",
        async () => {
          const center = (await drawnNodes(page)).find((n) => n.depth === 0)!;
          await clickNode(page, center.id);
          // The panel of this node, loaded (not the one the double click before opened).
          await page.waitForFunction(
            (qn: string) =>
              document.querySelector("#panel-body h2")?.textContent === qn &&
              document.getElementById("panel-body")?.textContent?.includes("decisions ("),
            { timeout: 20_000 },
            center.qualified_name,
          );
          const text = await page.$eval("#panel-body", (e) => e.textContent ?? "");
          for (
            const want of [
              "shop.db.store",
              "shop/db.py:13-17",
              "def store(record)",
              "Persist one record.",
              "store retries once on a dropped connection",
              "Records go through store",
              "cgraph memory shop.db.store --file shop/db.py",
            ]
          ) assert(text.includes(want), `panel shows '${want}':\n${text}`);
        },
      );

      await t.step("impact mode draws impact_analysis's nodes by depth, tests marked", async () => {
        await page.click('#modes button[data-mode="impact"]');
        await settled(page);
        const nodes = await drawnNodes(page);
        const r = await toolJson(s, "impact_analysis", {
          ...base,
          symbol: "shop.db.store",
          file: "shop/db.py",
          depth: 3,
          limit: 500,
        });
        const group = (r.groups as { files: { links: { node: Drawn; depth: number }[] }[] }[])[0];
        const links = group.files.flatMap((f) => f.links);
        assertEquals(
          nodes.filter((n) => n.depth !== 0).map((n) => `${key(n)} @${n.depth}`).sort(),
          links.map((l) => `${key(l.node)} @${l.depth}`).sort(),
        );
        assert(nodes.some((n) => n.role === "test"), "a test is among the affected");
        const legend = await page.$eval("#legend", (e) => e.textContent ?? "");
        assert(legend.includes("tests / examples"), legend);
      });

      await t.step(
        "the module map highlights the import cycle (as detect_circular finds it)",
        async () => {
          // The picker lists the indexed projects and branches; the API reads the one picked.
          const value = JSON.stringify([project, "test"]);
          const options = await page.$$eval("#project option", (os) => os.map((o) => o.value));
          assert(options.includes(value), options.join("\n"));
          await page.select("#project", value);
          await page.click('#modes button[data-mode="modules"]');
          await settled(page);
          const nodes = await drawnNodes(page);
          const inCycle = nodes.filter((n) => n.scc >= 0).map((n) => n.path).sort();
          const r = await toolJson(s, "detect_circular", { ...base, relation: "IMPORTS" });
          const cyclic = [
            ...new Set(
              (r.components as { members: { path: string }[] }[]).flatMap((c) =>
                c.members.map((n) => n.path)
              ),
            ),
          ].sort();
          assertEquals(inCycle, cyclic);
          assertEquals(inCycle, ["cyc/alpha.py", "cyc/beta.py"]);
          const edges = await drawnEdges(page);
          assertEquals(
            edges.filter((e) => e.cycle).length,
            2,
          );
          assert(nodes.some((n) => n.path === "shop/db.py"), "files outside cycles are drawn too");
          await page.click("#cycles-only");
          await settled(page);
          assertEquals((await drawnNodes(page)).map((n) => n.path).sort(), cyclic);
        },
      );

      await t.step(
        "past the lean limit sigma.js draws the map in WebGL: every file and import the API " +
          "answers, cycles red, labels; hover names a file, a click marks its imports and opens " +
          "its panel; PNG and SVG exports; the wheel zooms, a drag pans",
        async () => {
          const u = new URL(server!.url);
          u.searchParams.set("mode", "modules");
          u.searchParams.set("level", "file");
          await page.goto(u.href);
          await settled(page);
          const key = (e: DrawnEdge) => `${e.source}>${e.target}`;
          const all = (await drawnEdges(page)).map(key).sort();
          assert(all.length > 2, all.join("\n"));
          // Past the lean limit (1,000 nodes; 2 here): sigma.js, on WebGL 2.
          u.searchParams.set("lean_from", "2");
          await page.goto(u.href);
          await settled(page);
          const drawn = await page.evaluate(() => {
            const v = (globalThis as unknown as Win).cgraphView;
            const ids = v.drawing.nodes().map((n) => n.id);
            return {
              renderer: v.state.renderer,
              lean: v.state.lean,
              note: v.state.note ?? null,
              ids: ids.sort(),
              // Nodes sigma itself holds display data for: those it draws.
              bySigma: ids.filter((id) => v.drawing.sigma!.getNodeDisplayData(id)).length,
              webgl2: !!v.drawing.sigma!.getStageCanvas().getContext("webgl2"),
              labels: v.drawing.sigma!.getNodeDisplayedLabels().size,
            };
          });
          assertEquals(
            [drawn.renderer, drawn.lean, drawn.note, drawn.webgl2],
            ["sigma", true, null, true],
          );
          const answer = await page.evaluate(async () =>
            await (await fetch("api/modules?level=file")).json()
          ) as { nodes: Drawn[]; edges: DrawnEdge[] };
          assertEquals(drawn.ids, answer.nodes.map((n) => n.id).sort());
          assertEquals(drawn.bySigma, answer.nodes.length);
          assertEquals((await drawnEdges(page)).map(key).sort(), all);
          assertEquals(answer.edges.map(key).sort(), all);
          assert(drawn.labels > 0, "a map this small is zoomed in enough for labels");
          const status = await page.$eval("#status", (e) => e.textContent ?? "");
          assert(status.includes(`${all.length} edges`), status);
          assert(status.includes("drawn by sigma.js"), status);
          const seen = await allInView(page);
          assertEquals(seen.inside, seen.all);
          // Pixels in sigma's WebGL canvas: files in their languages' colours, the cycle red.
          const stage = (await page.evaluateHandle(() =>
            (globalThis as unknown as Win).cgraphView.drawing.sigma!.getStageCanvas()
          )).asElement()!;
          const ink = await inkOf(browser!, await stage.screenshot({ type: "png" }) as Uint8Array);
          assert(ink.ink > 500 && ink.colors >= 3, `sigma drew: ${JSON.stringify(ink)}`);
          assert(ink.red > 50, `the import cycle in red: ${JSON.stringify(ink)}`);
          // Hovering a file names it; a click marks its imports and opens its panel.
          const nodes = await drawnNodes(page);
          const db = nodes.find((n) =>
            n.path === "shop/db.py"
          )!;
          const at = await placeOf(page, db.id);
          await page.mouse.move(at.x, at.y);
          await page.waitForFunction(
            () => document.getElementById("graph")!.title.includes("shop/db.py"),
            { timeout: 10_000 },
          );
          await clickNode(page, db.id);
          await page.waitForFunction(
            () => document.getElementById("panel-body")!.textContent!.includes("shop/db.py"),
            { timeout: 15_000 },
          );
          const focused = await page.evaluate(() =>
            (globalThis as unknown as Win).cgraphView.drawing.focused()
          );
          const mine = all.filter((k) => k.startsWith(`${db.id}>`) || k.endsWith(`>${db.id}`));
          assert(mine.length > 0, `shop/db.py has imports: ${all.join(" ")}`);
          assertEquals(focused.map(key).sort(), mine);
          // Exports: the view as PNG, every node and edge in the SVG.
          const exported = await page.evaluate(async () => {
            const blob = await (globalThis as unknown as Win).cgraphView.png();
            return Array.from(new Uint8Array(await blob.arrayBuffer()));
          });
          const pngInk = await inkOf(browser!, new Uint8Array(exported));
          assert(pngInk.ink > 500 && pngInk.red > 50, `sigma's PNG: ${JSON.stringify(pngInk)}`);
          const svg = await page.evaluate(() => (globalThis as unknown as Win).cgraphView.svg());
          assertEquals(svg.match(/<g>/g)?.length, nodes.length);
          assertEquals(svg.match(/<line /g)?.length, all.length);
          // The wheel zooms; a drag pans (and is no click: no panel opens).
          await page.click("#panel-close");
          const zoom = () =>
            page.evaluate(() => (globalThis as unknown as Win).cgraphView.drawing.zoom());
          const before = await zoom();
          const box = (await (await page.$("#graph"))!.boundingBox())!;
          await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
          await page.mouse.wheel({ deltaY: -300 });
          await page.waitForFunction(
            (z: number) => (globalThis as unknown as Win).cgraphView.drawing.zoom() > z * 1.2,
            { timeout: 5_000 },
            before,
          );
          await new Promise((r) => setTimeout(r, 400));
          const from = await placeOf(page, db.id);
          await page.mouse.move(box.x + 20, box.y + 20);
          await page.mouse.down();
          await page.mouse.move(box.x + 80, box.y + 50, { steps: 4 });
          await page.mouse.up();
          await new Promise((r) => setTimeout(r, 400));
          const to = await placeOf(page, db.id);
          assert(to.x - from.x >= 55 && to.y - from.y >= 25, JSON.stringify({ from, to }));
          assert(await page.$eval("#panel", (e) => (e as HTMLElement).hidden), "no panel");
        },
      );

      await t.step(
        "Cytoscape's canvas draws a large map when asked (renderer=canvas) or when the browser " +
          "has no WebGL, and the page says why",
        async () => {
          const u = new URL(server!.url);
          u.searchParams.set("mode", "modules");
          u.searchParams.set("level", "file");
          u.searchParams.set("lean_from", "2");
          await page.goto(u.href);
          await settled(page);
          const key = (e: DrawnEdge) => `${e.source}>${e.target}`;
          const all = (await drawnEdges(page)).map(key).sort();
          const state = (p: Page) =>
            p.evaluate(() => {
              const { renderer, lean, note } = (globalThis as unknown as Win).cgraphView.state;
              return { renderer, lean, note: note ?? null };
            });
          u.searchParams.set("renderer", "canvas");
          await page.goto(u.href);
          await settled(page);
          assertEquals(await state(page), { renderer: "canvas", lean: true, note: null });
          assertEquals((await drawnEdges(page)).map(key).sort(), all);
          // A browser without WebGL (the page's canvas gives it no context).
          u.searchParams.delete("renderer");
          const plain = await browser!.newPage();
          try {
            await plain.evaluateOnNewDocument(() => {
              const proto = HTMLCanvasElement.prototype as unknown as {
                getContext(type: string, ...more: unknown[]): unknown;
              };
              const get = proto.getContext;
              proto.getContext = function (this: unknown, type: string, ...more: unknown[]) {
                return /webgl/.test(type) ? null : get.call(this, type, ...more);
              };
            });
            await plain.goto(u.href);
            await settled(plain);
            const s = await state(plain);
            assertEquals([s.renderer, s.lean], ["canvas", true]);
            assert(s.note?.includes("WebGL"), String(s.note));
            const shown = await plain.$eval("#message:not([hidden])", (e) => e.textContent ?? "");
            assert(shown.includes("no WebGL"), shown);
            assertEquals((await drawnEdges(plain)).map(key).sort(), all);
            const shot = await (await plain.$("#graph"))!.screenshot({ type: "png" }) as Uint8Array;
            const ink = await inkOf(browser!, shot);
            assert(ink.ink > 100, `Cytoscape drew: ${JSON.stringify(ink)}`);
          } finally {
            await plain.close();
          }
        },
      );

      await t.step(
        "a neighbourhood past the lean limit: sigma.js, a double click on a caller adds its callers",
        async () => {
          const n = new URL(server!.url);
          n.searchParams.set("symbol", "shop.db.store");
          n.searchParams.set("lean_from", "2");
          await page.goto(n.href);
          await settled(page);
          assertEquals(
            await page.evaluate(() => (globalThis as unknown as Win).cgraphView.state.renderer),
            "sigma",
          );
          const drawn = await drawnNodes(page);
          const save = drawn.find((d) => d.qualified_name === "shop.models.User.save")!;
          // A double click lands where the node is drawn when it is sent: under load the camera
          // may still be moving, so a click that expanded nothing is sent again where it is now.
          for (let attempt = 1;; attempt++) {
            await clickNode(page, save.id, 2);
            try {
              await page.waitForFunction(
                (k: number) => (globalThis as unknown as Win).cgraphView.drawing.nodes().length > k,
                { timeout: 5_000 },
                drawn.length,
              );
              break;
            } catch (err) {
              if (attempt === 3) throw err;
            }
          }
          const after = (await drawnNodes(page)).map((d) => d.qualified_name);
          const more = await toolJson(s, "get_callers", {
            ...base,
            symbol: "shop.models.User.save",
          });
          for (const l of (more.groups as { links: { node: Drawn }[] }[])[0].links) {
            assert(
              after.includes(l.node.qualified_name),
              `${l.node.qualified_name} after expanding`,
            );
          }
        },
      );

      await t.step(
        "the module map draws every file, those without imports too, and says how many have",
        async () => {
          const u = new URL(server!.url);
          u.searchParams.set("mode", "modules");
          u.searchParams.set("level", "file");
          await page.goto(u.href);
          await settled(page);
          const nodes = await drawnNodes(page);
          const paths = nodes.map((n) => n.path);
          // Empty __init__.py files import nothing and nothing imports them.
          assert(paths.includes("cyc/__init__.py"), paths.join("\n"));
          const status = await page.$eval("#status", (e) => e.textContent ?? "");
          const m = /(\d+) files \((\d+) with imports\)/.exec(status);
          assert(m, status);
          assertEquals(Number(m[1]), nodes.length);
          assert(Number(m[2]) < nodes.length, status);
          const seen = await allInView(page);
          assertEquals(seen.inside, seen.all);
        },
      );

      await t.step(
        "auto past its limit: at most that many groups, every file in one, imports summed",
        async () => {
          const u = new URL(server!.url);
          u.searchParams.set("mode", "modules");
          u.searchParams.set("level", "file");
          await page.goto(u.href);
          await settled(page);
          const files = await drawnNodes(page);
          const pathOf = new Map(files.map((n) => [n.id, n.path]));
          const imports = (await drawnEdges(page)) as {
            source: string;
            target: string;
            count?: number;
          }[];
          // The same map as `auto` draws a repository of more than `groups` files.
          u.searchParams.set("level", "auto");
          u.searchParams.set("groups", "4");
          await page.goto(u.href);
          await settled(page);
          const groups = (await drawnNodes(page)) as (Drawn & { kind: string; files?: number })[];
          assert(groups.length <= 4 && groups.length >= 2, groups.map((g) => g.path).join(" "));
          const status = await page.$eval("#status", (e) => e.textContent ?? "");
          assert(status.includes(`in ${groups.length} groups`), status);
          // A group is a file, a directory (`shop`) or a directory's own files by prefix (`*`,
          // `pkg/mod1*`).
          const dirOf = (p: string) => p.slice(0, Math.max(0, p.lastIndexOf("/")));
          const groupOf = (path: string) =>
            groups.find((g) =>
              g.kind !== "Directory"
                ? g.path === path
                : g.path.endsWith("*")
                ? dirOf(path) === dirOf(g.path) && path.startsWith(g.path.slice(0, -1))
                : g.path === "." || path.startsWith(`${g.path}/`)
            )!.id;
          // Every file in exactly one group.
          assertEquals(
            groups.reduce((sum, g) => sum + (g.kind === "Directory" ? g.files! : 1), 0),
            files.length,
          );
          const want = new Map<string, number>();
          for (const e of imports) {
            const [a, b] = [groupOf(pathOf.get(e.source)!), groupOf(pathOf.get(e.target)!)];
            if (a !== b) want.set(`${a}>${b}`, (want.get(`${a}>${b}`) ?? 0) + (e.count ?? 1));
          }
          const got = (await drawnEdges(page)) as {
            source: string;
            target: string;
            count?: number;
          }[];
          assertEquals(
            new Map(got.map((e) => [`${e.source}>${e.target}`, e.count ?? 1])),
            want,
          );
          assert(want.size > 0, "imports between groups");
          // By directory: one node per directory, all its files counted.
          u.searchParams.set("level", "dir");
          await page.goto(u.href);
          await settled(page);
          const dirs = (await drawnNodes(page)) as (Drawn & { kind: string; files?: number })[];
          const dirOfFile = new Set(files.map((f) => dirOf(f.path) || "."));
          assertEquals(dirs.map((d) => d.path).sort(), [...dirOfFile].sort());
          assertEquals(dirs.reduce((sum, d) => sum + d.files!, 0), files.length);
          await page.goto(server!.url);
          await settled(page);
        },
      );

      await t.step("call cycles: the mutual recursion", async () => {
        await page.click('#modes button[data-mode="call-cycles"]');
        await settled(page);
        const names = (await drawnNodes(page)).map((n) => n.qualified_name).sort();
        assertEquals(names, ["cyc.alpha.alpha", "cyc.beta.beta"]);
      });

      await t.step(
        "a screenshot shows a drawn graph; SVG and PNG exports have it too",
        async () => {
          await page.click('#modes button[data-mode="modules"]');
          await page.click("#cycles-only");
          await settled(page);
          const graph = (await page.$("#graph"))!;
          const png = await graph.screenshot({ type: "png" }) as Uint8Array;
          const ink = await inkOf(browser!, png);
          // Nodes in several kind / language colours, edges, labels: far from a blank canvas.
          assert(ink.ink > 2000, `drawn pixels: ${JSON.stringify(ink)}`);
          assert(ink.colors >= 6, `distinct colours: ${JSON.stringify(ink)}`);
          const nodes = await drawnNodes(page);
          const svg = await page.evaluate(() => (globalThis as unknown as Win).cgraphView.svg());
          assert(svg.startsWith("<svg"), svg.slice(0, 80));
          assertEquals(svg.match(/<g>/g)?.length, nodes.length);
          const exported = await page.evaluate(async () => {
            const blob = await (globalThis as unknown as Win).cgraphView.png();
            return Array.from(new Uint8Array(await blob.arrayBuffer()));
          });
          const pngInk = await inkOf(browser!, new Uint8Array(exported));
          assert(pngInk.ink > 500, `exported PNG: ${JSON.stringify(pngInk)}`);
        },
      );

      await t.step("an unknown symbol gets a clear message on the page", async () => {
        await page.click("#search", { count: 3 });
        await page.type("#search", "zzqxnothinglikethis");
        await page.keyboard.press("Enter");
        await page.waitForSelector("#message:not([hidden])");
        const msg = await page.$eval("#message", (e) => e.textContent ?? "");
        assert(msg.includes("No symbol matches 'zzqxnothinglikethis'"), msg);
        // A link naming an unknown symbol says so too.
        const deep = new URL(server!.url);
        deep.searchParams.set("symbol", "no_such_function_here");
        await page.goto(deep.href);
        await page.waitForSelector("#message:not([hidden])");
        const text = await page.$eval("#message", (e) => e.textContent ?? "");
        assert(text.includes("No symbol 'no_such_function_here'"), text);
      });
    } finally {
      await browser?.close();
      await server?.stop();
      await dropProject(db, project);
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test({
  name: "view: the MCP HTTP server serves the page at /view behind its token",
  ignore: !CHROMIUM,
  ...opts,
  async fn() {
    const db = await testDb();
    const project = uniqueName("t-viewmcp");
    const dir = await makeRepo();
    let server: Server | undefined;
    let browser: Browser | undefined;
    try {
      await indexAs(db, dir, project);
      server = await spawnCgraph(
        ["mcp", dir, "--http", "--port", "0", "--project", project, "--branch", "test"],
        childEnv({ FALKORDB_URL: dbUrl(db), CGRAPH_TOKEN: TOKEN, CGRAPH_LOG: "info" }),
        /serving Streamable HTTP on (http:\/\/127\.0\.0\.1:\d+)\/mcp/,
      );
      const origin = server.url;
      for (const path of ["/view/", "/view/?token=wrong", "/view/api/projects"]) {
        const res = await fetch(origin + path);
        await res.body?.cancel();
        assertEquals(res.status, 401, path);
      }
      const api = await fetch(`${origin}/view/api/search?q=store`, {
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      assertEquals(api.status, 200);
      const body = await api.json();
      assertEquals(body.hits[0].qualified_name, "shop.db.store");
      // A foreign page may not read it (Origin check, as on /mcp).
      const foreign = await fetch(`${origin}/view/api/projects`, {
        headers: { authorization: `Bearer ${TOKEN}`, origin: "https://evil.example" },
      });
      await foreign.body?.cancel();
      assertEquals(foreign.status, 403);

      browser = await launch(CHROMIUM!);
      const page = await browser.newPage();
      await page.goto(`${origin}/view?token=${TOKEN}`);
      await settled(page);
      assert(new URL(page.url()).pathname === "/view/", page.url());
      await page.click('#modes button[data-mode="modules"]');
      await settled(page);
      const nodes = await drawnNodes(page);
      assert(nodes.some((n) => n.path === "cyc/alpha.py" && n.scc >= 0), "cycle drawn via /view");
    } finally {
      await browser?.close();
      await server?.stop();
      await dropProject(db, project);
      await Deno.remove(dir, { recursive: true });
    }
  },
});

/** `files` small Python files in a chain of imports, two of them importing each other. */
async function chainRepo(files: number): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-view-large-" });
  await Deno.mkdir(join(dir, "pkg"));
  await Deno.writeTextFile(join(dir, "pkg/__init__.py"), "");
  for (let i = 0; i < files; i++) {
    // m0 and m1 import each other: an import cycle.
    const dep = i === 0 ? 1 : i - 1;
    await Deno.writeTextFile(
      join(dir, `pkg/m${i}.py`),
      `from pkg.m${dep} import f${dep}\n\n\ndef f${i}():\n    return ${i}\n`,
    );
  }
  return dir;
}

Deno.test({
  name: "view: a map of more than 1,000 files is drawn by sigma.js in WebGL, as the API answers",
  ignore: !CHROMIUM,
  ...opts,
  async fn() {
    const db = await testDb();
    const project = uniqueName("t-viewbig");
    const dir = await chainRepo(1200);
    let server: Server | undefined;
    let browser: Browser | undefined;
    try {
      await indexAs(db, dir, project);
      server = await spawnCgraph(
        ["view", dir, "--no-open", "--port", "0", "--project", project, "--branch", "test"],
        childEnv({ FALKORDB_URL: dbUrl(db) }),
        /cgraph view: (http:\/\/127\.0\.0\.1:\d+\/\?token=[0-9a-f]{64})/,
      );
      browser = await launch(CHROMIUM!);
      const page = await browser.newPage();
      const u = new URL(server.url);
      u.searchParams.set("mode", "modules");
      u.searchParams.set("level", "file");
      await page.goto(u.href);
      await settled(page);
      const answer = await page.evaluate(async () =>
        await (await fetch("api/modules?level=file")).json()
      ) as { nodes: Drawn[]; edges: DrawnEdge[] };
      assert(answer.nodes.length > 1000, `${answer.nodes.length} files`);
      const drawn = await page.evaluate(() => {
        const v = (globalThis as unknown as Win).cgraphView;
        const nodes = v.drawing.nodes();
        return {
          renderer: v.state.renderer,
          nodes: nodes.length,
          edges: v.drawing.edges().length,
          bySigma: nodes.filter((n) => v.drawing.sigma!.getNodeDisplayData(n.id)).length,
        };
      });
      assertEquals(drawn, {
        renderer: "sigma",
        nodes: answer.nodes.length,
        edges: answer.edges.length,
        bySigma: answer.nodes.length,
      });
      const stage = (await page.evaluateHandle(() =>
        (globalThis as unknown as Win).cgraphView.drawing.sigma!.getStageCanvas()
      )).asElement()!;
      const ink = await inkOf(browser, await stage.screenshot({ type: "png" }) as Uint8Array);
      assert(ink.ink > 5000 && ink.red > 10, `sigma drew: ${JSON.stringify(ink)}`);
      // A click on a file opens its panel; the PNG export has the view.
      const m5 = answer.nodes.find((n) =>
        n.path === "pkg/m5.py"
      )!;
      await clickNode(page, m5.id);
      await page.waitForFunction(
        () => document.getElementById("panel-body")!.textContent!.includes("pkg/m5.py"),
        { timeout: 15_000 },
      );
      const exported = await page.evaluate(async () => {
        const blob = await (globalThis as unknown as Win).cgraphView.png();
        return Array.from(new Uint8Array(await blob.arrayBuffer()));
      });
      const pngInk = await inkOf(browser, new Uint8Array(exported));
      assert(pngInk.ink > 5000, `sigma's PNG: ${JSON.stringify(pngInk)}`);
    } finally {
      await browser?.close();
      await server?.stop();
      await dropProject(db, project);
      await Deno.remove(dir, { recursive: true });
    }
  },
});
