/**
 * `deno run -A scripts/vendor_view.ts`: copies the browser bundles of sigma.js and graphology,
 * byte for byte, from the npm packages pinned in deno.json into src/view/page/vendor/, where
 * src/view/assets.ts embeds them (as cytoscape's own ES module build is embedded). Their packages'
 * `exports` do not include these bundles, so they cannot be imported from the packages directly;
 * tests/view_assets_test.ts checks the copies still equal the pinned packages' files. Run it after
 * changing either pin.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const VENDOR = join(ROOT, "src/view/page/vendor");

/** Each vendored file and where it comes from: the pinned package's own dist/ folder. */
export function vendored(): { name: string; from: string }[] {
  const dist = (pkg: string) => dirname(fileURLToPath(import.meta.resolve(pkg)));
  return [
    { name: "sigma.min.js", from: join(dist("sigma"), "sigma.min.js") },
    { name: "graphology.umd.min.js", from: join(dist("graphology"), "graphology.umd.min.js") },
  ];
}

if (import.meta.main) {
  await Deno.mkdir(VENDOR, { recursive: true });
  for (const { name, from } of vendored()) {
    await Deno.copyFile(from, join(VENDOR, name));
    console.log(`${from} -> src/view/page/vendor/${name}`);
  }
}
