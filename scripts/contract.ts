/**
 * Checks fixture contracts without a database: walk, analyze and resolve in memory, then compare
 * with fixtures/<lang>/expected.yaml. `deno run -A --unstable-raw-imports scripts/contract.ts
 * fixtures/<lang> [--edges]` (`--edges` prints every resolved edge).
 */
import { resolveAll } from "../src/index/resolve/mod.ts";
import { readManifests } from "../src/index/manifests.ts";
import { analyzeFiles, readCandidates } from "../src/index/scan.ts";
import { walkRepository } from "../src/index/walk.ts";
import { languageByName } from "../src/lang/registry.ts";
import { checkContract, readContract, viewOfResolution } from "../tests/helpers/contract.ts";

let failed = 0;
const showEdges = Deno.args.includes("--edges");
for (const dir of Deno.args.filter((a) => !a.startsWith("--"))) {
  const walk = await walkRepository(dir);
  const read = await readCandidates(walk.files, walk.skipped);
  const facts = await analyzeFiles(read, walk.skipped);
  const manifests = await readManifests(dir, walk.manifests);
  const view = viewOfResolution(
    facts,
    resolveAll(facts, languageByName, undefined, manifests.texts),
  );
  if (showEdges) {
    for (const e of view.edges.filter((e) => e.type !== "DEFINES")) {
      console.log(`${e.type} ${e.from} -> ${e.to}`);
    }
  }
  const problems = checkContract(await readContract(dir), view);
  console.log(`${dir}: ${problems.length ? `${problems.length} problem(s)` : "contract holds"}`);
  for (const p of problems) console.log(`  - ${p}`);
  if (problems.length) failed++;
}
Deno.exit(failed ? 1 : 0);
