/**
 * Branch graphs in seconds: a new branch or git worktree starts from a copy of the closest indexed
 * graph of its project and indexes only the difference, ending exactly where a cold full index of
 * its tree ends (real git repositories and worktrees, a real FalkorDB).
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { indexProject } from "../src/index/indexer.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { resolveProject } from "../src/project/identity.ts";
import { testDb } from "./helpers/db.ts";
import { fixtureRepo, git, prng, randomEdit } from "./helpers/edits.ts";
import { dumpGraph, uniqueName } from "./helpers/graph.ts";
import { childEnv, connectMcp, dbUrl, textOf } from "./helpers/mcp.ts";
import type { Db } from "../src/db/client.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** A path for a new worktree next to the temp repositories (git creates it). */
async function worktreePath(): Promise<string> {
  const parent = await Deno.makeTempDir({ prefix: "cgraph-wt-" });
  return join(parent, "checkout");
}

async function index(db: Db, path: string, project?: string) {
  return await indexProject(db, await resolveProject(path, { project }));
}

async function names(db: Db, graph: string): Promise<string[]> {
  const rows = await db.query(graph, "MATCH (s:Symbol) RETURN s.name AS n", {}, { readOnly: true });
  return rows.map((r) => String(r.n)).sort();
}

async function cleanup(db: Db, dirs: string[], projects: string[]): Promise<void> {
  for (const p of projects) await deleteGraphs(db, p).catch(() => {});
  for (const d of dirs) await Deno.remove(d, { recursive: true }).catch(() => {});
}

Deno.test(
  { name: "a new worktree starts from its base graph: add, index, edit", ...opts },
  async () => {
    const db = await testDb();
    const dir = await fixtureRepo("python");
    const wt = await worktreePath();
    const main = await resolveProject(dir);
    const other = uniqueName("wt-cold");
    try {
      const first = await indexProject(db, main);
      assertEquals([first.mode, first.seededFrom], ["full", undefined]);
      await git(dir, "worktree", "add", "-q", "-b", "feature/x", wt);
      await Deno.writeTextFile(join(wt, "shop/extra.py"), "def brand_new():\n    return 1\n");
      await Deno.writeTextFile(join(wt, "shop/db.py"), "\n\ndef also_new():\n    return 2\n", {
        append: true,
      });
      const ref = await resolveProject(wt);
      assertEquals([ref.project, ref.branch], [main.project, "feature%2Fx"]);
      const s = await indexProject(db, ref);
      // Copied from main, then only the two changed files were parsed.
      assertEquals(s.seededFrom, "main");
      assertEquals(s.mode, "incremental");
      assertEquals(s.files.added, ["shop/extra.py"]);
      assertEquals(s.files.modified, ["shop/db.py"]);
      assert((await names(db, ref.keys.graph)).includes("brand_new"));
      assert(!(await names(db, main.keys.graph)).includes("brand_new"), "main's graph untouched");
      // The copy-then-update equals a cold full index of the worktree.
      await indexProject(db, await resolveProject(wt, { project: other }), { full: true });
      const cold = (await resolveProject(wt, { project: other })).keys.graph;
      assertEquals(await dumpGraph(db, ref.keys.graph), await dumpGraph(db, cold));
      // An edit in the worktree afterwards is an ordinary incremental run of its own graph.
      await Deno.remove(join(wt, "shop/extra.py"));
      const again = await indexProject(db, ref);
      assertEquals([again.mode, again.seededFrom, again.files.deleted], [
        "incremental",
        undefined,
        ["shop/extra.py"],
      ]);
      assert(!(await names(db, ref.keys.graph)).includes("brand_new"));
    } finally {
      await git(dir, "worktree", "remove", "--force", wt).catch(() => {});
      await cleanup(db, [dir, join(wt, "..")], [main.project, other]);
    }
  },
);

