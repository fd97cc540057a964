// cgraph view: the page. Data from the JSON API (api/...), drawn with Cytoscape.js, and graphs of
// thousands of nodes with sigma.js (WebGL). window.cgraphView exposes the drawing (`drawing`: its
// nodes, edges, places on screen, exports) and the last draw time with its phases (tests and the
// bench read them).
import { cytoscapeDrawing } from "./cytoscape_view.js";
import { layoutFor } from "./layout.js";
import { CYCLE, kindColor, langColor, legend } from "./look.js";
import { el, renderPanel } from "./panel.js";
import { hasWebgl2, loadSigma, sigmaDrawing } from "./sigma_view.js";

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

const view = { state, drawing: undefined, ready: false };
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

/**
 * Past this many nodes a graph is drawn by sigma.js (WebGL, sigma_view.js) instead of Cytoscape's
 * canvas, which spends seconds on thousands of elements (styles, bounding boxes and textures per
 * element: 10,000 files and 15,000 imports took over 3 s). `?lean_from=N` in the URL moves the
 * limit (the browser tests draw a small map with sigma).
 */
const LEAN_FROM = Number(new URLSearchParams(location.search).get("lean_from")) || 1000;

/**
 * Who draws a graph past LEAN_FROM: `sigma` (the default), or `?renderer=canvas`, Cytoscape's
 * canvas with its lean stylesheet (no labels, straight edges; the bench compares them). Without
 * WebGL 2 Cytoscape's canvas draws them too, and the page says so.
 */
const LEAN_RENDERER = new URLSearchParams(location.search).get("renderer") === "canvas"
  ? "canvas"
  : "sigma";

const NO_WEBGL =
  "This browser gives the page no WebGL 2, which sigma.js draws large graphs with: " +
  "drawn by Cytoscape's canvas instead, slower past a thousand nodes.";

/**
 * What a node's fill shows when sigma draws it (it has no ring): its kind, or its language where
 * every node is of one kind and the languages differ (a map of files).
 */
function fillBy(g) {
  const one = (f) => new Set(g.nodes.map(f)).size === 1;
  return one((n) => n.kind) && !one((n) => n.language) ? "language" : "kind";
}

/** What the legend says the fill and the ring show, as the current drawing colours them. */
function legendOpts(g) {
  const sigma = view.drawing?.renderer === "sigma";
  return { fill: sigma ? fillBy(g) : "kind", rings: !sigma };
}

/** What a click and a double click on a node do, whoever draws it. */
const handlers = {
  tap(id) {
    view.drawing?.focus(id);
    openPanel(id);
  },
  dbltap: (id) => expand(id),
};

let draws = 0;

/**
 * Draws a graph answer; resolves once laid out and painted, with the time it took (undefined when
 * another draw started meanwhile).
 */
