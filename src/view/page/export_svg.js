// The current view as an SVG document: every node and edge at its laid-out position, with the
// colours of the legend (Cytoscape exports PNG and JPG only, sigma.js neither). Both drawings give
// it their elements: `nodes` [{x, y, w (width), data}], `edges` [{s: {x, y}, t: {x, y, w}, data}],
// in the page's model units; `box` ({x1, y1, w, h}) when the renderer measured the labels itself.

const esc = (s) =>
  String(s).replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c],
  );

const num = (n) => Math.round(n * 10) / 10;

/** `colors`: kindColor(kind), langColor(language), cycle. */
export function toSvg({ nodes, edges, box }, colors) {
  const bb = box ?? boundsOf(nodes);
  const pad = 20;
  const x0 = bb.x1 - pad;
  const y0 = bb.y1 - pad;
  const w = Math.max(1, bb.w + 2 * pad);
  const h = Math.max(1, bb.h + 2 * pad);
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${num(x0)} ${num(y0)} ${num(w)} ${num(h)}" ` +
    `width="${num(w)}" height="${num(h)}" font-family="sans-serif" font-size="10">`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" ' +
    'markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#b6bfcc"/></marker>' +
    '<marker id="arrow-cycle" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" ' +
    `markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="${colors.cycle}"/></marker></defs>`,
    `<rect x="${num(x0)}" y="${num(y0)}" width="${num(w)}" height="${num(h)}" fill="#ffffff"/>`,
  ];
  for (const { s, t, data } of edges) {
    const r = t.w / 2 + 2;
    const d = Math.hypot(t.x - s.x, t.y - s.y) || 1;
    const ex = t.x - ((t.x - s.x) / d) * r;
    const ey = t.y - ((t.y - s.y) / d) * r;
    const cycle = data.cycle;
    const color = cycle ? colors.cycle : "#b6bfcc";
    const dash = /EXTENDS|IMPLEMENTS/.test(data.rel) ? ' stroke-dasharray="4 3"' : "";
    out.push(
      `<line x1="${num(s.x)}" y1="${num(s.y)}" x2="${num(ex)}" y2="${num(ey)}" stroke="${color}" ` +
        `stroke-width="${cycle ? 2.5 : 1.2}"${dash} marker-end="url(#${
          cycle ? "arrow-cycle" : "arrow"
        })"/>`,
    );
  }
  const labels = nodes.length <= 1500;
  for (const { x, y, w: width, data: d } of nodes) {
    const fill = colors.kindColor(d.kind);
    const ring = colors.langColor(d.language);
    const w2 = width / 2;
    const dash = d.role !== "production" ? ' stroke-dasharray="3 2" fill-opacity="0.45"' : "";
    const title = `<title>${esc(d.qualified_name)} ${esc(d.path)}${
      d.line ? `:${d.line}` : ""
    }</title>`;
    if (d.scc >= 0) {
      out.push(
        `<circle cx="${num(x)}" cy="${num(y)}" r="${
          num(w2 + 5)
        }" fill="${colors.cycle}" fill-opacity="0.35"/>`,
      );
    }
    const shape = /Class|Struct|Interface|Directory/.test(d.kind)
      ? `<rect x="${num(x - w2)}" y="${num(y - w2)}" width="${num(2 * w2)}" height="${
        num(2 * w2)
      }" rx="3"`
      : `<circle cx="${num(x)}" cy="${num(y)}" r="${num(w2)}"`;
    out.push(
      `<g>${title}${shape} fill="${fill}" stroke="${ring}" stroke-width="${
        d.center ? 5 : 3
      }"${dash}/>`,
    );
    if (d.label && labels) {
      out.push(
        `<text x="${num(x)}" y="${num(y + w2 + 12)}" text-anchor="middle" fill="#1d2330">${
          esc(d.label)
        }</text>`,
      );
    }
    out.push("</g>");
  }
  out.push("</svg>");
  return out.join("\n");
}

/** The box of every node with a label below it (up to 110 wide, as Cytoscape cuts them). */
function boundsOf(nodes) {
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { x, y, w } of nodes) {
    x1 = Math.min(x1, x - w / 2 - 55);
    x2 = Math.max(x2, x + w / 2 + 55);
    y1 = Math.min(y1, y - w / 2);
    y2 = Math.max(y2, y + w / 2 + 16);
  }
  if (x1 === Infinity) return { x1: 0, y1: 0, w: 0, h: 0 };
  return { x1, y1, w: x2 - x1, h: y2 - y1 };
}
