/**
 * The page's files, embedded in the program (text imports, like the grammars' bytes): served
 * as they are, so `cgraph view` needs no network and works from the single-file build.
 * Cytoscape.js is the pinned npm package's own ES module build. sigma.js and graphology (graphs of
 * thousands of nodes) are their pinned packages' own browser bundles, which set `Sigma` and
 * `graphology` on globalThis (sigma_view.js imports them the first time it draws); the packages'
 * `exports` leave those files out, so scripts/vendor_view.ts copies them into page/vendor/ and
 * tests/view_assets_test.ts checks they are still the pinned packages' bytes.
 */
import cytoscape from "cytoscape/dist/cytoscape.esm.min.mjs" with { type: "text" };
import graphology from "./page/vendor/graphology.umd.min.js" with { type: "text" };
import sigma from "./page/vendor/sigma.min.js" with { type: "text" };
import app from "./page/app.js" with { type: "text" };
import cytoscapeView from "./page/cytoscape_view.js" with { type: "text" };
import exportSvg from "./page/export_svg.js" with { type: "text" };
import layout from "./page/layout.js" with { type: "text" };
import look from "./page/look.js" with { type: "text" };
import panel from "./page/panel.js" with { type: "text" };
import sigmaView from "./page/sigma_view.js" with { type: "text" };
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
  "cytoscape_view.js": { type: JS, body: cytoscapeView },
  "export_svg.js": { type: JS, body: exportSvg },
  "layout.js": { type: JS, body: layout },
  "look.js": { type: JS, body: look },
  "panel.js": { type: JS, body: panel },
  "sigma_view.js": { type: JS, body: sigmaView },
  "cytoscape.mjs": { type: JS, body: cytoscape },
  "graphology.js": { type: JS, body: graphology },
  "sigma.js": { type: JS, body: sigma },
  "style.css": { type: "text/css; charset=utf-8", body: style },
};
