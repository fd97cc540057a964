// cgraph view: the page. Data from the JSON API (api/...), drawn with Cytoscape.js (graphs of
// thousands of nodes: held by Cytoscape, painted by lite.js). window.cgraphView exposes the graph
// and the last draw time with its phases (tests and the bench read them).
import cytoscape from "./cytoscape.mjs";
import { toSvg } from "./export_svg.js";
import { fitViewport, layoutFor } from "./layout.js";
import { LITE_SIZE, litePainter } from "./lite.js";
import { CYCLE, kindColor, langColor, LEAN_FOCUS, legend, stylesheet } from "./look.js";
import { el, renderPanel } from "./panel.js";

const $ = (id) => document.getElementById(id);

// ---- state --------------------------------------------------------------------------------------

const url = new URL(location.href);
const token = url.searchParams.get("token");
if (token) {
  // The server set a cookie; keep the token out of the address bar (and of screenshots).
  url.searchParams.delete("token");
  history.replaceState(null, "", url.pathname + url.search + url.hash);
}

const state = {
  mode: "neighbors",
  /** The symbol the neighbours / impact views are about: {id} or {symbol}. */
  subject: undefined,
  project: undefined,
  branch: undefined,
  commands: undefined,
  graph: undefined,
  lastDraw: undefined,
  busy: 0,
};

const view = { state, cy: undefined, ready: false };
globalThis.cgraphView = view;

// ---- API ------------------------------------------------------------------------------------------

async function api(name, params = {}) {
  const q = new URLSearchParams();
  if (state.project) q.set("project", state.project);
  if (state.branch) q.set("branch", state.branch);
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  state.busy++;
  try {
    const t0 = performance.now();
    const res = await fetch(`api/${name}?${q}`, { headers });
    const t1 = performance.now();
    const text = await res.text();
    const t2 = performance.now();
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = { error: `${res.status} ${res.statusText}` };
    }
    const t3 = performance.now();
    state.lastApi = {
      name,
      headers: t1 - t0,
      body: t2 - t1,
      parse: t3 - t2,
      bytes: text.length,
      server: Number(res.headers.get("server-timing")?.match(/dur=([\d.]+)/)?.[1] ?? NaN),
    };
    if (!res.ok || body.error) {
      const err = new Error(body.error ?? `${res.status} ${res.statusText}`);
      err.hint = body.hint;
      err.status = res.status;
      throw err;
    }
    return body;
  } finally {
    state.busy--;
  }
}

// ---- messages -------------------------------------------------------------------------------------

function message(text, kind = "info") {
  const m = $("message");
  if (!text) {
    m.hidden = true;
    m.textContent = "";
    return;
  }
  m.hidden = false;
  m.className = kind;
  m.textContent = text;
}

function showError(err) {
  message(err.hint ? `${err.message}\n${err.hint}` : err.message, "error");
}

function status(text) {
  $("status").textContent = text;
}

// ---- drawing --------------------------------------------------------------------------------------

function elementsOf(g) {
  const nodes = g.nodes.map((n) => ({
    group: "nodes",
    data: {
      ...n,
      scc: n.scc ?? -1,
      center: n.id === g.center || undefined,
      fill: kindColor(n.kind),
      ring: langColor(n.language),
    },
  }));
  const edges = g.edges.map((e) => ({ group: "edges", data: { ...e, count: e.count ?? 1 } }));
  return [...nodes, ...edges];
}

/**
 * Past this many nodes a graph is drawn the fast way (`lean`): no labels until zoomed in, straight
 * edges, one colour per kind and language. `?lean_from=N` in the URL moves the limit (the browser
 * tests draw a small map the fast way).
 */
const LEAN_FROM = Number(new URLSearchParams(location.search).get("lean_from")) || 1000;

