/**
 * Many repositories, one graph of graphs (fixtures/projects, its README says what depends on what):
 * `impact_analysis {across_projects}` lists the dependents of a symbol in other indexed projects
 * that import its package by name, and `list_projects` says which projects use which. Through the
 * query layer, the CLI and an MCP server; the Package nodes an incremental run leaves are a full
 * run's.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { keysFor } from "../src/project/names.ts";
import { runCgraph, testDb } from "./helpers/db.ts";
import { copyFixture } from "./helpers/edits.ts";
import { dropProject, dumpGraph, indexAs, uniqueName } from "./helpers/graph.ts";
import { childEnv, connectMcp, dbUrl, textOf } from "./helpers/mcp.ts";
import type { Db } from "../src/db/client.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

interface Indexed {
  /** Project name per fixture directory. */
  name: Record<string, string>;
  dir: Record<string, string>;
}

async function indexAll(db: Db, fixtures: string[]): Promise<Indexed> {
  const out: Indexed = { name: {}, dir: {} };
  for (const f of fixtures) {
    out.dir[f] = await copyFixture(`projects/${f}`);
    out.name[f] = uniqueName(f);
    await indexAs(db, out.dir[f], out.name[f]);
  }
  return out;
}

async function cleanup(db: Db, x: Indexed) {
  for (const [f, name] of Object.entries(x.name)) {
    await dropProject(db, name);
    await Deno.remove(x.dir[f], { recursive: true });
  }
}

/** The cgraph CLI against the test database, in the directory of one project. */
async function cli(db: Db, x: Indexed, f: string, ...args: string[]): Promise<string> {
  // `list --project P` lists P alone: the listing is asked from the directory only.
  const which = args[0] === "list" ? [] : ["--project", x.name[f], "--branch", "test"];
  const r = await runCgraph([...args, "-C", x.dir[f], ...which], { FALKORDB_URL: dbUrl(db) });
  assertEquals(r.code, 0, r.stderr);
  return r.stdout;
}

/** The lines of one project's `across` section of an impact answer. */
function section(text: string, project: string): string[] {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.startsWith(`across ${project}:`));
  if (at < 0) return [];
  const end = lines.findIndex((l, i) => i > at && l.startsWith("across "));
  return lines.slice(at, end < 0 ? undefined : end).filter(Boolean);
}

Deno.test({ name: "two TypeScript projects linked across: CLI", ...opts }, async () => {
  const db = await testDb();
  const x = await indexAll(db, ["geo", "atlas", "other"]);
  try {
    const { geo, atlas, other } = x.name;
    const text = await cli(
      db,
      x,
      "geo",
      "impact",
      "area",
      "--file",
      "src/shapes.ts",
      "--across-projects",
    );
    // atlas imports @acme/geo: report() calls area (d1), run() calls report (d2).
    const lines = section(text, atlas);
    assert(lines[0]?.startsWith(`across ${atlas}:test | 2 symbols (d1 1, d2 1)`), text);
    assert(lines[0].includes("+1 in tests/examples"), text);
    assert(lines.some((l) => /report \| function \| d1 at 4$/.test(l)), text);
    assert(lines.some((l) => /run \| function \| d2$/.test(l)), text);
    // atlas's own `area` in local.ts and `other`'s imported from @other/geo are not dependents.
    assert(!text.includes("floor"), text);
    assertEquals(section(text, other), [], text);
    assert(text.split("\n")[0].includes("across projects: +2 in 1 project importing @acme/geo"));
    // Tests are listed when asked for.
    const all = await cli(
      db,
      x,
      "geo",
      "impact",
      "area",
      "--file",
      "src/shapes.ts",
      "--across-projects",
      "--include-tests",
    );
    assert(section(all, atlas).some((l) => l.includes("testArea")), all);
    // Without the argument nothing crosses.
    const home = await cli(db, x, "geo", "impact", "area", "--file", "src/shapes.ts");
    assert(!home.includes("across"), home);
    // atlas is a package too (its package.json has a name), which nobody imports.
    const local = await cli(db, x, "atlas", "impact", "floor", "--across-projects");
    assert(local.includes(`no other indexed project imports atlas`), local);

    const list = await cli(db, x, "geo", "list");
    const row = (p: string) => list.split("\n").find((l) => l.startsWith(`${p} | test |`)) ?? "";
    assert(row(atlas).includes(`uses ${geo} (@acme/geo)`), list);
    assert(row(geo).includes(`used by ${atlas}`), list);
    assert(!row(other).includes("uses"), list);
    assert(!row(geo).includes("uses "), list);
  } finally {
    await cleanup(db, x);
  }
});

