// The current view as an SVG document: every node and edge at its laid-out position, with the
// colours of the legend (Cytoscape itself exports PNG and JPG only).

const esc = (s) =>
  String(s).replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c],
  );

const num = (n) => Math.round(n * 10) / 10;

/**
 * `colors`: kindColor(kind), langColor(language), cycle; `nodeSize` when the graph is drawn by
 * lite.js (Cytoscape headless, without styles: no sizes or bounding boxes of its own).
 */
export function toSvg(cy, colors) {
  const size = colors.nodeSize;
  const widthOf = (n) => size ?? n.width();
  const bb = size === undefined
    ? cy.elements().boundingBox({ includeLabels: true })
    : boundsOf(cy, size);
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
  for (const e of cy.edges()) {
    const s = e.source().position();
    const t = e.target().position();
    const r = widthOf(e.target()) / 2 + 2;
    const d = Math.hypot(t.x - s.x, t.y - s.y) || 1;
    const ex = t.x - ((t.x - s.x) / d) * r;
    const ey = t.y - ((t.y - s.y) / d) * r;
    const cycle = e.data("cycle");
    const color = cycle ? colors.cycle : "#b6bfcc";
    const dash = /EXTENDS|IMPLEMENTS/.test(e.data("rel")) ? ' stroke-dasharray="4 3"' : "";
    out.push(
      `<line x1="${num(s.x)}" y1="${num(s.y)}" x2="${num(ex)}" y2="${num(ey)}" stroke="${color}" ` +
        `stroke-width="${cycle ? 2.5 : 1.2}"${dash} marker-end="url(#${
          cycle ? "arrow-cycle" : "arrow"
        })"/>`,
    );
  }
  for (const n of cy.nodes()) {
    const p = n.position();
    const d = n.data();
    const fill = colors.kindColor(d.kind);
    const ring = colors.langColor(d.language);
    const w2 = widthOf(n) / 2;
    const dash = d.role !== "production" ? ' stroke-dasharray="3 2" fill-opacity="0.45"' : "";
    const title = `<title>${esc(d.qualified_name)} ${esc(d.path)}${
      d.line ? `:${d.line}` : ""
    }</title>`;
    if (d.scc >= 0) {
      out.push(
        `<circle cx="${num(p.x)}" cy="${num(p.y)}" r="${
          num(w2 + 5)
        }" fill="${colors.cycle}" fill-opacity="0.35"/>`,
      );
    }
    const shape = /Class|Struct|Interface|Directory/.test(d.kind)
      ? `<rect x="${num(p.x - w2)}" y="${num(p.y - w2)}" width="${num(2 * w2)}" height="${
        num(2 * w2)
      }" rx="3"`
      : `<circle cx="${num(p.x)}" cy="${num(p.y)}" r="${num(w2)}"`;
    out.push(
      `<g>${title}${shape} fill="${fill}" stroke="${ring}" stroke-width="${
        d.center ? 5 : 3
      }"${dash}/>`,
    );
    if (d.label && cy.nodes().length <= 1500) {
      out.push(
        `<text x="${num(p.x)}" y="${num(p.y + w2 + 12)}" text-anchor="middle" fill="#1d2330">${
          esc(d.label)
        }</text>`,
      );
    }
    out.push("</g>");
  }
  out.push("</svg>");
  return out.join("\n");
}

/** The box of every node of `size` with a label below it. */
function boundsOf(cy, size) {
  let [x1, y1, x2, y2] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const n of cy.nodes()) {
    const p = n.position();
    x1 = Math.min(x1, p.x - size / 2 - 55);
    x2 = Math.max(x2, p.x + size / 2 + 55);
    y1 = Math.min(y1, p.y - size / 2);
    y2 = Math.max(y2, p.y + size / 2 + 16);
  }
  if (x1 === Infinity) return { x1: 0, y1: 0, w: 0, h: 0 };
  return { x1, y1, w: x2 - x1, h: y2 - y1 };
}
