// cgraph view: the page. Data from the JSON API (api/...), drawn with Cytoscape.js.
// window.cgraphView exposes the graph and the last draw time (tests and the bench read them).
import cytoscape from "./cytoscape.mjs";
import { toSvg } from "./export_svg.js";

const $ = (id) => document.getElementById(id);

// ---- colours ------------------------------------------------------------------------------------

/** Fill colour by kind. */
const KIND_COLORS = {
  Function: "#4f7cff",
  Method: "#16a394",
  Class: "#f08c2e",
  Interface: "#b46be0",
  Struct: "#d9a400",
  Enum: "#e0578a",
  Trait: "#8a6be0",
  Module: "#6b7a90",
  Variable: "#8fa3b8",
  Constant: "#8fa3b8",
  File: "#5b8c5a",
  Directory: "#3e7c74",
};
const OTHER_KIND = "#98a2b3";

/** Ring colour by language. */
const LANG_COLORS = {
  python: "#3572a5",
  javascript: "#e8c500",
  typescript: "#2b7bd6",
  tsx: "#2b7bd6",
  go: "#00add8",
  rust: "#b7410e",
  ruby: "#cc342d",
  c: "#555555",
  cpp: "#f34b7d",
  java: "#b07219",
  csharp: "#178600",
  kotlin: "#a97bff",
};
const OTHER_LANG = "#b0b7c3";
const CYCLE = "#e5484d";

const kindColor = (k) => KIND_COLORS[k] ?? OTHER_KIND;
const langColor = (l) => LANG_COLORS[l] ?? OTHER_LANG;

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
    const res = await fetch(`api/${name}?${q}`, { headers });
    const body = await res.json().catch(() => ({ error: `${res.status} ${res.statusText}` }));
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

/** `large`: past 1,500 nodes (no labels, thin edges); `many`: past 300 (plain labels). */
function stylesheet(large, many) {
  return [
    {
      selector: "node",
      style: {
        "background-color": "data(fill)",
        "border-color": "data(ring)",
        "border-width": large ? 1 : 3,
        label: large ? "" : "data(label)",
        "font-size": 10,
        "text-valign": "bottom",
        "text-margin-y": 3,
        color: "#1d2330",
        "text-background-color": "#fff",
        "text-background-opacity": many ? 0 : 0.75,
        "text-background-padding": 1,
        "text-wrap": many ? "none" : "ellipsis",
        "text-max-width": 110,
        "min-zoomed-font-size": 7,
        width: large ? 8 : 18,
        height: large ? 8 : 18,
      },
    },
    {
      selector: "node[kind = 'Class'], node[kind = 'Struct'], node[kind = 'Interface']",
      style: { shape: "round-rectangle" },
    },
    { selector: "node[kind = 'File']", style: { shape: "round-tag" } },
    {
      selector: "node[kind = 'Directory']",
      style: {
        shape: "round-rectangle",
        width: "mapData(files, 1, 200, 18, 60)",
        height: "mapData(files, 1, 200, 18, 60)",
      },
    },
    {
      selector: "node[role != 'production']",
      style: { "border-style": "dashed", "background-opacity": 0.45 },
    },
    {
      selector: "node[?center]",
      style: { width: 30, height: 30, "border-width": 5, "font-weight": "bold", "font-size": 12 },
    },
    {
      selector: "node[scc >= 0]",
      style: {
        "underlay-color": CYCLE,
        "underlay-opacity": 0.35,
        "underlay-padding": large ? 3 : 6,
      },
    },
    {
      selector: "edge",
      style: {
        width: large ? 0.5 : "mapData(count, 1, 10, 1, 4)",
        "line-color": "#b6bfcc",
        "target-arrow-color": "#b6bfcc",
        "target-arrow-shape": large ? "none" : "triangle",
        "arrow-scale": 0.8,
        "curve-style": large ? "haystack" : "bezier",
        opacity: large ? 0.5 : 0.9,
      },
    },
    {
      selector: "edge[?cycle]",
      style: {
        "line-color": CYCLE,
        "target-arrow-color": CYCLE,
        width: large ? 1 : 2.5,
        opacity: 1,
      },
    },
    {
      selector: "edge[rel = 'EXTENDS'], edge[rel = 'IMPLEMENTS']",
      style: { "line-style": "dashed" },
    },
    {
      selector: "edge.focus",
      style: { "line-color": "#2f5bd3", "target-arrow-color": "#2f5bd3", width: 1.5, opacity: 1 },
    },
    {
      selector: "node:selected",
      style: { "overlay-color": "#2f5bd3", "overlay-opacity": 0.25, "overlay-padding": 6 },
    },
  ];
}