Deno.test({ name: "nothing crosses until both projects are indexed", ...opts }, async () => {
  const db = await testDb();
  const x = await indexAll(db, ["geo"]);
  try {
    const text = await cli(
      db,
      x,
      "geo",
      "impact",
      "area",
      "--file",
      "src/shapes.ts",
      "--across-projects",
    );
    assert(text.includes("no other indexed project imports @acme/geo"), text);
    const more = await indexAll(db, ["atlas"]);
    Object.assign(x.name, more.name);
    Object.assign(x.dir, more.dir);
    const after = await cli(
      db,
      x,
      "geo",
      "impact",
      "area",
      "--file",
      "src/shapes.ts",
      "--across-projects",
    );
    assert(section(after, x.name.atlas).length > 0, after);
  } finally {
    await cleanup(db, x);
  }
});

Deno.test({ name: "Go and Python projects linked across", ...opts }, async () => {
  const db = await testDb();
  const x = await indexAll(db, ["gokit", "goapp", "pygeo", "pyapp"]);
  try {
    const go = await cli(db, x, "gokit", "impact", "Area", "--across-projects");
    const goLines = section(go, x.name.goapp);
    assert(goLines[0]?.startsWith(`across ${x.name.goapp}:test | 1 symbol (d1 1)`), go);
    assert(goLines.some((l) => /main\.go:\d+ \| main \| function \| d1 at 10$/.test(l)), go);
    assert(!go.includes("tiles"), go); // goapp's own internal/shapes.Area
    // A command (`package main`) is no package another module imports.
    const main = await cli(db, x, "goapp", "impact", "tiles", "--across-projects");
    assert(main.includes("its file is in no package other projects import"), main);
    const py = await cli(db, x, "pygeo", "impact", "area", "--across-projects");
    const pyLines = section(py, x.name.pyapp);
    assert(pyLines.some((l) => /summary \| function \| d1 at 5$/.test(l)), py);
    const list = await cli(db, x, "goapp", "list", "--json");
    const projects = JSON.parse(list).projects as {
      project: string;
      depends_on?: { project: string; packages: string[] }[];
    }[];
    const of = (f: string) => projects.find((p) => p.project === x.name[f]);
    assertEquals(of("goapp")?.depends_on, [
      { project: x.name.gokit, packages: ["example.com/gokit/shapes"] },
    ]);
    assertEquals(of("pyapp")?.depends_on, [{ project: x.name.pygeo, packages: ["pygeo"] }]);
    assertEquals(of("gokit")?.depends_on, undefined);
  } finally {
    await cleanup(db, x);
  }
});

Deno.test({ name: "two projects linked across: MCP", ...opts }, async () => {
  const db = await testDb();
  const x = await indexAll(db, ["geo", "atlas"]);
  const mcp = await connectMcp(
    [x.dir.atlas, "--project", x.name.atlas, "--branch", "test"],
    childEnv({ FALKORDB_URL: dbUrl(db) }),
  );
  try {
    const r = await mcp.client.callTool({
      name: "impact_analysis",
      arguments: {
        symbol: "area",
        file: "src/shapes.ts",
        project: x.name.geo,
        branch: "test",
        across_projects: true,
        format: "json",
      },
    });
    assert(!r.isError, textOf(r));
    const json = JSON.parse(textOf(r));
    const across = json.groups[0].across;
    assertEquals(across.package, "@acme/geo");
    const mine = across.projects.find((p: { project: string }) => p.project === x.name.atlas);
    // JSON keeps tests, after production code: report (d1), run (d2), testArea (d1).
    assertEquals(
      mine.links.map((l: { node: { qualified_name: string }; depth: number }) => [
        l.node.qualified_name.split(".").pop(),
        l.depth,
      ]),
      [["report", 1], ["run", 2], ["testArea", 1]],
    );
    const list = await mcp.client.callTool({ name: "list_projects", arguments: {} });
    assert(textOf(list).includes(`uses ${x.name.geo} (@acme/geo)`), textOf(list));
  } finally {
    await mcp.close();
    await cleanup(db, x);
  }
});

