// Graphs of thousands of nodes, drawn by the page itself. Cytoscape holds such a graph headless
// (its elements, data, classes, selection, events and viewport: what the rest of the page and the
// tests read), and this paints it on one canvas: every node and every edge, each frame, in tens of
// milliseconds where Cytoscape's own renderers take seconds (styles, bounding boxes and textures
// per element). Pan by dragging, zoom with the wheel; a click or double click on a node is
// Cytoscape's `tap` / `dbltap` on it, so the page's handlers are the same for both. Labels show once
// zoomed in far enough to read them.

/** Node diameter in model units (as the lean stylesheet had it). */
export const LITE_SIZE = 8;
const EDGE = "#b6bfcc";
const FOCUS = "#2f5bd3";
const LABEL = "#1d2330";
const FONT = 10;
/** Labels are drawn when a label's font is at least this many screen pixels, ... */
const LABEL_MIN_PX = 7;
/** ...there is room for this many characters beside a node's neighbour, ... */
const LABEL_MIN_CHARS = 6;
/** ...and no more than this many nodes are in view. */
const LABEL_MAX = 2500;
/** A press that moves less than this (px) is a click, not a drag. */
const CLICK_SLOP = 4;
/** Exported PNGs are at most this many pixels a side. */
const PNG_MAX = 8192;

/**
 * Paints headless `cy` into `container` until `cy` is destroyed. `look`: `cycle`, the colour of
 * cycles. Returns `{ png(opts), redraw() }`.
 */
export function litePainter(cy, container, look) {
  const canvas = document.createElement("canvas");
  canvas.style.cssText = "position:absolute;inset:0;width:100%;height:100%;touch-action:none";
  container.append(canvas);
  const ctx = canvas.getContext("2d");
  const g = snapshot(cy, look);
  let queued = false;
  let width = 0;
  let height = 0;

  const frame = () => {
    queued = false;
    if (g.stale) g.rebuild();
    const dpr = Math.min(2, globalThis.devicePixelRatio || 1);
    width = container.clientWidth;
    height = container.clientHeight;
    if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
    }
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    const zoom = cy.zoom();
    const pan = cy.pan();
    drawGraph(ctx, g, { zoom, pan, width, height, scale: dpr });
  };
  const redraw = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(frame);
  };

  // ---- input: drag to pan, wheel to zoom, click / double click on a node --------------------------

  let press;
  let hovered = -1;
  const local = (ev) => {
    const box = canvas.getBoundingClientRect();
    return { x: ev.clientX - box.left, y: ev.clientY - box.top };
  };
  const onDown = (ev) => {
    if (ev.button !== 0) return;
    press = { at: local(ev), pan: { ...cy.pan() }, moved: false };
    canvas.setPointerCapture?.(ev.pointerId);
  };
  const onMove = (ev) => {
    const at = local(ev);
    if (!press) {
      const i = g.hit(at, cy.zoom(), cy.pan());
      if (i !== hovered) {
        hovered = i;
        canvas.title = i < 0 ? "" : g.title(i);
        canvas.style.cursor = i < 0 ? "" : "pointer";
      }
      return;
    }
    const dx = at.x - press.at.x;
    const dy = at.y - press.at.y;
    if (!press.moved && Math.hypot(dx, dy) < CLICK_SLOP) return;
    press.moved = true;
    canvas.style.cursor = "grabbing";
    cy.pan({ x: press.pan.x + dx, y: press.pan.y + dy });
  };
  const onUp = (ev) => {
    if (!press) return;
    const moved = press.moved;
    press = undefined;
    canvas.style.cursor = "";
    if (moved) return;
    const i = g.hit(local(ev), cy.zoom(), cy.pan());
    if (i < 0) {
      cy.$(":selected").unselect();
      cy.emit("tap");
      return;
    }
    const node = g.nodes[i];
    cy.$(":selected").not(node).unselect();
    node.select();
    node.emit("tap");
  };
  const onDouble = (ev) => {
    const i = g.hit(local(ev), cy.zoom(), cy.pan());
    if (i >= 0) g.nodes[i].emit("dbltap");
  };
  const onWheel = (ev) => {
    ev.preventDefault();
    const delta = ev.deltaY * (ev.deltaMode === 1 ? 33 : ev.deltaMode === 2 ? 400 : 1);
    cy.zoom({ level: cy.zoom() * Math.exp(-delta * 0.002), renderedPosition: local(ev) });
  };
  canvas.addEventListener("pointerdown", onDown);
  canvas.addEventListener("pointermove", onMove);
  canvas.addEventListener("pointerup", onUp);
  canvas.addEventListener("pointercancel", () => (press = undefined));
  canvas.addEventListener("dblclick", onDouble);
  canvas.addEventListener("wheel", onWheel, { passive: false });
  const resized = new ResizeObserver(() => {
    cy.invalidateSize();
    redraw();
  });
  resized.observe(container);

  cy.on("viewport", redraw);
  cy.on("select unselect", "node", () => {
    g.selectedStale = true;
    redraw();
  });
  cy.on("class", "edge", () => {
    g.focusStale = true;
    redraw();
  });
  cy.on("add remove position", () => {
    g.stale = true;
    redraw();
  });
  cy.one("destroy", () => {
    resized.disconnect();
    canvas.remove();
  });
  redraw();

  return {
    redraw,
    /** The whole graph as a PNG Blob (as cy.png({ output: "blob-promise", full: true }) gives). */
    png({ scale = 1, bg } = {}) {
      if (g.stale) g.rebuild();
      const b = g.bounds();
      const pad = 10;
      const w = b.x2 - b.x1 + 2 * pad;
      const h = b.y2 - b.y1 + 2 * pad;
      const s = Math.min(scale, PNG_MAX / w, PNG_MAX / h);
      const out = document.createElement("canvas");
      out.width = Math.max(1, Math.ceil(w * s));
      out.height = Math.max(1, Math.ceil(h * s));
      const c = out.getContext("2d");
      if (bg) {
        c.fillStyle = bg;
        c.fillRect(0, 0, out.width, out.height);
      }
      drawGraph(c, g, {
        zoom: 1,
        pan: { x: pad - b.x1, y: pad - b.y1 },
        width: w,
        height: h,
        scale: s,
      });
      return new Promise((resolve) => out.toBlob(resolve, "image/png"));
    },
  };
}

