/**
 * `cgraph gc` and the per-project graph cap, with real git repositories and worktrees and a real
 * FalkorDB: graphs of deleted branches are listed (dry run) and dropped only with --yes; a project
 * whose folder is gone is reported and kept; past the cap the least recently used graph goes.
 */
import assert, { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { join } from "node:path";
import { indexProject } from "../src/index/indexer.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { dropStale, findGarbage } from "../src/project/gc.ts";
import { resolveProject } from "../src/project/identity.ts";
import { keysFor } from "../src/project/names.ts";
import { parseMaxGraphs, touchGraph } from "../src/project/retention.ts";
import { fixtureRepo, git } from "./helpers/edits.ts";
import { runCgraph, testDb } from "./helpers/db.ts";
import { dbUrl } from "./helpers/mcp.ts";
import { uniqueName } from "./helpers/graph.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

async function graphs(): Promise<string[]> {
  return await (await testDb()).listGraphs();
}

Deno.test(
  { name: "gc lists graphs of deleted branches, drops them only with --yes", ...opts },
  async () => {
    const db = await testDb();
    const dir = await fixtureRepo("python");
    const parent = await Deno.makeTempDir({ prefix: "cgraph-gc-" });
    const [gone, kept] = [join(parent, "gone"), join(parent, "kept")];
    const main = await resolveProject(dir);
    const env = { FALKORDB_URL: dbUrl(db), CGRAPH_LOG: "warn" };
    try {
      await indexProject(db, main);
      await git(dir, "worktree", "add", "-q", "-b", "topic/gone", gone);
      await git(dir, "worktree", "add", "-q", "-b", "kept", kept);
      await indexProject(db, await resolveProject(gone));
      await indexProject(db, await resolveProject(kept));
      const goneGraph = keysFor(main.project, "topic%2Fgone").graph;
      const keptGraph = keysFor(main.project, "kept").graph;
      // A detached worktree's graph lives as long as a worktree sits on that commit.
      const detached = join(parent, "detached");
      await git(dir, "worktree", "add", "-q", "--detach", detached, "HEAD");
      const detachedRef = await resolveProject(detached);
      assert(detachedRef.branch.startsWith("detached-"), detachedRef.branch);
      await indexProject(db, detachedRef);
      assertEquals((await findGarbage(db, main.project)).stale, []);
      await git(dir, "worktree", "remove", "--force", detached);
      assertEquals((await findGarbage(db, main.project)).stale.map((x) => x.branch), [
        detachedRef.branch,
      ]);
      await dropStale(db, (await findGarbage(db, main.project)).stale);
      // The branch is deleted; kept's worktree is removed but its branch stays.
      await git(dir, "worktree", "remove", "--force", gone);
      await git(dir, "branch", "-D", "topic/gone");
      await git(dir, "worktree", "remove", "--force", kept);

      const dry = await runCgraph(["gc", "--project", main.project], env);
      assertEquals(dry.code, 0, dry.stderr);
      assert(dry.stdout.includes("1 of branches that no longer exist"), dry.stdout);
      assert(
        dry.stdout.includes(`gone | ${main.project} | topic/gone | no such branch`),
        dry.stdout,
      );
      assert(dry.stdout.includes("dry run"), dry.stdout);
      assert((await graphs()).includes(goneGraph), "a dry run drops nothing");

      const yes = await runCgraph(["gc", "--project", main.project, "--yes", "--json"], env);
      assertEquals(yes.code, 0, yes.stderr);
      assertEquals(JSON.parse(yes.stdout).dropped, [goneGraph]);
      const after = await graphs();
      assert(!after.includes(goneGraph));
      assert(after.includes(main.keys.graph) && after.includes(keptGraph), "live branches stay");
      assertEquals((await findGarbage(db, main.project)).stale, []);
    } finally {
      await deleteGraphs(db, main.project);
      for (const d of [dir, parent]) await Deno.remove(d, { recursive: true }).catch(() => {});
    }
  },
);

Deno.test(
  { name: "a project whose folder is gone is reported and never dropped", ...opts },
  async () => {
    const db = await testDb();
    const plain = await Deno.makeTempDir({ prefix: "cgraph-gc-plain-" });
    const repo = await fixtureRepo("python");
    await Deno.writeTextFile(join(plain, "a.py"), "def f():\n    return 1\n");
    const refs = [await resolveProject(plain), await resolveProject(repo)];
    try {
      for (const r of refs) await indexProject(db, r);
      await Deno.remove(plain, { recursive: true });
      await Deno.remove(repo, { recursive: true });
      for (const r of refs) {
        const report = await findGarbage(db, r.project);
        assertEquals(report.missing.map((m) => [m.project, m.graphs]), [[r.project, [
          r.keys.graph,
        ]]]);
        assertEquals(report.stale, []);
        const out = await runCgraph(["gc", "--project", r.project, "--yes"], {
          FALKORDB_URL: dbUrl(db),
        });
        assert(out.stdout.includes(`folder gone | ${r.project} | 1 graph(s)`), out.stdout);
        assert(out.stdout.includes(`cgraph delete --project ${r.project}`), out.stdout);
        assert((await graphs()).includes(r.keys.graph), "kept even with --yes");
      }
    } finally {
      for (const r of refs) await deleteGraphs(db, r.project);
    }
  },
);

Deno.test(
  { name: "past the cap the least recently used graph of the project goes", ...opts },
  async () => {
    const db = await testDb();
    const dir = await Deno.makeTempDir({ prefix: "cgraph-cap-" });
    const project = uniqueName("cap");
    const other = uniqueName("cap-other");
    await Deno.writeTextFile(join(dir, "a.py"), "def f():\n    return 1\n");
    const ref = (branch: string, p = project) => resolveProject(dir, { project: p, branch });
    try {
      await indexProject(db, await ref("x"), { maxGraphs: 2 });
      await indexProject(db, await ref("y"), { maxGraphs: 2 });
      await indexProject(db, await ref("o", other), { maxGraphs: 2 }).catch(() => {});
      // x is used after y was indexed: y is now the least recently used.
      await touchGraph(db, (await ref("x")).keys, new Date(Date.now() + 60_000));
      const z = await indexProject(db, await ref("z"), { maxGraphs: 2 });
      assertEquals(z.evicted, ["y"]);
      const names = await graphs();
      assert(
        names.includes(keysFor(project, "x").graph) && names.includes(keysFor(project, "z").graph),
      );
      assert(!names.includes(keysFor(project, "y").graph));
      // 0: no cap.
      const w = await indexProject(db, await ref("w"), { maxGraphs: 0 });
      assertEquals(w.evicted, undefined);
      assert((await graphs()).includes(keysFor(project, "x").graph));
      // Only the project's own graphs count and go.
      assertEquals((await findGarbage(db, project)).missing, []);
      throws(() => parseMaxGraphs("-1", "--max-graphs"), /whole number >= 0/);
      throws(
        () => parseMaxGraphs("ten", "CGRAPH_MAX_GRAPHS_PER_PROJECT"),
        /CGRAPH_MAX_GRAPHS_PER_PROJECT/,
      );
      const bad = await runCgraph(["index", dir, "--project", project, "--branch", "v"], {
        FALKORDB_URL: dbUrl(db),
        CGRAPH_MAX_GRAPHS_PER_PROJECT: "lots",
      });
      assert(bad.code !== 0 && /whole number >= 0/.test(bad.stderr), bad.stderr);
    } finally {
      await deleteGraphs(db, project);
      await deleteGraphs(db, other);
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test("dropStale keeps a graph whose indexer holds its lock", async () => {
  const db = await testDb();
  const project = uniqueName("busy");
  const keys = keysFor(project, "b");
  await db.command(["SET", keys.lock, "x", "PX", "5000"]);
  try {
    const out = await dropStale(db, [{
      project,
      branch: "b",
      graph: keys.graph,
      repository: "/r",
    }]);
    assertEquals(out, { dropped: [], busy: [keys.graph] });
  } finally {
    await db.command(["DEL", keys.lock]);
  }
});