/** Callers (and dependents) in rows above the centre by depth, callees below; linear time. */
function layeredPositions(g) {
  const PER_ROW = 16;
  const DX = 120;
  const DY = 80;
  const layers = new Map();
  for (const n of g.nodes) {
    const d = n.depth ?? 0;
    const k = n.side === "in" ? -d : d;
    if (!layers.has(k)) layers.set(k, []);
    layers.get(k).push(n);
  }
  const pos = {};
  const keys = [...layers.keys()].sort((a, b) => a - b);
  const rows = (k) => Math.ceil(layers.get(k).length / PER_ROW);
  // Row offsets: layers above the centre stack upwards, those below downwards.
  let y = 0;
  const top = new Map();
  for (const k of keys.filter((k) => k < 0).reverse()) {
    y -= rows(k) * DY;
    top.set(k, y);
  }
  y = DY;
  for (const k of keys.filter((k) => k > 0)) {
    top.set(k, y);
    y += rows(k) * DY;
  }
  top.set(0, 0);
  for (const k of keys) {
    const list = layers.get(k).sort((a, b) =>
      a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line
    );
    list.forEach((n, i) => {
      const row = Math.floor(i / PER_ROW);
      const inRow = Math.min(PER_ROW, list.length - row * PER_ROW);
      const col = i % PER_ROW;
      pos[n.id] = { x: (col - (inRow - 1) / 2) * DX, y: top.get(k) + row * DY };
    });
  }
  return pos;
}

function layoutFor(g, n) {
  if (g.mode === "neighbors" || g.mode === "impact") {
    const pos = layeredPositions(g);
    return { name: "preset", positions: (node) => pos[node.id()], animate: false };
  }
  if (n <= 150) {
    return {
      name: "cose",
      animate: false,
      randomize: false,
      nodeRepulsion: () => 9000,
      idealEdgeLength: () => 60,
      numIter: 400,
    };
  }
  if (n <= 3000) {
    return {
      name: "concentric",
      concentric: (node) => node.degree(),
      levelWidth: () => 4,
      animate: false,
      minNodeSpacing: 2,
    };
  }
  // Very large maps: a square grid in path order (a directory's files together), cycle members
  // first so they sit together at the top; positions computed here, no layout pass.
  const order = [...g.nodes].sort((a, b) =>
    (a.scc ?? 1e9) - (b.scc ?? 1e9) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
  const side = Math.ceil(Math.sqrt(order.length));
  const pos = {};
  order.forEach((node, i) => (pos[node.id] = { x: (i % side) * 20, y: Math.floor(i / side) * 20 }));
  return { name: "preset", positions: (node) => pos[node.id()], animate: false };
}

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

/** Draws a graph answer; resolves once laid out and painted, with the time it took. */
/**
 * Module maps past this many files draw only the imports inside cycles (a click shows a file's);
 * `?all_edges_max=N` in the URL changes it.
 */
const ALL_EDGES_MAX = Number(new URLSearchParams(location.search).get("all_edges_max")) || 3000;

function draw(g, started = performance.now()) {
  state.graph = g;
  const n = g.nodes.length;
  const large = n > 1500;
  state.partialEdges = g.mode === "modules" && n > ALL_EDGES_MAX;
  const edges = state.partialEdges ? g.edges.filter((e) => e.cycle) : g.edges;
  if (view.cy) view.cy.destroy();
  const t0 = performance.now();
  const cy = cytoscape({
    container: $("graph"),
    elements: elementsOf({ ...g, edges }),
    style: stylesheet(large, n > 300),
    layout: { name: "preset" },
    minZoom: 0.02,
    maxZoom: 4,
    wheelSensitivity: 0.3,
    textureOnViewport: large,
    hideEdgesOnViewport: large,
    pixelRatio: large ? 1 : "auto",
  });
  view.cy = cy;
  const layout = cy.layout(layoutFor(g, n));
  return new Promise((resolve) => {
    layout.one("layoutstop", () => {
      const laidOut = performance.now();
      cy.fit(undefined, 30);
      // Two frames: the one Cytoscape paints in, then one after it.
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          const done = performance.now();
          state.lastDraw = {
            ms: done - started,
            drawMs: done - t0,
            layoutMs: laidOut - t0,
            nodes: n,
            edges: edges.length,
          };
          view.ready = true;
          resolve(state.lastDraw);
        })
      );
    });
    layout.run();
    bindGraphEvents(cy);
    legend(g);
  });
}

