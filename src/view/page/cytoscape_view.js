// Graphs of up to a thousand nodes (and larger ones when the browser has no WebGL for sigma.js),
// drawn by Cytoscape.js: its canvas renderer, styles (look.js), layouts (layout.js). The drawing
// answers the page's questions as sigma_view.js does: nodes, edges, a node's place on screen,
// the edges a click marks, PNG and SVG exports.
import cytoscape from "./cytoscape.mjs";
import { toSvg } from "./export_svg.js";
import { fitViewport } from "./layout.js";
import { LEAN_FOCUS, stylesheet } from "./look.js";

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

/** Cytoscape's elements for the API's nodes (each maybe with `position`) and edges. */
function elementsOf(nodes, edges, look) {
  const out = [];
  for (const n of nodes) {
    const { position, ...rest } = n;
    out.push({
      group: "nodes",
      data: {
        ...rest,
        scc: n.scc ?? -1,
        fill: look.kindColor(n.kind),
        ring: look.langColor(n.language),
      },
      ...(position ? { position } : {}),
    });
  }
  for (const e of edges) out.push({ group: "edges", data: { ...e, count: e.count ?? 1 } });
  return out;
}

/**
 * Draws `g` into `container`. `layout`: `{positions}` by node id, or a Cytoscape layout to run;
 * `lean`: thousands of nodes (the lean stylesheet); `look`: kindColor, langColor; `on`: `tap(id)`,
 * `dbltap(id)`. `laidOut` resolves once the nodes have their places.
 */
export function cytoscapeDrawing(g, layout, container, { lean, look, on }) {
  const n = g.nodes.length;
  const placed = layout.positions !== undefined;
  const viewport = placed
    ? fitViewport(layout.positions, container.clientWidth, container.clientHeight, {
      size: lean ? 8 : 30,
      below: lean ? 0 : 16,
    })
    : {};
  const nodes = g.nodes.map((node) => ({
    ...node,
    center: node.id === g.center || undefined,
    position: placed ? layout.positions[node.id] : undefined,
  }));
  const cy = cytoscape({
    container,
    elements: elementsOf(nodes, g.edges, look),
    layout: placed ? { name: "cgraph-placed" } : { name: "preset", fit: false },
    ...viewport,
    minZoom: 0.02,
    maxZoom: 4,
    style: stylesheet(lean, n > 300),
    wheelSensitivity: 0.3,
    // A texture of the whole view while panning costs a render of its own on first paint;
    // hiding the edges keeps panning smooth enough.
    textureOnViewport: false,
    hideEdgesOnViewport: lean,
    motionBlur: false,
    boxSelectionEnabled: !lean,
    autoungrabify: lean,
    pixelRatio: lean ? 1 : "auto",
  });
  const laidOut = new Promise((resolve) => {
    if (placed) resolve();
    else {
      const run = cy.layout(layout);
      run.one("layoutstop", () => {
        cy.fit(undefined, 30);
        resolve();
      });
      run.run();
    }
  });
  cy.on("tap", "node", (ev) => on.tap(ev.target.id()));
  cy.on("dbltap", "node", (ev) => on.dbltap(ev.target.id()));

  return {
    renderer: "canvas",
    cy,
    laidOut,
    nodes: () => cy.nodes().map((node) => node.data()),
    edges: () => cy.edges().map((e) => e.data()),
    node(id) {
      const node = cy.getElementById(id);
      return node.nonempty() ? node.data() : undefined;
    },
    position: (id) => ({ ...cy.getElementById(id).position() }),
    renderedPosition: (id) => ({ ...cy.getElementById(id).renderedPosition() }),
    zoom: () => cy.zoom(),
    /** Marks the edges of node `id`, in and out (on a map of thousands: its imports). */
    focus(id) {
      cy.batch(() => {
        const before = cy.edges(".focus").removeClass("focus");
        const mine = id === undefined
          ? cy.collection()
          : cy.getElementById(id).connectedEdges().addClass("focus");
        // The lean stylesheet has no rule for it (a rule is matched against every element).
        if (lean) {
          before.removeStyle();
          mine.style(LEAN_FOCUS);
        }
      });
    },
    focused: () => cy.edges(".focus").map((e) => e.data()),
    add(more, edges) {
      const have = new Set(cy.elements().map((e) => e.id()));
      cy.add(
        elementsOf(more.filter((m) => !have.has(m.id)), edges.filter((e) => !have.has(e.id)), look),
      );
    },
    /** Waits until the browser has drawn Cytoscape's canvases (a one-pixel read waits on it). */
    sync() {
      for (const c of container.querySelectorAll("canvas")) {
        c.getContext("2d")?.getImageData(0, 0, 1, 1);
      }
    },
    /** The whole graph as a PNG Blob, twice the size, white under it. */
    png: () => cy.png({ output: "blob-promise", full: true, scale: 2, bg: "#ffffff" }),
    svg(colors) {
      const bb = cy.elements().boundingBox({ includeLabels: true });
      return toSvg({
        nodes: cy.nodes().map((node) => ({
          ...node.position(),
          w: node.width(),
          data: node.data(),
        })),
        edges: cy.edges().map((e) => ({
          s: e.source().position(),
          t: { ...e.target().position(), w: e.target().width() },
          data: e.data(),
        })),
        box: { x1: bb.x1, y1: bb.y1, w: bb.w, h: bb.h },
      }, colors);
    },
    clear: () => cy.elements().remove(),
    destroy: () => cy.destroy(),
  };
}