async function draw(g, started = performance.now()) {
  const mine = ++draws;
  state.graph = g;
  const n = g.nodes.length;
  const lean = n > LEAN_FROM;
  state.lean = lean;
  view.drawing?.destroy();
  view.drawing = undefined;
  const container = $("graph");
  const t0 = performance.now();
  let renderer = lean ? LEAN_RENDERER : "canvas";
  let note;
  let lib;
  if (renderer === "sigma") {
    try {
      if (!hasWebgl2()) throw new Error(NO_WEBGL);
      lib = await loadSigma();
    } catch (err) {
      renderer = "canvas";
      note = err.message === NO_WEBGL ? NO_WEBGL : `sigma.js could not draw: ${err.message}`;
    }
    if (mine !== draws) return undefined;
  }
  const tLoad = performance.now();
  // sigma draws at given places: a map it draws small (`?lean_from=`) is placed on a grid too.
  const layout = layoutFor(g, n, { placed: renderer === "sigma" });
  const tElements = performance.now();
  let drawing;
  let tBuilt = tElements;
  if (renderer === "sigma") {
    try {
      drawing = sigmaDrawing(lib, g, layout.positions, container, {
        cycle: CYCLE,
        fillOf: fillBy(g) === "language" ? (n) => langColor(n.language) : (n) => kindColor(n.kind),
      }, handlers);
      tBuilt = drawing.builtAt;
    } catch (err) {
      // Its WebGL context or shaders failed (a browser's own limits): Cytoscape draws instead.
      container.replaceChildren();
      renderer = "canvas";
      note = `sigma.js could not draw this graph (${err.message}): drawn by Cytoscape's canvas.`;
    }
  }
  drawing ??= cytoscapeDrawing(g, layout, container, {
    lean,
    look: { kindColor, langColor },
    on: handlers,
  });
  state.renderer = drawing.renderer;
  state.note = note;
  view.drawing = drawing;
  const tInit = performance.now();
  await drawing.laidOut;
  const laidOut = performance.now();
  // Two frames: the one the renderer paints in, then one after it.
  const frame = await new Promise((resolve) =>
    requestAnimationFrame(() => resolve(performance.now()))
  );
  const shown = await new Promise((resolve) =>
    requestAnimationFrame(() => resolve(performance.now()))
  );
  if (mine !== draws) return undefined;
  // The GPU (or, without one, the browser's software GL) draws after the frames are handed over:
  // done when it has.
  drawing.sync();
  const done = performance.now();
  state.lastDraw = {
    ms: done - started,
    drawMs: done - t0,
    layoutMs: laidOut - t0,
    nodes: n,
    edges: drawing.edges().length,
    renderer: drawing.renderer,
    phases: {
      ...state.lastApi,
      load: tLoad - t0,
      elements: tBuilt - tLoad,
      init: tInit - tBuilt,
      layout: laidOut - tInit,
      toFrame: frame - laidOut,
      paint: shown - frame,
      gpu: done - shown,
    },
  };
  legend($("legend"), g, legendOpts(g));
  view.ready = true;
  return state.lastDraw;
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
  const what = [`${g.nodes.length} nodes, ${g.edges.length} edges`, ...g.notes];
  // Set before drawing, about as long as it will be once drawn: a status line that wrapped onto
  // another line only then would resize the graph just drawn (sigma.js processes its nodes again).
  const likely = g.nodes.length > LEAN_FROM && LEAN_RENDERER === "sigma" ? "sigma.js" : "Cytoscape";
  status([...what, `drawing with ${likely} …`].join(" · "));
  const drawn = await draw(g, started);
  if (!drawn) return;
  const by = drawn.renderer === "sigma" ? "sigma.js" : "Cytoscape";
  status([...what, `drawn by ${by} in ${Math.round(drawn.ms)} ms`].join(" · "));
  if (state.note) message(state.note);
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
  if (state.mode !== "neighbors" || !view.drawing) return;
  let g;
  try {
    g = await api("neighbors", { id, dir: "both", depth: 1 });
  } catch (err) {
    showError(err);
    return;
  }
  const drawing = view.drawing;
  if (!drawing.node(id)) return;
  const base = drawing.position(id);
  const depth = (drawing.node(id).depth ?? 0) + 1;
  const nodes = g.nodes.filter((n) => !drawing.node(n.id)).map((n) => ({
    ...n,
    depth,
    position: {
      x: base.x + (Math.random() - 0.5) * 160,
      y: base.y + (Math.random() - 0.5) * 160,
    },
  }));
  drawing.add(nodes, g.edges);
  state.graph = { ...state.graph, nodes: drawing.nodes(), edges: drawing.edges() };
  legend($("legend"), state.graph, legendOpts(state.graph));
  status(
    `${state.graph.nodes.length} nodes, ${state.graph.edges.length} edges · expanded ${
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
    const n = view.drawing.node(id);
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
  return view.drawing.svg({ kindColor, langColor, cycle: CYCLE });
}

/**
 * The view as a PNG Blob: Cytoscape's whole graph twice the size, sigma's view as it is on screen
 * (zoom in for the detail).
 */
function pngOfView() {
  return view.drawing.png();
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
    view.drawing?.clear();
    $("panel").hidden = true;
    if (state.mode === "modules" || state.mode === "call-cycles") show();
    else message("Search a symbol in this project.");
  });
  $("panel-close").addEventListener("click", () => ($("panel").hidden = true));
  $("copy-cli").addEventListener("click", () => state.commands?.cli && copy(state.commands.cli));
  $("copy-mcp").addEventListener("click", () => state.commands?.mcp && copy(state.commands.mcp));
  $("export-png").addEventListener("click", async () => {
    if (!view.drawing) return;
    download("cgraph-view.png", await pngOfView());
  });
  $("export-svg").addEventListener("click", () => {
    if (!view.drawing) return;
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