Deno.test({ name: "a new branch starts from the closest indexed graph", ...opts }, async () => {
  const db = await testDb();
  const dir = await fixtureRepo("python");
  const wt1 = await worktreePath();
  const wt2 = await worktreePath();
  const main = await resolveProject(dir);
  try {
    await indexProject(db, main);
    await git(dir, "worktree", "add", "-q", "-b", "b1", wt1);
    await Deno.writeTextFile(join(wt1, "shop/b1.py"), "def only_on_b1():\n    return 1\n");
    await git(wt1, "add", ".");
    await git(wt1, "commit", "-qm", "b1");
    assertEquals((await index(db, wt1)).seededFrom, "main");
    // Main moves on too: b2, branched from b1, is 0 commits from b1 and 2 from main's graph.
    await Deno.writeTextFile(join(dir, "shop/main2.py"), "def only_on_main():\n    return 1\n");
    await git(dir, "add", ".");
    await git(dir, "commit", "-qm", "main2");
    await index(db, dir);
    await git(dir, "worktree", "add", "-q", "-b", "b2", wt2, "b1");
    const s = await index(db, wt2);
    assertEquals(s.seededFrom, "b1");
    assertEquals([s.files.added, s.files.modified, s.files.deleted], [[], [], []]);
    const ref = await resolveProject(wt2);
    const have = await names(db, ref.keys.graph);
    assert(have.includes("only_on_b1") && !have.includes("only_on_main"), have.join(","));
    // --full never copies.
    const full = await indexProject(db, ref, { full: true });
    assertEquals([full.mode, full.seededFrom], ["full", undefined]);
  } finally {
    for (const wt of [wt1, wt2]) {
      await git(dir, "worktree", "remove", "--force", wt).catch(() => {});
    }
    await cleanup(db, [dir, join(wt1, ".."), join(wt2, "..")], [main.project]);
  }
});

Deno.test(
  { name: "a base being indexed is waited for, never copied half written", ...opts },
  async () => {
    const db = await testDb();
    const dir = await fixtureRepo("python");
    const wt = await worktreePath();
    const main = await resolveProject(dir);
    try {
      await indexProject(db, main);
      await git(dir, "worktree", "add", "-q", "-b", "waits", wt);
      // An indexer of main (a live process on this host) holds main's lock for 1.5 s. (Not this
      // process: a lock with this process's pid that none of its runs holds is taken over.)
      const live = new Deno.Command("sleep", { args: ["30"] }).spawn();
      const holder = {
        host: Deno.hostname(),
        pid: live.pid,
        started: Date.now(),
        beat: Date.now(),
      };
      await db.command([
        "SET",
        main.keys.lock,
        JSON.stringify({ ...holder, token: "t" }),
        "PX",
        "9000",
      ]);
      const release = setTimeout(() => db.command(["DEL", main.keys.lock]), 1500);
      const t = performance.now();
      const s = await indexProject(db, await resolveProject(wt)).finally(async () => {
        live.kill("SIGKILL");
        await live.status;
      });
      clearTimeout(release);
      assertEquals(s.seededFrom, "main");
      assert(performance.now() - t >= 1400, "the copy waited for the base's indexer");
    } finally {
      await git(dir, "worktree", "remove", "--force", wt).catch(() => {});
      await cleanup(db, [dir, join(wt, "..")], [main.project]);
    }
  },
);

// ---- incremental == full, for a branch graph copied from its base ------------------------------

const LANGS = [
  "python",
  "typescript",
  "go",
  "java",
  "rust",
  "ruby",
  "c",
  "cpp",
  "csharp",
  "kotlin",
];

