/**
 * Workspace-aware import resolution (fixtures/monorepo-ts, monorepo-rust, monorepo-java,
 * monorepo-kotlin, references-ts, compile-db-c: their contracts run with every fixture in
 * index_test.ts):
 * tsconfig's JSON dialect, and an edit to a project file alone (package.json, tsconfig.json,
 * Cargo.toml, pom.xml, build.gradle.kts, compile_commands.json) re-resolves the repository so the graph still equals
 * a full index.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { readManifests } from "../src/index/manifests.ts";
import { parseJsonc } from "../src/lang/javascript/workspaces.ts";
import { keysFor } from "../src/project/names.ts";
import { testDb } from "./helpers/db.ts";
import { copyFixture } from "./helpers/edits.ts";
import { dropProject, dumpGraph, indexAs, uniqueName } from "./helpers/graph.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

Deno.test("tsconfig's JSON: comments and trailing commas go, `/*` inside strings stays", () => {
  const text = `{
    // a comment
    "compilerOptions": { /* block */ "paths": { "@app/*": ["src/app/*"], }, "x": "a//b" },
  }`;
  assertEquals(parseJsonc(text), {
    compilerOptions: { paths: { "@app/*": ["src/app/*"] }, x: "a//b" },
  });
  assertEquals(parseJsonc("{ not json"), undefined);
  assertEquals(parseJsonc("[1]"), undefined);
});

Deno.test("a compilation database past the project-file size cap is still read", async () => {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-manifests-" });
  try {
    // 726 units of libgit2 make a 0.9 MB database; a package.json that size is no manifest.
    const entry = { directory: "/b", file: "/src/a.c", command: `cc ${"-Dx ".repeat(200)}` };
    await Deno.writeTextFile(
      join(dir, "compile_commands.json"),
      JSON.stringify(Array(1000).fill(entry)),
    );
    await Deno.writeTextFile(join(dir, "package.json"), `{"name": "${"x".repeat(600_000)}"}`);
    const m = await readManifests(dir, ["compile_commands.json", "package.json"]);
    assertEquals([...m.texts.keys()], ["compile_commands.json"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  { name: "an edit to package.json or tsconfig.json alone re-resolves", ...opts },
  async () => {
    const db = await testDb();
    const dir = await copyFixture("monorepo-ts");
    const inc = uniqueName("ws-inc");
    const full = uniqueName("ws-full");
    const callees = async () =>
      (await db.query(
        keysFor(inc, "test").graph,
        "MATCH (:Symbol {name: 'main'})-[:CALLS]->(b:Symbol) RETURN b.path AS p",
        {},
        { readOnly: true },
      )).map((r) => String(r.p)).sort();
    const same = async () => {
      await indexAs(db, dir, full, { full: true });
      assertEquals(
        await dumpGraph(db, keysFor(inc, "test").graph),
        await dumpGraph(db, keysFor(full, "test").graph),
      );
    };
    try {
      await indexAs(db, dir, inc);
      assert((await callees()).includes("packages/util/src/index.js"));
      // The util package is renamed: `@acme/util` is now a package from outside.
      const manifest = join(dir, "packages/util/package.json");
      const text = await Deno.readTextFile(manifest);
      await Deno.writeTextFile(manifest, text.replace('"@acme/util"', '"@acme/utils"'));
      const s = await indexAs(db, dir, inc);
      assertEquals([s.mode, s.files.modified, s.files.added], ["incremental", [], []]);
      assert(!(await callees()).includes("packages/util/src/index.js"));
      await same();
      // The path alias is pointed elsewhere: `@shared/log` no longer resolves.
      const base = join(dir, "tsconfig.base.json");
      await Deno.writeTextFile(
        base,
        (await Deno.readTextFile(base)).replace("packages/shared/src/*", "nowhere/*"),
      );
      await indexAs(db, dir, inc);
      assert(!(await callees()).includes("packages/shared/src/log.ts"));
      await same();
      // And back.
      await Deno.writeTextFile(manifest, text);
      await indexAs(db, dir, inc);
      assert((await callees()).includes("packages/util/src/index.js"));
      await same();
    } finally {
      await dropProject(db, inc);
      await dropProject(db, full);
      await Deno.remove(dir, { recursive: true });
    }
  },
);

/** [fixture, project file, text replaced, by, importing file, what it imports before, after]. */
const BUILD_FILES: [string, string, string, string, string, string, string][] = [
  [
    "monorepo-rust",
    "crates/app/Cargo.toml",
    'path = "../geometry", package = "geometry-core"',
    'path = "../geom"',
    "crates/app/src/main.rs",
    "crates/geometry/src/lib.rs",
    "crates/geom/src/lib.rs",
  ],
  [
    "monorepo-java",
    "app/pom.xml",
    "<artifactId>acme-core</artifactId>",
    "<artifactId>acme-legacy</artifactId>",
    "app/src/main/java/com/acme/app/Checkout.java",
    "core/src/main/java/com/acme/core/Money.java",
    "legacy/src/main/java/com/acme/core/Money.java",
  ],
  [
    "monorepo-kotlin",
    "app/build.gradle.kts",
    "implementation(projects.core)",
    "implementation(projects.legacy)",
    "app/src/main/kotlin/com/shop/app/Checkout.kt",
    "core/src/main/kotlin/com/shop/core/Price.kt",
    "legacy/src/main/kotlin/com/shop/core/Price.kt",
  ],
  [
    "compile-db-c",
    "compile_commands.json",
    "-I../include/v2",
    "-I../include/v1",
    "src/main.c",
    "include/v2/config.h",
    "include/v1/config.h",
  ],
  [
    "references-ts",
    "packages/core/tsconfig.json",
    '"rootDir": "lib"',
    '"rootDir": "src"',
    "packages/app/src/main.ts",
    "packages/core/lib/math.ts",
    "",
  ],
];

for (const [fixture, file, from, to, importer, before, after] of BUILD_FILES) {
  Deno.test(
    { name: `an edit to ${file} alone re-resolves (${fixture})`, ...opts },
    async () => {
      const db = await testDb();
      const dir = await copyFixture(fixture);
      const inc = uniqueName("bf-inc");
      const full = uniqueName("bf-full");
      const imports = async () =>
        (await db.query(
          keysFor(inc, "test").graph,
          "MATCH (:File {path: $p})-[:IMPORTS]->(b:File) RETURN b.path AS p",
          { p: importer },
          { readOnly: true },
        )).map((r) => String(r.p));
      try {
        await indexAs(db, dir, inc);
        assert((await imports()).includes(before));
        const path = join(dir, file);
        const text = await Deno.readTextFile(path);
        assert(text.includes(from));
        await Deno.writeTextFile(path, text.replace(from, to));
        const s = await indexAs(db, dir, inc);
        // A Gradle Kotlin DSL build file is a Kotlin source too.
        const modified = file.endsWith(".kts") ? [file] : [];
        assertEquals([s.mode, s.files.modified, s.files.added], ["incremental", modified, []]);
        const now = await imports();
        assert(!now.includes(before), now.join(", "));
        if (after) assert(now.includes(after), now.join(", "));
        await indexAs(db, dir, full, { full: true });
        assertEquals(
          await dumpGraph(db, keysFor(inc, "test").graph),
          await dumpGraph(db, keysFor(full, "test").graph),
        );
      } finally {
        await dropProject(db, inc);
        await dropProject(db, full);
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
}