/**
 * Who draws a lean graph. `lite` (the default): the page itself (lite.js), Cytoscape holding the
 * graph headless; thousands of elements in tens of milliseconds, where Cytoscape's renderers spend
 * seconds on them (styles, bounding boxes, textures per element: 10,000 files and 15,000 imports
 * took 3 to 4 s of CPU in its canvas renderer). `?renderer=canvas`: Cytoscape's canvas renderer
 * with the lean stylesheet (as before lite.js). `?renderer=webgl` or `?webgl=1`: Cytoscape's WebGL
 * renderer (experimental in Cytoscape; with a GPU it paints thousands of elements faster; without
 * one, as in headless Chromium, WebGL falls back to a software rasteriser and paints slower than
 * the canvas). When the browser has no WebGL at all, the canvas draws.
 */
const LEAN_RENDERER = (() => {
  const p = new URLSearchParams(location.search);
  const asked = p.get("webgl") === "1" ? "webgl" : p.get("renderer");
  if (asked === "webgl") return hasWebgl() ? "webgl" : "canvas";
  return asked === "canvas" ? "canvas" : "lite";
})();

function hasWebgl() {
  try {
    return !!document.createElement("canvas").getContext("webgl");
  } catch {
    return false;
  }
}

// Positions set on the elements before Cytoscape starts are kept as they are: no layout pass, no
// fit (which measures every element once more); the viewport is computed from the positions.
cytoscape("layout", "cgraph-placed", function Placed(options) {
  this.options = options;
  this.run = function () {
    this.emit("layoutstart");
    this.emit("layoutready");
    this.emit("layoutstop");
    return this;
  };
  this.stop = function () {
    return this;
  };
});

/** Elements with their positions already set. */
function placedElementsOf(g, positions) {
  const out = elementsOf(g);
  for (const e of out) if (e.group === "nodes") e.position = positions[e.data.id];
  return out;
}

/** Draws a graph answer; resolves once laid out and painted, with the time it took. */
function draw(g, started = performance.now()) {
  state.graph = g;
  const n = g.nodes.length;
  const large = n > LEAN_FROM;
  state.lean = large;
  const renderer = large ? LEAN_RENDERER : "canvas";
  if (view.cy) view.cy.destroy();
  view.lite = undefined;
  const t0 = performance.now();
  const layout = layoutFor(g, n);
  const container = $("graph");
  const placed = layout.positions !== undefined;
  const viewport = placed
    ? fitViewport(layout.positions, container.clientWidth, container.clientHeight, {
      size: large ? LITE_SIZE : 30,
      below: large ? 0 : 16,
    })
    : {};
  const elements = placed ? placedElementsOf(g, layout.positions) : elementsOf(g);
  const tElements = performance.now();
  const common = {
    container,
    elements,
    layout: placed ? { name: "cgraph-placed" } : { name: "preset", fit: false },
    ...viewport,
    minZoom: 0.02,
    maxZoom: 4,
  };
  const cy = renderer === "lite"
    // Headless: the graph without styles or a renderer of Cytoscape's; lite.js paints it.
    ? cytoscape({ ...common, headless: true, styleEnabled: false })
    : cytoscape({
      ...common,
      style: stylesheet(large, n > 300),
      wheelSensitivity: 0.3,
      // A texture of the whole view while panning costs a render of its own on first paint;
      // hiding the edges keeps panning smooth enough.
      textureOnViewport: false,
      hideEdgesOnViewport: large,
      motionBlur: false,
      boxSelectionEnabled: !large,
      autoungrabify: large,
      pixelRatio: large ? 1 : "auto",
      ...(renderer === "webgl" ? { renderer: { name: "canvas", webgl: true } } : {}),
    });
  state.renderer = renderer;
  if (renderer === "lite") view.lite = litePainter(cy, container, { cycle: CYCLE });
  view.cy = cy;
  const tInit = performance.now();
  return new Promise((resolve) => {
    const painted = () => {
      const laidOut = performance.now();
      if (!placed) cy.fit(undefined, 30);
      // Two frames: the one Cytoscape (or lite.js) paints in, then one after it.
      let frame;
      requestAnimationFrame(() => {
        frame = performance.now();
        requestAnimationFrame(() => {
          const done = performance.now();
          state.lastDraw = {
            ms: done - started,
            drawMs: done - t0,
            layoutMs: laidOut - t0,
            nodes: n,
            edges: cy.edges().length,
            phases: {
              ...state.lastApi,
              elements: tElements - t0,
              init: tInit - tElements,
              layout: laidOut - tInit,
              toFrame: frame - laidOut,
              paint: done - frame,
            },
          };
          view.ready = true;
          resolve(state.lastDraw);
        });
      });
    };
    if (placed) painted();
    else {
      const run = cy.layout(layout);
      run.one("layoutstop", painted);
      run.run();
    }
    bindGraphEvents(cy);
    legend($("legend"), g);
  });
}

