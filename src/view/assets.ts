/**
 * The page's files, embedded in the program (text imports, like the grammars' bytes): served
 * as they are, so `cgraph view` needs no network and works from the single-file build.
 * Cytoscape.js is the pinned npm package's own ES module build.
 */
import cytoscape from "cytoscape/dist/cytoscape.esm.min.mjs" with { type: "text" };
import app from "./page/app.js" with { type: "text" };
import exportSvg from "./page/export_svg.js" with { type: "text" };
import layout from "./page/layout.js" with { type: "text" };
import lite from "./page/lite.js" with { type: "text" };
import look from "./page/look.js" with { type: "text" };
import panel from "./page/panel.js" with { type: "text" };
import style from "./page/style.css" with { type: "text" };
import index from "./page/index.html" with { type: "text" };

export interface Asset {
  type: string;
  body: string;
}

const JS = "text/javascript; charset=utf-8";

export const ASSETS: Readonly<Record<string, Asset>> = {
  "index.html": { type: "text/html; charset=utf-8", body: index },
  "app.js": { type: JS, body: app },
  "export_svg.js": { type: JS, body: exportSvg },
  "layout.js": { type: JS, body: layout },
  "lite.js": { type: JS, body: lite },
  "look.js": { type: JS, body: look },
  "panel.js": { type: JS, body: panel },
  "cytoscape.mjs": { type: JS, body: cytoscape },
  "style.css": { type: "text/css; charset=utf-8", body: style },
};
