/**
 * The indexer against a real FalkorDB: every fixture's contract, id stability, incremental == full
 * under random edit sequences, and bad input that must never crash or lose a graph.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { keysFor } from "../src/project/names.ts";
import { checkContract, readContract } from "./helpers/contract.ts";
import { testDb } from "./helpers/db.ts";
import { copyFixture, prng, randomEdit } from "./helpers/edits.ts";
import { dropProject, dumpGraph, indexAs, uniqueName, viewOfGraph } from "./helpers/graph.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
const opts = { sanitizeOps: false, sanitizeResources: false };

const fixtureDirs = [...Deno.readDirSync(FIXTURES)]
  .filter((e) => e.isDirectory)
  .map((e) => e.name)
  .filter((name) => {
    try {
      return Deno.statSync(join(FIXTURES, name, "expected.yaml")).isFile;
    } catch {
      return false;
    }
  })
  .sort();

for (const lang of fixtureDirs) {
  Deno.test({ name: `fixture contract: ${lang}`, ...opts }, async () => {
    const db = await testDb();
    const project = uniqueName(`fx-${lang}`);
    try {
      const summary = await indexAs(db, join(FIXTURES, lang), project);
      assertEquals(summary.mode, "full");
      const view = await viewOfGraph(db, keysFor(project, "test").graph);
      const problems = checkContract(await readContract(join(FIXTURES, lang)), view);
      assertEquals(problems, [], `${lang} contract:\n${problems.join("\n")}`);
    } finally {
      await dropProject(db, project);
    }
  });
}

Deno.test({ name: "ids are stable across full and incremental re-indexing", ...opts }, async () => {
  const db = await testDb();
  const project = uniqueName("ids");
  const dir = await copyFixture("python");
  try {
    const graph = keysFor(project, "test").graph;
    const ids = async () =>
      new Map(
        (await db.query(graph, "MATCH (s:Symbol) RETURN s.qualified_name AS q, s.id AS id", {}, {
          readOnly: true,
        }))
          .map((r) => [String(r.q), String(r.id)]),
      );
    await indexAs(db, dir, project);
    const first = await ids();
    await indexAs(db, dir, project, { full: true });
    assertEquals(await ids(), first);
    // Editing one file keeps every id of the other files, and of its unchanged definitions.
    await Deno.writeTextFile(join(dir, "shop/db.py"), "\n\ndef vacuum():\n    return connect()\n", {
      append: true,
    });
    const inc = await indexAs(db, dir, project);
    assertEquals(inc.mode, "incremental");
    assertEquals(inc.files.modified, ["shop/db.py"]);
    const after = await ids();
    for (const [q, id] of first) assertEquals(after.get(q), id, q);
    assert(after.has("shop.db.vacuum"));
  } finally {
    await dropProject(db, project);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({ name: "no-op incremental run changes nothing", ...opts }, async () => {
  const db = await testDb();
  const project = uniqueName("noop");
  try {
    await indexAs(db, join(FIXTURES, "python"), project);
    const graph = keysFor(project, "test").graph;
    const before = await dumpGraph(db, graph);
    const s = await indexAs(db, join(FIXTURES, "python"), project);
    assertEquals(s.mode, "incremental");
    assertEquals([s.files.added.length, s.files.modified.length, s.files.deleted.length], [
      0,
      0,
      0,
    ]);
    assertEquals(await dumpGraph(db, graph), before);
  } finally {
    await dropProject(db, project);
  }
});

// ---- incremental == full ---------------------------------------------------------------------

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20];
/** Seeds whose runs keep their state in memory, as a watching server does (resident). */
const RESIDENT_SEEDS = [21, 22, 23, 24, 25, 26, 27, 28];
const PROPERTY_LANGS = ["python", ...fixtureDirs.filter((l) => l !== "python")];