function bindGraphEvents(cy) {
  cy.on("tap", "node", (ev) => {
    focusEdgesOf(cy, ev.target.id());
    openPanel(ev.target.id());
  });
  cy.on("dbltap", "node", (ev) => expand(ev.target.id()));
}

/** A click on a node marks its edges, in and out (on a map of thousands: its imports). */
function focusEdgesOf(cy, id) {
  cy.batch(() => {
    const before = cy.edges(".focus").removeClass("focus");
    const mine = cy.getElementById(id).connectedEdges().addClass("focus");
    // Cytoscape's lean stylesheet has no rule for it (a rule is matched against every element).
    if (state.lean && state.renderer !== "lite") {
      before.removeStyle();
      mine.style(LEAN_FOCUS);
    }
  });
}

// ---- views ----------------------------------------------------------------------------------------

function depth() {
  return Math.max(1, Math.min(10, Number($("depth").value) || 1));
}

function subjectParams() {
  return state.subject?.id
    ? { id: state.subject.id }
    : { symbol: state.subject?.symbol, file: state.subject?.file };
}

async function show() {
  message("");
  view.ready = false;
  const started = performance.now();
  let g;
  try {
    if (state.mode === "neighbors" || state.mode === "impact") {
      if (!state.subject) {
        message("Search a symbol first.");
        return;
      }
      g = state.mode === "neighbors"
        ? await api("neighbors", { ...subjectParams(), dir: $("dir").value, depth: depth() })
        : await api("impact", { ...subjectParams(), depth: depth() });
    } else if (state.mode === "modules") {
      g = await api("modules", {
        level: $("level").value,
        cycles: $("cycles-only").checked ? 1 : undefined,
        groups: new URLSearchParams(location.search).get("groups") ?? undefined,
      });
    } else {
      g = await api("cycles");
    }
  } catch (err) {
    showError(err);
    return;
  }
  state.commands = g.commands;
  $("equivalent-cli").textContent = g.commands?.cli ?? "";
  const drawn = await draw(g, started);
  const what = `${g.nodes.length} nodes, ${g.edges.length} edges`;
  status([what, ...g.notes, `drawn in ${Math.round(drawn.ms)} ms`].join(" · "));
  if (!g.nodes.length) message(emptyText(g));
  else if (g.nodes.length === 1 && g.mode !== "modules") message(emptyText(g));
}

function emptyText(g) {
  const name = g.nodes[0]?.qualified_name ?? "";
  if (g.mode === "neighbors") {
    return `${name} has no ${
      $("dir").value === "both" ? "callers or callees" : $("dir").value
    } in this graph.`;
  }
  if (g.mode === "impact") return `Nothing depends on ${name}.`;
  if (g.mode === "modules") return "No imports between files in this graph.";
  return "No CALLS cycles in this graph.";
}