/** The graph as flat arrays, rebuilt when elements come or go; the focused edges apart. */
function snapshot(cy, look) {
  const g = {
    look,
    stale: true,
    focusStale: true,
    selectedStale: true,
    picked: [],
    nodes: [],
    xs: new Float64Array(0),
    ys: new Float64Array(0),
    /** Node indices by look: [{fill, ring, faded, members}]. */
    groups: [],
    /** Edge ends as node indices, plain and in-cycle apart. */
    plain: new Int32Array(0),
    cyclic: new Int32Array(0),
    focus: new Int32Array(0),
    rebuild() {
      g.stale = false;
      g.focusStale = true;
      g.selectedStale = true;
      const ns = cy.nodes();
      const n = ns.length;
      g.nodes = ns.toArray();
      g.xs = new Float64Array(n);
      g.ys = new Float64Array(n);
      g.index = new Map();
      const groups = new Map();
      for (let i = 0; i < n; i++) {
        const d = g.nodes[i].data();
        const p = g.nodes[i].position();
        g.xs[i] = p.x;
        g.ys[i] = p.y;
        g.index.set(d.id, i);
        const cyc = d.scc !== undefined && d.scc >= 0;
        const fill = cyc ? look.cycle : d.fill;
        const ring = cyc ? look.cycle : d.ring;
        const faded = d.role !== undefined && d.role !== "production";
        const key = `${fill} ${ring} ${faded}`;
        let grp = groups.get(key);
        if (!grp) groups.set(key, grp = { fill, ring, faded, members: [] });
        grp.members.push(i);
      }
      g.groups = [...groups.values()];
      // The room a label has: the distance between neighbours in a grid of this many nodes.
      const b = g.bounds();
      g.spacing = n > 1 ? Math.sqrt(Math.max(1, (b.x2 - b.x1) * (b.y2 - b.y1)) / n) : 120;
      const plain = [];
      const cyclic = [];
      for (const e of cy.edges()) {
        const d = e.data();
        const a = g.index.get(d.source);
        const b = g.index.get(d.target);
        (d.cycle ? cyclic : plain).push(a, b);
      }
      g.plain = Int32Array.from(plain);
      g.cyclic = Int32Array.from(cyclic);
    },
    focused() {
      if (g.focusStale) {
        g.focusStale = false;
        const f = [];
        for (const e of cy.edges(".focus")) {
          f.push(g.index.get(e.data("source")), g.index.get(e.data("target")));
        }
        g.focus = Int32Array.from(f);
      }
      return g.focus;
    },
    selected() {
      if (g.selectedStale) {
        g.selectedStale = false;
        g.picked = [];
        for (const n of cy.nodes(":selected")) {
          const i = g.index.get(n.id());
          if (i !== undefined) g.picked.push(i);
        }
      }
      return g.picked;
    },
    /** The node drawn at rendered point `at` (the topmost, the nearest), or -1. */
    hit(at, zoom, pan) {
      if (g.stale) g.rebuild();
      const x = (at.x - pan.x) / zoom;
      const y = (at.y - pan.y) / zoom;
      const r = LITE_SIZE / 2 + 3 / zoom;
      let best = -1;
      let bestD = r * r;
      for (let i = 0; i < g.xs.length; i++) {
        const dx = g.xs[i] - x;
        const dy = g.ys[i] - y;
        const d = dx * dx + dy * dy;
        if (d <= bestD) {
          best = i;
          bestD = d;
        }
      }
      return best;
    },
    title(i) {
      const d = g.nodes[i].data();
      return d.path && d.path !== d.qualified_name
        ? `${d.qualified_name}\n${d.path}${d.line ? `:${d.line}` : ""}`
        : d.qualified_name ?? d.label ?? d.id;
    },
    bounds() {
      let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let i = 0; i < g.xs.length; i++) {
        if (g.xs[i] < x1) x1 = g.xs[i];
        if (g.xs[i] > x2) x2 = g.xs[i];
        if (g.ys[i] < y1) y1 = g.ys[i];
        if (g.ys[i] > y2) y2 = g.ys[i];
      }
      if (x1 === Infinity) return { x1: 0, y1: 0, x2: 0, y2: 0 };
      const r = LITE_SIZE / 2 + 1;
      return { x1: x1 - r, y1: y1 - r, x2: x2 + r, y2: y2 + r + FONT + 4 };
    },
  };
  return g;
}

