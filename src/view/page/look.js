// How the view looks: colours by kind (fill) and language (ring), the Cytoscape stylesheet, the
// legend of what is drawn.

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
export const CYCLE = "#e5484d";

export const kindColor = (k) => KIND_COLORS[k] ?? OTHER_KIND;
export const langColor = (l) => LANG_COLORS[l] ?? OTHER_LANG;

/**
 * Thousands of nodes: few selectors (each is matched against every element: a clicked node's
 * edges are styled one by one, LEAN_FOCUS), no labels (they show in the side panel), thin
 * straight edges.
 */
function leanStylesheet() {
  return [
    {
      selector: "node",
      style: {
        "background-color": "data(fill)",
        "border-color": "data(ring)",
        "border-width": 1,
        width: 8,
        height: 8,
      },
    },
    { selector: "node[role != 'production']", style: { "background-opacity": 0.45 } },
    { selector: "node[scc >= 0]", style: { "background-color": CYCLE, "border-color": CYCLE } },
    {
      selector: "edge",
      style: { width: 0.5, "curve-style": "haystack", "line-color": "#b6bfcc", opacity: 0.6 },
    },
    { selector: "edge[?cycle]", style: { "line-color": CYCLE, width: 1, opacity: 1 } },
  ];
}

/** A clicked node's edges on a lean map: set on those edges alone (a rule is matched on all). */
export const LEAN_FOCUS = { "line-color": "#2f5bd3", width: 1.5, opacity: 1 };

/** `large`: past 1,000 nodes (the lean sheet); `many`: past 300 (plain labels). */
export function stylesheet(large, many) {
  if (large) return leanStylesheet();
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

/**
 * Fills `el` with the kinds, languages and marks `g` draws. `fill`: what a node's fill shows
 * (`kind`, or `language` where sigma.js colours a map of files by language); `rings`: whether
 * a ring shows the language (Cytoscape's nodes have one, sigma's do not).
 */
export function legend(el, g, { fill = "kind", rings = true } = {}) {
  const kinds = [...new Set(g.nodes.map((n) => n.kind))].sort();
  const langs = [...new Set(g.nodes.map((n) => n.language).filter(Boolean))].sort();
  const tests = g.nodes.some((n) => n.role !== "production");
  const cycles = g.nodes.some((n) => n.scc !== undefined && n.scc >= 0) ||
    g.edges.some((e) => e.cycle);
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
  if (fill === "language") {
    row(`${kinds.join(", ")}: language (fill)`, langs.map((l) => [l, dot(langColor(l))]));
  } else {
    row("kind (fill)", kinds.map((k) => [k, dot(kindColor(k))]));
    if (langs.length && rings) {
      row("language (ring)", langs.map((l) => [l, dot(langColor(l), true)]));
    }
  }
  const extra = [];
  if (tests) {
    const s = dot("#98a2b3", true);
    s.style.borderStyle = "dashed";
    extra.push(["tests / examples", s]);
  }
  if (cycles) extra.push(["in a cycle", dot(CYCLE)]);
  if (extra.length) row("marks", extra);
}