Deno.test(
  { name: "offered packages: an incremental run leaves what a full one would", ...opts },
  async () => {
    const db = await testDb();
    const x = await indexAll(db, ["geo", "atlas"]);
    const full = uniqueName("geo-full");
    try {
      const packages = async () =>
        (await db.query(
          keysFor(x.name.geo, "test").graph,
          "MATCH (p:Package) RETURN p.name AS name, p.dir AS dir",
          {},
          { readOnly: true },
        )).map((r) => `${r.name}@${r.dir}`);
      assertEquals(await packages(), ["@acme/geo@"]);
      const manifest = join(x.dir.geo, "package.json");
      const text = await Deno.readTextFile(manifest);
      await Deno.writeTextFile(manifest, text.replace('"@acme/geo"', '"@acme/geometry"'));
      const s = await indexAs(db, x.dir.geo, x.name.geo);
      assertEquals(s.mode, "incremental");
      assertEquals(await packages(), ["@acme/geometry@"]);
      await indexAs(db, x.dir.geo, full, { full: true });
      assertEquals(
        await dumpGraph(db, keysFor(x.name.geo, "test").graph),
        await dumpGraph(db, keysFor(full, "test").graph),
      );
      // atlas still imports @acme/geo, which nobody offers now.
      const after = await cli(
        db,
        x,
        "geo",
        "impact",
        "area",
        "--file",
        "src/shapes.ts",
        "--across-projects",
      );
      assertEquals(section(after, x.name.atlas), [], after);
      // An import edited in atlas is seen by the next question (File.uses).
      const main = join(x.dir.atlas, "src/main.ts");
      await Deno.writeTextFile(
        main,
        (await Deno.readTextFile(main)).replace('"@acme/geo"', '"@acme/geometry"'),
      );
      await indexAs(db, x.dir.atlas, x.name.atlas);
      const back = await cli(
        db,
        x,
        "geo",
        "impact",
        "area",
        "--file",
        "src/shapes.ts",
        "--across-projects",
      );
      assert(section(back, x.name.atlas).some((l) => l.includes("report")), back);
    } finally {
      await dropProject(db, full);
      await cleanup(db, x);
    }
  },
);

Deno.test(
  { name: "a graph written before File.uses and Package nodes is indexed in full once", ...opts },
  async () => {
    const db = await testDb();
    const x = await indexAll(db, ["geo"]);
    try {
      const keys = keysFor(x.name.geo, "test");
      // What an earlier cgraph left: no schema mark, no Package nodes, File nodes without uses.
      await db.command(["HDEL", keys.info, "schema"]);
      await db.query(keys.graph, "MATCH (p:Package) DELETE p");
      const s = await indexAs(db, x.dir.geo, x.name.geo);
      assertEquals(s.mode, "full");
      assert(s.warnings.some((w) => w.includes("earlier cgraph")), s.warnings.join("; "));
      const n = await db.query(keys.graph, "MATCH (p:Package) RETURN count(p) AS n", {}, {
        readOnly: true,
      });
      assertEquals(Number(n[0].n), 1);
      assertEquals((await indexAs(db, x.dir.geo, x.name.geo)).mode, "incremental");
    } finally {
      await cleanup(db, x);
    }
  },
);

Deno.test(
  { name: "packages in fixtures, tests or vendored code are offered to nobody", ...opts },
  async () => {
    const db = await testDb();
    const x = await indexAll(db, ["atlas"]);
    // A repository holding geo as a test fixture: its package.json names @acme/geo.
    const outer = await Deno.makeTempDir({ prefix: "cgraph-outer-" });
    const geo = await copyFixture("projects/geo");
    await Deno.mkdir(join(outer, "fixtures"));
    await Deno.rename(geo, join(outer, "fixtures/geo"));
    x.dir.outer = outer;
    x.name.outer = uniqueName("outer");
    try {
      await indexAs(db, outer, x.name.outer);
      const text = await cli(db, x, "outer", "impact", "area", "--across-projects");
      assert(text.includes("its file is in no package other projects import"), text);
      const list = await cli(db, x, "atlas", "list");
      const row = list.split("\n").find((l) => l.startsWith(`${x.name.atlas} | test |`)) ?? "";
      assert(!row.includes("uses"), list);
    } finally {
      await cleanup(db, x);
    }
  },
);
