/**
 * The view's embedded browser libraries: sigma.js and graphology are the pinned npm packages' own
 * browser bundles, byte for byte (copied into src/view/page/vendor/ by scripts/vendor_view.ts,
 * since the packages' `exports` leave them out), and every page file is served.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { ASSETS } from "../src/view/assets.ts";
import { VENDOR, vendored } from "../scripts/vendor_view.ts";

Deno.test("view assets: sigma.js and graphology are the pinned packages' bundles", async () => {
  for (const { name, from } of vendored()) {
    const pinned = await Deno.readFile(from);
    const copy = await Deno.readFile(join(VENDOR, name));
    assert(
      pinned.length === copy.length && pinned.every((b, i) => b === copy[i]),
      `src/view/page/vendor/${name} differs from ${from}: run scripts/vendor_view.ts`,
    );
  }
  assert(ASSETS["sigma.js"].body.includes("Sigma"), "sigma.js served");
  assert(ASSETS["graphology.js"].body.includes("graphology"), "graphology.js served");
});

Deno.test("view assets: every module the page imports is served", () => {
  const imported = new Set<string>();
  for (const [name, asset] of Object.entries(ASSETS)) {
    // The page's own modules (the libraries' bundles import nothing of the page's).
    if (!name.endsWith(".js") || name === "sigma.js" || name === "graphology.js") continue;
    for (const m of asset.body.matchAll(/\bimport\s*(?:[^"'()]*from\s*)?\(?\s*"\.\/([\w.]+)"/g)) {
      imported.add(m[1]);
    }
  }
  assert(imported.has("sigma.js") && imported.has("graphology.js"), [...imported].join(" "));
  assertEquals([...imported].filter((m) => !(m in ASSETS)), []);
});
