/**
 * A full index resolves file by file (fileSteps via resolveFiles: src/index/resolve/steps.ts) over facts read back
 * from their packed segments, dropping each file's decoded parts and memo entries once it is
 * resolved, and keeps no file's edges: each file's edges, as yielded, must equal what a resolution
 * of the whole gives that file, in the same order (the stored edge lists are their JSON). No
 * database: facts come from the fixtures.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { Edge } from "../src/graph/model.ts";
import { packSegment, releaseDecoded, unpackSegment } from "../src/index/facts_store.ts";
import { readManifests } from "../src/index/manifests.ts";
import { analyzeParallel } from "../src/index/pool.ts";
import { resolveAll, resolveFiles, Structure } from "../src/index/resolve/mod.ts";
import { readCandidates } from "../src/index/scan.ts";
import { walkRepository } from "../src/index/walk.ts";
import { languageByName } from "../src/lang/registry.ts";
import { LANGUAGE_FIXTURES } from "./helpers/edits.ts";

const FIXTURES = [
  ...LANGUAGE_FIXTURES,
  "monorepo-ts",
  "monorepo-rust",
  "monorepo-java",
  "traps",
];

for (const name of FIXTURES) {
  Deno.test(`full steps: each file's edges as yielded == a whole resolution's (${name})`, async () => {
    const dir = new URL(`../fixtures/${name}`, import.meta.url).pathname;
    const walk = await walkRepository(dir);
    const manifests = (await readManifests(dir, walk.manifests)).texts;
    const facts = await analyzeParallel(await readCandidates(walk.files, []), []);
    const whole = resolveAll(facts, languageByName, undefined, manifests);
    // As staging.ts keeps them: packed in segments of a few files, read back lazily.
    const stored = [];
    for (let i = 0; i < facts.length; i += 7) {
      stored.push(...unpackSegment(packSegment(facts.slice(i, i + 7))));
    }
    const structure = Structure.build(stored, languageByName, manifests);
    const got = new Map<string, Edge[]>();
    // The memos across files emptied after every file (a full run does so every few thousand):
    // answers asked anew are the same.
    for (const { path, edges } of resolveFiles(structure, { memoFiles: 1 })) {
      got.set(path, edges);
      releaseDecoded(structure.files.get(path)!);
    }
    const json = (m: Map<string, Edge[]>) =>
      [...m].filter(([, l]) => l.length).map(([p, l]) => `${p} ${JSON.stringify(l)}`).sort();
    assertEquals(json(got), json(whole.edges));
    assertEquals([...got.keys()], [...whole.edges.keys()], "files in path order, each once");
  });
}
