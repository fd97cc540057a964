// Where nodes go: rows by depth for neighbourhoods and impact (callers above, callees below),
// Cytoscape's force-directed layout for small module maps, a grid for larger ones.

/** Callers (and dependents) in rows above the centre by depth, callees below; linear time. */
export function layeredPositions(g) {
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

/**
 * How to place a graph: `{positions}` by node id, computed here and set on the elements before
 * the renderer starts (neighbourhoods and impact: rows by depth; maps of more than 150 nodes, or
 * any when `placed`: a grid in path order), or a Cytoscape layout (small maps: force-directed).
 */
export function layoutFor(g, n, { placed = false } = {}) {
  if (g.mode === "neighbors" || g.mode === "impact") return { positions: layeredPositions(g) };
  if (n > 150 || placed) return { positions: gridPositions(g, n > 1000 ? 20 : 60) };
  return {
    name: "cose",
    animate: false,
    randomize: false,
    nodeRepulsion: () => 9000,
    idealEdgeLength: () => 60,
    numIter: 400,
  };
}

/**
 * Maps of more than 150 nodes: a square grid in path order (a directory's files together), cycle members
 * first so they sit together at the top; linear time.
 */
function gridPositions(g, step) {
  const order = [...g.nodes].sort((a, b) =>
    (a.scc ?? 1e9) - (b.scc ?? 1e9) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
  const side = Math.ceil(Math.sqrt(order.length));
  const pos = {};
  order.forEach((
    node,
    i,
  ) => (pos[node.id] = { x: (i % side) * step, y: Math.floor(i / side) * step }));
  return pos;
}

/**
 * The zoom and pan that fit `positions` (node centres) in a `w` x `h` box with `padding`, nodes
 * `size` wide and labels `below` them: what cy.fit() computes, without measuring every element.
 */
export function fitViewport(positions, w, h, { size, below = 0, padding = 30 }) {
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const id in positions) {
    const p = positions[id];
    if (p.x < x1) x1 = p.x;
    if (p.x > x2) x2 = p.x;
    if (p.y < y1) y1 = p.y;
    if (p.y > y2) y2 = p.y;
  }
  if (x1 === Infinity) return { zoom: 1, pan: { x: w / 2, y: h / 2 } };
  x1 -= size / 2;
  x2 += size / 2;
  y1 -= size / 2;
  y2 += size / 2 + below;
  const zoom = Math.max(
    0.02,
    Math.min(4, (w - 2 * padding) / (x2 - x1), (h - 2 * padding) / (y2 - y1)),
  );
  return {
    zoom,
    pan: { x: (w - zoom * (x1 + x2)) / 2, y: (h - zoom * (y1 + y2)) / 2 },
  };
}
