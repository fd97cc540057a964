/**
 * The resolver's structure kept by a long-lived process (src/index/resolve/structure.ts): patched
 * per changed file, it must equal one built from the same facts, list order included, and the
 * edges resolved over it must equal a full resolution's. No database: facts come from the
 * fixtures, edited at random.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { FileFacts } from "../src/graph/facts.ts";
import { affectedFiles } from "../src/index/affected.ts";
import { readCandidates } from "../src/index/scan.ts";
import { analyzeParallel } from "../src/index/pool.ts";
import { readManifests } from "../src/index/manifests.ts";
import { walkRepository } from "../src/index/walk.ts";
import { type Resolution, resolveAll, resolveWith, Structure } from "../src/index/resolve/mod.ts";
import type { DefRef } from "../src/index/resolve/model.ts";
import { languageByName } from "../src/lang/registry.ts";
import { copyFixture, LANGUAGE_FIXTURES, prng, randomEdit } from "./helpers/edits.ts";

const LANGS = LANGUAGE_FIXTURES;

async function factsOf(dir: string, previous?: Map<string, FileFacts>) {
  const walk = await walkRepository(dir);
  const manifests = await readManifests(dir, walk.manifests);
  const read = await readCandidates(walk.files, []);
  const same: FileFacts[] = [];
  const toParse = read.filter((f) => {
    const old = previous?.get(f.candidate.path);
    if (old && old.hash === f.hash) same.push(old);
    return !(old && old.hash === f.hash);
  });
  const fresh = await analyzeParallel(toParse, []);
  const all = new Map([...same, ...fresh].map((f) => [f.path, f]));
  return { all, fresh, manifests: manifests.texts };
}

/** Every list of a structure as ids in order (DefRefs by file and index). */
function dump(s: Structure): unknown {
  const ref = (r: DefRef) => `${r.file.path}#${r.index}:${r.node.id}`;
  const nested = (m: Map<string, Map<string, DefRef[]>>) =>
    [...m].map(([k, inner]) => [k, [...inner].map(([n, l]) => [n, l.map(ref)]).sort()]).sort();
  const flat = (m: Map<string, DefRef[]>) => [...m].map(([k, l]) => [k, l.map(ref)]).sort();
  return {
    files: [...s.files.keys()],
    global: nested(s.globalNames),
    method: nested(s.methodNames),
    members: nested(s.members),
    extensions: nested(s.extensions),
    modules: flat(s.modulesByName),
    open: flat(s.openParts),
    byId: [...s.byId].map(([id, r]) => `${id}=${ref(r)}`).sort(),
  };
}

function edgesOf(res: Resolution, paths: Iterable<string>): string[] {
  const out: string[] = [];
  for (const p of paths) {
    for (const e of res.edges.get(p) ?? []) out.push(`${p}|${JSON.stringify(e)}`);
  }
  return out.sort();
}

for (const seed of [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]) {
  Deno.test(`structure: patched per edit == built anew, and so are the edges (seed ${seed})`, async () => {
    const langs = [...new Set([LANGS[seed % LANGS.length], LANGS[(seed * 5) % LANGS.length]])];
    const dir = await copyFixture(...langs);
    const rnd = prng(seed);
    try {
      let { all, manifests } = await factsOf(dir);
      let structure = Structure.build([...all.values()], languageByName, manifests);
      let patches = 0;
      for (let round = 0; round < 10; round++) {
        const log = await randomEdit(dir, rnd, true);
        const next = await factsOf(dir, all);
        const changed = new Set(next.fresh.map((f) => f.path));
        const only = affectedFiles(all, next.all, changed, () => []);
        const patched = structure.patch(next.fresh);
        const built = Structure.build([...next.all.values()], languageByName, next.manifests);
        // A file that no longer parses changes the set of files: the structure is built anew.
        if (patched && only) patches++;
        if (patched) assertEquals(dump(structure), dump(built), `round ${round}: ${log}`);
        else structure = built;
        const full = resolveAll([...next.all.values()], languageByName, undefined, next.manifests);
        const whole = resolveWith(structure);
        assertEquals(edgesOf(whole, full.resolved), edgesOf(full, full.resolved), log);
        const part = resolveWith(structure, only);
        const paths = only ?? full.resolved;
        assertEquals(edgesOf(part, paths), edgesOf(full, paths), `round ${round}: ${log}`);
        all = next.all;
        manifests = next.manifests;
      }
      // Most in-file edits change names only: the patched path must have been taken.
      assertEquals(patches > 0, true, "no round took the patched path");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