/** Double click in the neighbours view: that node's callers and callees, added to the graph. */
async function expand(id) {
  if (state.mode !== "neighbors" || !view.cy) return;
  let g;
  try {
    g = await api("neighbors", { id, dir: "both", depth: 1 });
  } catch (err) {
    showError(err);
    return;
  }
  const cy = view.cy;
  const have = new Set(cy.elements().map((e) => e.id()));
  const base = cy.getElementById(id).position();
  const add = elementsOf({ ...g, center: undefined }).filter((e) => !have.has(e.data.id));
  for (const e of add) {
    if (e.group === "nodes") {
      e.data.depth = (cy.getElementById(id).data("depth") ?? 0) + 1;
      e.position = {
        x: base.x + (Math.random() - 0.5) * 160,
        y: base.y + (Math.random() - 0.5) * 160,
      };
    }
  }
  cy.add(add);
  state.graph = {
    ...state.graph,
    nodes: cy.nodes().map((n) => n.data()),
    edges: cy.edges().map((e) => e.data()),
  };
  legend($("legend"), state.graph);
  status(
    `${cy.nodes().length} nodes, ${cy.edges().length} edges · expanded ${
      g.nodes.find((n) => n.id === id)?.qualified_name ?? id
    }`,
  );
}

// ---- search ---------------------------------------------------------------------------------------

let hits = [];

async function runSearch(q) {
  const list = $("results");
  list.replaceChildren();
  list.hidden = true;
  if (!q.trim()) return;
  let r;
  try {
    r = await api("search", { q, limit: 20 });
  } catch (err) {
    showError(err);
    return;
  }
  hits = r.hits;
  if (!hits.length) {
    const where = state.project
      ? ` in ${state.project}${state.branch ? ` (${state.branch})` : ""}`
      : "";
    message(
      `No symbol matches '${q}'${where}.\nTry a word of the name, e.g. part of a function or class name.`,
      "error",
    );
    return;
  }
  message("");
  for (const [i, h] of hits.entries()) {
    const li = document.createElement("li");
    li.dataset.index = String(i);
    li.dataset.qualifiedName = h.qualified_name;
    const kind = document.createElement("span");
    kind.className = "kind";
    kind.style.background = kindColor(h.kind);
    kind.textContent = h.kind;
    const where = document.createElement("div");
    where.className = "where";
    where.textContent = `${h.path}:${h.line} · ${h.match}`;
    li.append(kind, h.qualified_name, where);
    li.addEventListener("click", () => pick(h));
    list.append(li);
  }
  list.hidden = false;
}

function pick(hit) {
  $("results").hidden = true;
  $("search").value = hit.qualified_name;
  state.subject = { id: hit.id, qualified_name: hit.qualified_name };
  if (state.mode !== "neighbors" && state.mode !== "impact") setMode("neighbors", false);
  show();
}

// ---- side panel -----------------------------------------------------------------------------------

let panelFor = "";

async function openPanel(id) {
  panelFor = id;
  const panel = $("panel");
  const body = $("panel-body");
  panel.hidden = false;
  body.replaceChildren(el("p", "loading…", "muted"));
  if (id.startsWith("dir:")) {
    const n = view.cy.getElementById(id).data();
    body.replaceChildren(el("h2", n.path), el("p", `${n.files} files`, "muted"));
    return;
  }
  let d;
  try {
    d = await api("node", { id });
  } catch (err) {
    if (panelFor === id) body.replaceChildren(el("p", err.message, "error"));
    return;
  }
  // Another node was clicked meanwhile: its answer is the one to show.
  if (panelFor !== id) return;
  body.replaceChildren(
    ...renderPanel(d, {
      copy,
      expand,
      center(n) {
        state.subject = { id: n.id };
        $("search").value = n.qualified_name;
        if (state.mode !== "impact") setMode("neighbors", false);
        show();
      },
      impact(n) {
        state.subject = { id: n.id };
        setMode("impact");
      },
    }),
  );
}

// ---- copy and export ------------------------------------------------------------------------------

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    status(`copied: ${text}`);
  } catch {
    // No clipboard (permissions): show it for copying by hand.
    message(text);
  }
}

function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 5000);
}

function svgOfView() {
  return toSvg(view.cy, {
    kindColor,
    langColor,
    cycle: CYCLE,
    nodeSize: view.lite ? LITE_SIZE : undefined,
  });
}

/** The whole view as a PNG Blob, twice the size. */
function pngOfView() {
  const opts = { output: "blob-promise", full: true, scale: 2, bg: "#ffffff" };
  return view.lite ? view.lite.png(opts) : view.cy.png(opts);
}