for (const seed of [1, 2, 3, 4, 5, 6]) {
  Deno.test(
    { name: `copied branch graph == full after random edits (seed ${seed})`, ...opts },
    async () => {
      const db = await testDb();
      const langs = [...new Set([LANGS[seed % LANGS.length], LANGS[(seed * 3) % LANGS.length]])];
      const dir = await fixtureRepo(...langs);
      const wt = await worktreePath();
      const main = await resolveProject(dir);
      const cold = uniqueName(`cold${seed}`);
      const rnd = prng(seed);
      const log: string[] = [];
      try {
        await indexProject(db, main);
        await git(dir, "worktree", "add", "-q", "-b", `prop${seed}`, wt);
        const ref = await resolveProject(wt);
        for (let round = 0; round < 2; round++) {
          for (let k = 0; k < 1 + Math.floor(rnd() * 4); k++) log.push(await randomEdit(wt, rnd));
          const s = await indexProject(db, ref);
          assertEquals(s.mode, "incremental", s.warnings.join("; "));
          assertEquals(s.seededFrom, round === 0 ? "main" : undefined);
          const coldRef = await resolveProject(wt, { project: cold });
          await indexProject(db, coldRef, { full: true });
          const a = await dumpGraph(db, ref.keys.graph);
          const b = await dumpGraph(db, coldRef.keys.graph);
          assertEquals(
            {
              onlyCopied: a.filter((x) => !b.includes(x)),
              onlyCold: b.filter((x) => !a.includes(x)),
            },
            { onlyCopied: [], onlyCold: [] },
            `seed ${seed} langs ${langs} after: ${log.join("; ")}`,
          );
        }
      } finally {
        await git(dir, "worktree", "remove", "--force", wt).catch(() => {});
        await cleanup(db, [dir, join(wt, "..")], [main.project, cold]);
      }
    },
  );
}

Deno.test(
  { name: "MCP: a tool call on a new worktree answers from a copied graph", ...opts },
  async () => {
    const db = await testDb();
    const dir = await fixtureRepo("python");
    const wt = await worktreePath();
    const main = await resolveProject(dir);
    const mcp = await connectMcp([dir], childEnv({ FALKORDB_URL: dbUrl(db) }));
    try {
      await indexProject(db, main);
      await git(dir, "worktree", "add", "-q", "-b", "agent-task", wt);
      await Deno.writeTextFile(join(wt, "shop/task.py"), "def task_only():\n    return 1\n");
      const r = await mcp.client.callTool({ name: "index_repo", arguments: { path: wt } });
      const text = textOf(r);
      assert(text.includes("started from a copy of branch main's graph"), text);
      assert(text.includes("added 1, modified 0"), text);
      const found = textOf(
        await mcp.client.callTool({
          name: "find_symbol",
          arguments: { path: wt, name: "task_only" },
        }),
      );
      assert(found.includes("shop/task.py"), found);
    } finally {
      await mcp.close();
      await git(dir, "worktree", "remove", "--force", wt).catch(() => {});
      await cleanup(db, [dir, join(wt, "..")], [main.project]);
    }
  },
);

Deno.test({ name: "a failed graph copy falls back to a full index", ...opts }, async () => {
  const db = await testDb();
  const dir = await fixtureRepo("python");
  const wt = await worktreePath();
  const main = await resolveProject(dir);
  try {
    await indexProject(db, main);
    await git(dir, "worktree", "add", "-q", "-b", "blocked", wt);
    await Deno.writeTextFile(join(wt, "shop/blocked.py"), "def on_blocked():\n    return 1\n");
    const ref = await resolveProject(wt);
    // A stray key under the graph's name: GRAPH.COPY refuses to overwrite it.
    await db.command(["SET", ref.keys.graph, "not a graph"]);
    const s = await indexProject(db, ref);
    assertEquals([s.mode, s.seededFrom], ["full", undefined]);
    assert(
      s.warnings.some((w) => w.includes("copying branch main's graph failed")),
      s.warnings.join(),
    );
    assert((await names(db, ref.keys.graph)).includes("on_blocked"));
    const again = await indexProject(db, ref);
    assertEquals(again.mode, "incremental", again.warnings.join());
  } finally {
    await git(dir, "worktree", "remove", "--force", wt).catch(() => {});
    await cleanup(db, [dir, join(wt, "..")], [main.project]);
  }
});