/**
 * Draws `g` onto `ctx`, the model seen at `zoom` and `pan` in a `width` x `height` box (CSS
 * pixels, `scale` device pixels each): edges, then nodes, then labels if zoomed in enough.
 */
function drawGraph(ctx, g, { zoom, pan, width, height, scale }) {
  ctx.setTransform(zoom * scale, 0, 0, zoom * scale, pan.x * scale, pan.y * scale);
  const px = 1 / zoom;
  // What is in view, in model units (with a node's margin).
  const m = LITE_SIZE + FONT * 2;
  const x1 = -pan.x / zoom - m;
  const y1 = -pan.y / zoom - m;
  const x2 = (width - pan.x) / zoom + m;
  const y2 = (height - pan.y) / zoom + m;
  const { xs, ys } = g;
  const lines = (ends) => {
    ctx.beginPath();
    for (let k = 0; k < ends.length; k += 2) {
      const a = ends[k];
      const b = ends[k + 1];
      const ax = xs[a];
      const ay = ys[a];
      const bx = xs[b];
      const by = ys[b];
      if ((ax < x1 && bx < x1) || (ax > x2 && bx > x2)) continue;
      if ((ay < y1 && by < y1) || (ay > y2 && by > y2)) continue;
      ctx.moveTo(ax, ay);
      ctx.lineTo(bx, by);
    }
    ctx.stroke();
  };
  ctx.lineCap = "butt";
  ctx.globalAlpha = 0.6;
  ctx.strokeStyle = EDGE;
  ctx.lineWidth = 0.5;
  lines(g.plain);
  ctx.globalAlpha = 1;
  ctx.strokeStyle = g.look.cycle;
  ctx.lineWidth = Math.max(1, 0.8 * px);
  lines(g.cyclic);
  ctx.strokeStyle = FOCUS;
  ctx.lineWidth = Math.max(1.5, 1.2 * px);
  lines(g.focused());

  const r = LITE_SIZE / 2;
  let shown = 0;
  for (const grp of g.groups) {
    ctx.beginPath();
    for (const i of grp.members) {
      const x = xs[i];
      const y = ys[i];
      if (x < x1 || x > x2 || y < y1 || y > y2) continue;
      shown++;
      ctx.moveTo(x + r, y);
      ctx.arc(x, y, r, 0, 2 * Math.PI);
    }
    ctx.globalAlpha = grp.faded ? 0.45 : 1;
    ctx.fillStyle = grp.fill;
    ctx.fill();
    ctx.globalAlpha = 1;
    ctx.lineWidth = 1;
    ctx.strokeStyle = grp.ring;
    ctx.stroke();
  }
  const selected = g.selected();
  if (selected.length) {
    ctx.beginPath();
    for (const i of selected) {
      ctx.moveTo(xs[i] + r + 3, ys[i]);
      ctx.arc(xs[i], ys[i], r + 3, 0, 2 * Math.PI);
    }
    ctx.globalAlpha = 0.35;
    ctx.fillStyle = FOCUS;
    ctx.fill();
    ctx.globalAlpha = 1;
  }
  if (FONT * zoom * scale < LABEL_MIN_PX || shown > LABEL_MAX) return;
  ctx.font = `${FONT}px sans-serif`;
  // Labels cut to the room between neighbours (as many characters as fit), or none.
  const charW = ctx.measureText("abcdefghijklmnopqrstuvwxyz_0123456789").width / 37;
  const room = Math.min(110, g.spacing - 2);
  const chars = Math.floor(room / charW);
  if (chars < LABEL_MIN_CHARS) return;
  ctx.textAlign = "center";
  ctx.textBaseline = "top";
  ctx.fillStyle = LABEL;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i];
    const y = ys[i];
    if (x < x1 || x > x2 || y < y1 || y > y2) continue;
    const label = g.nodes[i].data("label");
    if (!label) continue;
    ctx.fillText(label.length > chars ? `${label.slice(0, chars - 1)}…` : label, x, y + r + 2);
  }
}