view.svg = svgOfView;
view.png = pngOfView;

// ---- controls -------------------------------------------------------------------------------------

function setMode(mode, render = true) {
  state.mode = mode;
  for (const b of document.querySelectorAll("#modes button")) {
    b.classList.toggle("on", b.dataset.mode === mode);
  }
  for (const l of document.querySelectorAll("#controls label")) {
    l.hidden = !l.classList.contains(`for-${mode}`);
  }
  if (mode === "impact" && Number($("depth").value) < 2) $("depth").value = "3";
  return render ? show() : undefined;
}

async function loadProjects() {
  const sel = $("project");
  let r;
  try {
    r = await api("projects");
  } catch (err) {
    showError(err);
    return;
  }
  sel.replaceChildren();
  const def = r.default;
  const opt = (label, value) => {
    const o = document.createElement("option");
    o.textContent = label;
    o.value = value;
    return o;
  };
  if (def) sel.append(opt(`${def.root} (default)`, ""));
  for (const p of r.projects) {
    const o = opt(
      `${p.project} / ${p.branch}${p.files ? ` · ${p.files} files` : ""}`,
      JSON.stringify([p.project, p.branch]),
    );
    sel.append(o);
  }
}

function init() {
  $("search-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    runSearch($("search").value);
  });
  for (const b of document.querySelectorAll("#modes button")) {
    b.addEventListener("click", () => setMode(b.dataset.mode));
  }
  for (const id of ["dir", "depth", "level", "cycles-only"]) {
    $(id).addEventListener("change", () => show());
  }
  $("project").addEventListener("change", () => {
    const v = $("project").value;
    [state.project, state.branch] = v ? JSON.parse(v) : [undefined, undefined];
    state.subject = undefined;
    if (view.cy) view.cy.elements().remove();
    $("panel").hidden = true;
    if (state.mode === "modules" || state.mode === "call-cycles") show();
    else message("Search a symbol in this project.");
  });
  $("panel-close").addEventListener("click", () => ($("panel").hidden = true));
  $("copy-cli").addEventListener("click", () => state.commands?.cli && copy(state.commands.cli));
  $("copy-mcp").addEventListener("click", () => state.commands?.mcp && copy(state.commands.mcp));
  $("export-png").addEventListener("click", async () => {
    if (!view.cy) return;
    download("cgraph-view.png", await pngOfView());
  });
  $("export-svg").addEventListener("click", () => {
    if (!view.cy) return;
    download("cgraph-view.svg", new Blob([svgOfView()], { type: "image/svg+xml" }));
  });
  document.addEventListener("click", (ev) => {
    if (!$("search-form").contains(ev.target)) $("results").hidden = true;
  });
  setMode("neighbors", false);

  // Deep links: ?symbol=NAME[&mode=impact|neighbors][&depth=N][&dir=D]; ?mode=modules[&level=L]
  // or ?mode=call-cycles.
  const p = new URLSearchParams(location.search);
  state.project = p.get("project") || undefined;
  state.branch = p.get("branch") || undefined;
  if (p.get("depth")) $("depth").value = p.get("depth");
  if (p.get("dir")) $("dir").value = p.get("dir");
  if (p.get("level")) $("level").value = p.get("level");
  const mode = p.get("mode");
  let first;
  if (p.get("symbol")) {
    state.subject = { symbol: p.get("symbol"), file: p.get("file") || undefined };
    $("search").value = p.get("symbol");
    first = setMode(mode === "impact" ? "impact" : "neighbors");
  } else if (mode === "modules" || mode === "call-cycles") {
    first = setMode(mode);
  } else {
    view.ready = true;
  }
  // The picker's list once the first graph is drawn: its queries (every graph's counts) would
  // share the server and the database with the graph's own.
  Promise.resolve(first).finally(loadProjects);
}

view.show = show;
view.openPanel = openPanel;
view.setMode = setMode;
init();