function bindGraphEvents(cy) {
  cy.on("tap", "node", (ev) => {
    if (state.partialEdges) showImportsOf(cy, ev.target.id());
    openPanel(ev.target.id());
  });
  cy.on("dbltap", "node", (ev) => expand(ev.target.id()));
}

/** On a map drawn without all its edges: the imports of one file, in and out, replace the last. */
function showImportsOf(cy, id) {
  cy.edges(".focus").remove();
  const have = new Set(cy.edges().map((e) => e.id()));
  const mine = state.graph.edges.filter((e) =>
    (e.source === id || e.target === id) && !have.has(e.id)
  );
  cy.add(
    mine.map((e) => ({ group: "edges", data: { ...e, count: e.count ?? 1 }, classes: "focus" })),
  );
}

function legend(g) {
  const kinds = [...new Set(g.nodes.map((n) => n.kind))].sort();
  const langs = [...new Set(g.nodes.map((n) => n.language).filter(Boolean))].sort();
  const tests = g.nodes.some((n) => n.role !== "production");
  const cycles = g.nodes.some((n) => n.scc !== undefined && n.scc >= 0) ||
    g.edges.some((e) => e.cycle);
  const el = $("legend");
  el.replaceChildren();
  const row = (title, items) => {
    const h = document.createElement("h4");
    h.textContent = title;
    const r = document.createElement("div");
    r.className = "row";
    for (const [label, swatch] of items) {
      const s = document.createElement("span");
      s.append(swatch, label);
      r.append(s);
    }
    el.append(h, r);
  };
  const dot = (color, ring) => {
    const s = document.createElement("span");
    s.className = ring ? "sw ring" : "sw";
    if (ring) s.style.borderColor = color;
    else s.style.background = color;
    return s;
  };
  row("kind (fill)", kinds.map((k) => [k, dot(kindColor(k))]));
  if (langs.length) row("language (ring)", langs.map((l) => [l, dot(langColor(l), true)]));
  const extra = [];
  if (tests) {
    const s = dot("#98a2b3", true);
    s.style.borderStyle = "dashed";
    extra.push(["tests / examples", s]);
  }
  if (cycles) extra.push(["in a cycle", dot(CYCLE)]);
  if (extra.length) row("marks", extra);
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
  const what = state.partialEdges
    ? `${g.nodes.length} nodes, ${g.edges.length} edges (only the ${drawn.edges} inside cycles ` +
      "drawn: click a file for its imports)"
    : `${g.nodes.length} nodes, ${g.edges.length} edges`;
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
  legend(state.graph);
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

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

async function openPanel(id) {
  const panel = $("panel");
  const body = $("panel-body");
  panel.hidden = false;
  body.replaceChildren(el("p", "loading…", "muted"));
  if (id.startsWith("dir:")) {
    const n = view.cy.getElementById(id).data();
    body.replaceChildren(el("h2", n.path), el("p", `${n.files} files with imports`, "muted"));
    return;
  }
  let d;
  try {
    d = await api("node", { id });
  } catch (err) {
    body.replaceChildren(el("p", err.message, "error"));
    return;
  }
  const n = d.node;
  const parts = [el("h2", n.qualified_name)];
  const loc = `${n.path}${n.line ? `:${n.line}` : ""}${
    d.end_line && d.end_line > n.line ? `-${d.end_line}` : ""
  }`;
  parts.push(
    el("div", `${n.kind} · ${n.language || "?"} · ${n.role}`, "muted"),
    el("div", loc, "loc"),
  );
  if (n.signature) parts.push(el("h3", "signature"), el("pre", n.signature));
  if (d.doc) parts.push(el("h3", "doc"), el("pre", d.doc));
  if (d.snippet) {
    const width = String(d.snippet.start + d.snippet.lines.length).length;
    const text = d.snippet.lines.map((l, i) =>
      `${String(d.snippet.start + i).padStart(width)}  ${l}`
    ).join("\n");
    parts.push(el("h3", "source"), el("pre", text + (d.snippet.cut ? "\n…" : "")));
  }
  parts.push(el("h3", `notes (${d.notes.length})`));
  if (!d.notes.length) parts.push(el("div", "none", "muted"));
  for (const note of d.notes) {
    const box = el("div", undefined, "note");
    box.append(
      el(
        "div",
        `${note.kind} · ${note.relation}${note.via ? ` ${note.via.qualified_name}` : ""} · ${
          (note.created_at ?? "").slice(0, 10)
        }`,
        "muted",
      ),
      el("div", note.text),
    );
    parts.push(box);
  }
  parts.push(el("h3", `decisions (${d.decisions.length})`));
  if (!d.decisions.length) parts.push(el("div", "none", "muted"));
  for (const dec of d.decisions) {
    const box = el("div", undefined, "decision");
    box.append(
      el("div", `${dec.title}`),
      el("div", `${dec.status} · ${dec.date} · ${dec.path} · names ${dec.names}`, "muted"),
    );
    parts.push(box);
  }
  if (d.commits.length) {
    parts.push(el("h3", "recent commits"));
    for (const c of d.commits) {
      parts.push(el("div", `${c.hash.slice(0, 8)} ${c.subject}${c.fix ? " (fix)" : ""}`, "muted"));
    }
  }
  parts.push(el("h3", "same answer elsewhere"));
  for (const [label, cmd] of Object.entries(d.commands)) {
    for (const [how, text] of [["CLI", cmd.cli], ["MCP", cmd.mcp]]) {
      if (!text) continue;
      const row = el("div", undefined, "cmd");
      const b = el("button", `copy ${label} ${how}`);
      b.addEventListener("click", () => copy(text));
      row.append(el("code", text), b);
      parts.push(row);
    }
  }
  if (!n.id.startsWith("dir:") && n.kind !== "Directory") {
    const buttons = el("div", undefined, "buttons");
    const center = el("button", "centre here");
    center.addEventListener("click", () => {
      state.subject = { id: n.id };
      $("search").value = n.qualified_name;
      if (state.mode !== "impact") setMode("neighbors", false);
      show();
    });
    const more = el("button", "expand");
    more.addEventListener("click", () => expand(n.id));
    const imp = el("button", "impact");
    imp.addEventListener("click", () => {
      state.subject = { id: n.id };
      setMode("impact");
    });
    buttons.append(center, more, imp);
    parts.push(el("h3", "explore"), buttons);
  }
  body.replaceChildren(...parts);
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
  return toSvg(view.cy, { kindColor, langColor, cycle: CYCLE });
}

view.svg = svgOfView;

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
  if (render) show();
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
    download(
      "cgraph-view.png",
      await view.cy.png({ output: "blob-promise", full: true, scale: 2, bg: "#ffffff" }),
    );
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
  if (p.get("symbol")) {
    state.subject = { symbol: p.get("symbol"), file: p.get("file") || undefined };
    $("search").value = p.get("symbol");
    setMode(mode === "impact" ? "impact" : "neighbors");
  } else if (mode === "modules" || mode === "call-cycles") {
    setMode(mode);
  } else {
    view.ready = true;
  }
  loadProjects();
}

view.show = show;
view.openPanel = openPanel;
view.setMode = setMode;
init();
