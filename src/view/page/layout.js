// Where nodes go: rows by depth for neighbourhoods and impact (callers above, callees below),
// Cytoscape's own layouts for module maps, a precomputed grid for very large ones.

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
 * How to place a graph: a Cytoscape layout, or (`preset: true`) positions by node id computed
 * here, set on the elements before Cytoscape starts. `large` graphs always get the latter.
 */
export function layoutFor(g, n, large) {
  if (g.mode === "neighbors" || g.mode === "impact") {
    const pos = layeredPositions(g);
    if (large) return { preset: true, positions: pos };
    return { name: "preset", positions: (node) => pos[node.id()], animate: false };
  }
  if (large) return { preset: true, positions: gridPositions(g) };
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
  return {
    name: "concentric",
    concentric: (node) => node.degree(),
    levelWidth: () => 4,
    animate: false,
    minNodeSpacing: 2,
  };
}

/**
 * Very large maps: a square grid in path order (a directory's files together), cycle members
 * first so they sit together at the top; linear time.
 */
function gridPositions(g) {
  const order = [...g.nodes].sort((a, b) =>
    (a.scc ?? 1e9) - (b.scc ?? 1e9) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)
  );
  const side = Math.ceil(Math.sqrt(order.length));
  const pos = {};
  order.forEach((node, i) => (pos[node.id] = { x: (i % side) * 20, y: Math.floor(i / side) * 20 }));
  return pos;
}
