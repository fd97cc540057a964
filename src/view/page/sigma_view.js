// Graphs of thousands of nodes, drawn by sigma.js (WebGL) over a graphology graph: both pinned npm
// packages, embedded in the program like Cytoscape.js (src/view/assets.ts) and loaded the first
// time such a graph is drawn. Positions come from the page (layout.js: a grid, rows by depth), so
// there is no layout in the browser; sigma fits them to the view. A click on a node is the page's
// `tap`, a double click its `dbltap` (sigma's zoom on double click is kept for the background);
// drag pans, the wheel zooms, hovering a node names it, labels show once zoomed in far enough for
// them to fit. The drawing answers the page's questions (nodes, edges, a node's place on screen,
// PNG and SVG exports) as cytoscape_view.js does.
import { toSvg } from "./export_svg.js";

/** Node radius in position units: 8 wide, as Cytoscape's lean stylesheet draws them. */
export const NODE_RADIUS = 4;
const EDGE = "#b6bfcc";
const FOCUS = "#2f5bd3";
const LABEL = "#1d2330";

let loaded;

/** graphology's Graph and sigma's Sigma: their browser bundles (UMD) set them on globalThis. */
export function loadSigma() {
  loaded ??= (async () => {
    await import("./graphology.js");
    await import("./sigma.js");
    const { graphology, Sigma } = globalThis;
    if (typeof graphology !== "function" || typeof Sigma !== "function") {
      throw new Error("the sigma.js and graphology bundles did not load");
    }
    return { Graph: graphology, Sigma };
  })();
  return loaded;
}

let webgl2;

/** Whether this browser can give sigma.js the WebGL 2 it draws with (asked once a page). */
export function hasWebgl2() {
  if (webgl2 === undefined) {
    try {
      const gl = document.createElement("canvas").getContext("webgl2");
      webgl2 = !!gl;
      gl?.getExtension("WEBGL_lose_context")?.loseContext();
    } catch {
      webgl2 = false;
    }
  }
  return webgl2;
}

/**
 * Draws `g` (the API's graph) with sigma into `container`. `positions`: by node id, in the page's
 * model units (y down, as Cytoscape's); `look`: `cycle` colour, `fillOf(node)`;
 * `on`: `tap(id)`, `dbltap(id)`.
 */