for (const seed of [...SEEDS, ...RESIDENT_SEEDS]) {
  const resident = seed > 20;
  Deno.test(
    {
      name: `incremental == full after random ${seed > 12 ? "in-file edits" : "edits"}${
        resident ? ", state kept in memory" : ""
      } (seed ${seed})`,
      ...opts,
    },
    async () => {
      const db = await testDb();
      // Two or three languages per tree, rotating with the seed, so every language gets edited.
      const langs = [
        ...new Set([
          PROPERTY_LANGS[seed % PROPERTY_LANGS.length],
          PROPERTY_LANGS[(seed * 3) % PROPERTY_LANGS.length],
        ]),
      ];
      const dir = await copyFixture(...langs);
      const inc = uniqueName(`inc${seed}`);
      const full = uniqueName(`full${seed}`);
      const rnd = prng(seed);
      const log: string[] = [];
      try {
        await indexAs(db, dir, inc, { resident });
        for (let round = 0; round < 4; round++) {
          for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) {
            log.push(await randomEdit(dir, rnd, seed > 12));
          }
          const s = await indexAs(db, dir, inc, { resident });
          assertEquals(s.mode, "incremental", s.warnings.join("; "));
          const f = await indexAs(db, dir, full, { full: true });
          // Edited files may have syntax errors, but the parser itself must never fail.
          const failed = [...s.files.skipped, ...f.files.skipped].filter((x) =>
            /parse failed/.test(x.reason)
          );
          assertEquals(failed, []);
          const a = await dumpGraph(db, keysFor(inc, "test").graph);
          const b = await dumpGraph(db, keysFor(full, "test").graph);
          const onlyInc = a.filter((x) => !b.includes(x));
          const onlyFull = b.filter((x) => !a.includes(x));
          assertEquals(
            { onlyInc, onlyFull },
            { onlyInc: [], onlyFull: [] },
            `seed ${seed} langs ${langs} after: ${log.join("; ")}`,
          );
        }
      } finally {
        await dropProject(db, inc);
        await dropProject(db, full);
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
}

Deno.test({
  name: "incremental == full when an edit elsewhere makes a name ambiguous or unique",
  ...opts,
}, async () => {
  const db = await testDb();
  const dir = await Deno.makeTempDir({ prefix: "cgraph-names-" });
  const inc = uniqueName("names-inc");
  const full = uniqueName("names-full");
  try {
    await Deno.writeTextFile(join(dir, "caller.py"), "def run():\n    return helper()\n");
    await Deno.writeTextFile(join(dir, "lib.py"), "def helper():\n    return 1\n");
    await Deno.writeTextFile(join(dir, "other.py"), "def unrelated():\n    return 2\n");
    await indexAs(db, dir, inc);
    const edges = async (project: string) =>
      (await db.query(
        keysFor(project, "test").graph,
        "MATCH (a:Symbol)-[:CALLS]->(b:Symbol) RETURN a.name AS a, b.path AS b",
        {},
        { readOnly: true },
      )).map((r) => `${r.a}->${r.b}`);
    assertEquals(await edges(inc), ["run->lib.py"]);
    // other.py, which caller.py never touched, now defines helper too: the call is ambiguous.
    await Deno.writeTextFile(join(dir, "other.py"), "\ndef helper():\n    return 3\n", {
      append: true,
    });
    assertEquals((await indexAs(db, dir, inc)).files.modified, ["other.py"]);
    await indexAs(db, dir, full, { full: true });
    assertEquals(await edges(inc), []);
    assertEquals(
      await dumpGraph(db, keysFor(inc, "test").graph),
      await dumpGraph(db, keysFor(full, "test").graph),
    );
    // And unique again once lib.py's helper is renamed: the call now goes to other.py.
    await Deno.writeTextFile(join(dir, "lib.py"), "def helper_v2():\n    return 1\n");
    await indexAs(db, dir, inc);
    await indexAs(db, dir, full, { full: true });
    assertEquals(await edges(inc), ["run->other.py"]);
    assertEquals(
      await dumpGraph(db, keysFor(inc, "test").graph),
      await dumpGraph(db, keysFor(full, "test").graph),
    );
  } finally {
    await dropProject(db, inc);
    await dropProject(db, full);
    await Deno.remove(dir, { recursive: true });
  }
});