export function sigmaDrawing({ Graph, Sigma }, g, positions, container, look, on) {
  const graph = new Graph({ type: "directed", multi: true, allowSelfLoops: true });
  for (const n of g.nodes) addNode(graph, n, positions[n.id], look, n.id === g.center);
  for (const e of g.edges) addEdge(graph, e, look);
  const tGraph = performance.now();
  const sigma = new Sigma(graph, container, {
    // Straight edges only: sigma compiles one program for every path declared, and its default
    // self-loop path makes every edge 32 segments (a recursive call's loop is not drawn).
    primitives: { edges: { paths: [Sigma.rendering.pathLine()] } },
    settings: {
      // Sizes in position units, growing with the zoom as the positions do.
      itemSizesReference: "positions",
      zoomToSizeRatioFunction: (ratio) => ratio,
      // A label once its node is 5 pixels across or more, one per 100-pixel cell of the view.
      labelRenderedSizeThreshold: 2.5,
      labelDensity: 1,
      minEdgeThickness: 0.6,
      // A node a few pixels across is still hit by a click next to it.
      nodePickingPadding: 3,
      minCameraRatio: 0.02,
      maxCameraRatio: 4,
      enableCameraRotation: false,
      enableCameraMouseRotation: false,
      // Tens of thousands of edges take a while a frame without a GPU (software WebGL): hidden
      // while panning and zooming.
      hideEdgesOnMove: g.edges.length > 5000,
    },
    styles: {
      nodes: [
        {
          x: { attribute: "x" },
          y: { attribute: "y" },
          size: { attribute: "size" },
          color: { attribute: "color" },
          opacity: { attribute: "opacity" },
          label: { attribute: "label" },
          labelColor: LABEL,
          labelSize: 11,
          labelVisibility: "auto",
          depth: "nodes",
        },
        {
          whenState: "isHighlighted",
          then: {
            labelVisibility: "visible",
            depth: "topNodes",
            backdropVisibility: "visible",
            backdropColor: "#dbe4fb",
            backdropShadowBlur: 0,
            backdropPadding: 3,
          },
        },
        {
          whenState: "isHovered",
          then: {
            labelVisibility: "visible",
            depth: "topNodes",
            backdropVisibility: "visible",
            backdropColor: "#ffffff",
            backdropShadowColor: "rgba(0, 0, 0, 0.4)",
            backdropShadowBlur: 8,
            backdropPadding: 3,
          },
        },
      ],
      edges: [
        {
          size: { attribute: "size" },
          color: { attribute: "color" },
          opacity: { attribute: "opacity" },
          depth: { attribute: "depth" },
        },
        {
          whenState: "isHighlighted",
          then: { color: FOCUS, size: 1.5, opacity: 1, depth: "topEdges" },
        },
      ],
    },
  });

  let focusedEdges = [];
  let selected;
  const focus = (id) => {
    if (focusedEdges.length) sigma.setEdgesState(focusedEdges, { isHighlighted: false });
    if (selected !== undefined && graph.hasNode(selected)) {
      sigma.setNodeState(selected, { isHighlighted: false });
    }
    selected = id;
    focusedEdges = id === undefined ? [] : graph.edges(id);
    if (focusedEdges.length) sigma.setEdgesState(focusedEdges, { isHighlighted: true });
    if (id !== undefined) sigma.setNodeState(id, { isHighlighted: true });
  };
  sigma.on("clickNode", ({ node }) => on.tap(node));
  sigma.on("doubleClickNode", ({ node, preventSigmaDefault }) => {
    preventSigmaDefault();
    on.dbltap(node);
  });
  sigma.on("clickStage", () => focus(undefined));
  sigma.on(
    "enterNode",
    ({ node }) => (container.title = titleOf(graph.getNodeAttribute(node, "data"))),
  );
  sigma.on("leaveNode", () => container.removeAttribute("title"));
  // sigma sizes its canvas when it renders, and places labels with a grid of the view made when
  // it processes the nodes: when the container changes size (the side panel opens), both anew.
  let size = `${container.clientWidth}x${container.clientHeight}`;
  const resized = new ResizeObserver(() => {
    const now = `${container.clientWidth}x${container.clientHeight}`;
    if (now === size) return;
    size = now;
    sigma.scheduleRefresh({ partialGraph: { nodes: [] } });
  });
  resized.observe(container);

  const data = (key) => graph.getNodeAttribute(key, "data");
  return {
    renderer: "sigma",
    sigma,
    graph,
    /** When the graphology graph was built (the rest of the construction is sigma's). */
    builtAt: tGraph,
    nodes: () => graph.mapNodes((_key, a) => a.data),
    edges: () => graph.mapEdges((_key, a) => a.data),
    node: (id) => (graph.hasNode(id) ? data(id) : undefined),
    /** Where node `id` is, in the page's model units. */
    position(id) {
      const a = graph.getNodeAttributes(id);
      return { x: a.x, y: -a.y };
    },
    /** Where node `id` is drawn, in pixels from the container's top left corner. */
    renderedPosition(id) {
      const a = graph.getNodeAttributes(id);
      return sigma.graphToViewport({ x: a.x, y: a.y });
    },
    /** How far the view is zoomed in (bigger: closer). */
    zoom: () => 1 / sigma.getCamera().ratio,
    focus,
    focused: () => focusedEdges.map((k) => graph.getEdgeAttribute(k, "data")),
    /** Adds nodes (each with `position`, model units) and edges not drawn yet. */
    add(nodes, edges) {
      for (const n of nodes) if (!graph.hasNode(n.id)) addNode(graph, n, n.position, look);
      for (const e of edges) if (!graph.hasEdge(e.id)) addEdge(graph, e, look);
    },
    /** Waits until the GPU has drawn what was asked of it (a one-pixel read waits on it). */
    sync() {
      const gl = sigma.getWebGLContext();
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.UNSIGNED_BYTE, new Uint8Array(4));
    },
    /** What the view shows now, as a PNG Blob (`scale` device pixels a pixel, white under it). */
    png() {
      return new Promise((resolve) => {
        // WebGL keeps its pixels only until they are shown: copy them right after a render.
        sigma.once("afterRender", () => {
          const stage = sigma.getStageCanvas();
          const out = document.createElement("canvas");
          out.width = stage.width;
          out.height = stage.height;
          const c = out.getContext("2d");
          c.fillStyle = "#ffffff";
          c.fillRect(0, 0, out.width, out.height);
          c.drawImage(stage, 0, 0);
          out.toBlob(resolve, "image/png");
        });
        sigma.scheduleRender();
      });
    },
    svg(colors) {
      const items = {
        nodes: graph.mapNodes((_key, a) => ({ x: a.x, y: -a.y, w: 2 * a.size, data: a.data })),
        edges: graph.mapEdges((_key, a, _s, _t, sa, ta) => ({
          s: { x: sa.x, y: -sa.y },
          t: { x: ta.x, y: -ta.y, w: 2 * ta.size },
          data: a.data,
        })),
      };
      return toSvg(items, colors);
    },
    clear() {
      focus(undefined);
      graph.clear();
    },
    destroy() {
      resized.disconnect();
      sigma.kill();
      container.removeAttribute("title");
    },
  };
}

/** `center`: the node a neighbourhood or an impact view is about, drawn larger. */
function addNode(graph, n, p, look, center = false) {
  const cycle = n.scc !== undefined && n.scc >= 0;
  graph.addNode(n.id, {
    // sigma's y axis points up, the page's down.
    x: p?.x ?? 0,
    y: -(p?.y ?? 0),
    size: center ? 1.6 * NODE_RADIUS : NODE_RADIUS,
    color: cycle ? look.cycle : look.fillOf(n),
    opacity: n.role !== undefined && n.role !== "production" ? 0.45 : 1,
    label: n.label,
    data: n,
  });
}

function addEdge(graph, e, look) {
  graph.addDirectedEdgeWithKey(e.id, e.source, e.target, {
    size: e.cycle ? 1 : 0.5,
    color: e.cycle ? look.cycle : EDGE,
    opacity: e.cycle ? 1 : 0.6,
    depth: e.cycle ? "topEdges" : "edges",
    data: e,
  });
}

function titleOf(d) {
  return d.path && d.path !== d.qualified_name
    ? `${d.qualified_name}\n${d.path}${d.line ? `:${d.line}` : ""}`
    : d.qualified_name ?? d.label ?? d.id;
}
