/**
 * Graph identity: names for git, non-git, detached and odd branches; two branches of one repository
 * isolated; a project name bound to another repository refused; legacy graphs migrated once.
 */
import assert, { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { basename, join } from "node:path";
import { CgraphError } from "../src/errors.ts";
import { deleteGraphs, listGraphs, migrateNames, readInfo } from "../src/project/catalog.ts";
import { resolveProject } from "../src/project/identity.ts";
import {
  keysFor,
  LEGACY_PROJECTS_KEY,
  legacyKeysFor,
  legacyProjectKeys,
  parseGraphName,
  projectKeys,
  sanitizeName,
} from "../src/project/names.ts";
import { keySlot } from "../src/db/cluster.ts";
import { indexProject } from "../src/index/indexer.ts";
import { runCgraph, testDb } from "./helpers/db.ts";
import { dbUrl } from "./helpers/mcp.ts";
import { dumpGraph, uniqueName } from "./helpers/graph.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

async function repoWith(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-id-" });
  for (const [p, text] of Object.entries(files)) {
    await Deno.mkdir(join(dir, p, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, p), text);
  }
  await git(dir, "init", "-q");
  await git(dir, "add", ".");
  await git(dir, "commit", "-qm", "init");
  return dir;
}

Deno.test("sanitised names are injective and stay inside the key scheme", () => {
  const names = [
    "feature/x",
    "feature-x",
    "feature%2Fx",
    "a:b",
    "with space",
    "ünïcode",
    "x~y",
    "",
    "  ",
  ];
  const out = names.map(sanitizeName);
  assertEquals(new Set(out).size, names.length - 1, "only the two blank names may coincide");
  for (const n of out) {
    assert(!/[:\s/~]/.test(n), n);
    assertEquals(parseGraphName(keysFor(n, n).graph), [n, n]);
  }
  assertEquals(sanitizeName("feature/x"), "feature%2Fx");
  assertEquals(sanitizeName("ünïcode"), "ünïcode");
  const long = sanitizeName("b".repeat(500));
  assert(long.length <= 120 && long !== sanitizeName("b".repeat(501)));
});

Deno.test("project and branch from git, non-git, detached HEAD and odd branch names", async () => {
  const dir = await repoWith({ "a.py": "def f():\n    return 1\n" });
  try {
    const ref = await resolveProject(dir);
    assertEquals(ref.branch, "main");
    assertEquals(ref.keys.graph, `code:{${sanitizeName(dir.split("/").pop()!)}}:main`);
    for (const branch of ["feature/x", "ünï-code", "with space"]) {
      await git(dir, "checkout", "-q", "-b", branch).catch(async () => {
        // git refuses spaces in branch names: check the override path instead.
        const r = await resolveProject(dir, { branch });
        assertEquals(r.branch, sanitizeName(branch));
      });
      if ((await git(dir, "rev-parse", "--abbrev-ref", "HEAD")) === branch) {
        assertEquals((await resolveProject(dir)).branch, sanitizeName(branch));
      }
    }
    const commit = await git(dir, "rev-parse", "HEAD");
    await git(dir, "checkout", "-q", "--detach");
    const detached = await resolveProject(dir);
    assertEquals(detached.branch, `detached-${commit.slice(0, 12)}`);
    assertEquals(detached.commit, commit);
    assertEquals(
      (await resolveProject(dir, { project: "p/q", branch: "b" })).keys.graph,
      "code:{p%2Fq}:b",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const plain = await Deno.makeTempDir({ prefix: "cgraph-plain-" });
  try {
    const ref = await resolveProject(plain);
    assertEquals(ref.branch, "_default");
    assertEquals(ref.commit, undefined);
    // A repository without commits yet: no commit, branch _unborn, named after its folder.
    await git(plain, "init", "-q");
    const unborn = await resolveProject(plain);
    assertEquals([unborn.branch, unborn.commit], ["_unborn", undefined]);
    assertEquals(unborn.project, sanitizeName(plain.split("/").pop()!));
    assertEquals(unborn.identity, join(await Deno.realPath(plain), ".git"));
    // A subdirectory of it is its own project, on the repository's branch.
    await Deno.mkdir(join(plain, "pkg"));
    const sub = await resolveProject(join(plain, "pkg"));
    assertEquals([sub.branch, sub.root, sub.identity.endsWith(".git#pkg")], [
      "_unborn",
      join(plain, "pkg"),
      true,
    ]);
  } finally {
    await Deno.remove(plain, { recursive: true });
  }
  await rejects(resolveProject("/definitely/not/here"), CgraphError);
  await rejects(resolveProject(new URL(import.meta.url).pathname), /Not a directory/);
});

Deno.test({ name: "two branches of one repository are isolated", ...opts }, async () => {
  const db = await testDb();
  const project = uniqueName("branches");
  const dir = await repoWith({
    "app.py": "def main():\n    return helper()\n\ndef helper():\n    return 1\n",
  });
  try {
    const onMain = await resolveProject(dir, { project });
    await indexProject(db, onMain);
    await git(dir, "checkout", "-q", "-b", "feature/rename");
    await Deno.writeTextFile(
      join(dir, "app.py"),
      "def main():\n    return renamed()\n\ndef renamed():\n    return 1\n",
    );
    await git(dir, "commit", "-qam", "rename");
    const onFeature = await resolveProject(dir, { project });
    assertEquals(onFeature.branch, "feature%2Frename");
    await indexProject(db, onFeature);
    const names = async (graph: string) =>
      (await db.query(graph, "MATCH (s:Symbol) RETURN s.name AS n ORDER BY n", {}, {
        readOnly: true,
      })).map((r) => r.n);
    assertEquals(await names(onMain.keys.graph), ["helper", "main"]);
    assertEquals(await names(onFeature.keys.graph), ["main", "renamed"]);
    const listed = (await listGraphs(db)).filter((g) => g.project === project).map((g) => g.branch)
      .sort();
    assertEquals(listed, ["feature%2Frename", "main"]);
    assertEquals((await readInfo(db, project, "main"))?.files, 1);
    await deleteGraphs(db, project, "main");
    assertEquals((await listGraphs(db)).filter((g) => g.project === project).map((g) => g.branch), [
      "feature%2Frename",
    ]);
  } finally {
    await deleteGraphs(db, project);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({ name: "a project name bound to another repository is refused", ...opts }, async () => {
  const db = await testDb();
  const project = uniqueName("collide");
  const a = await repoWith({ "a.py": "def a():\n    return 1\n" });
  const b = await repoWith({ "b.py": "def b():\n    return 1\n" });
  try {
    await indexProject(db, await resolveProject(a, { project }));
    await rejects(indexProject(db, await resolveProject(b, { project })), (err: unknown) => {
      assert(err instanceof CgraphError);
      assert(/already used for another repository/.test(err.message), err.message);
      assert(/--project/.test(err.hint ?? ""), err.hint);
      return true;
    });
    // A worktree of the same repository shares the name.
    const wt = `${a}-wt`;
    await git(a, "worktree", "add", "-q", "-b", "other", wt);
    try {
      const s = await indexProject(db, await resolveProject(wt, { project }));
      assertEquals(s.branch, "other");
    } finally {
      await Deno.remove(wt, { recursive: true });
    }
  } finally {
    await deleteGraphs(db, project);
    await Deno.remove(a, { recursive: true });
    await Deno.remove(b, { recursive: true });
  }
});

Deno.test(
  { name: "migrate renames legacy graphs to _default, idempotently", ...opts },
  async () => {
    const db = await testDb();
    const project = uniqueName("legacy");
    try {
      await db.query(`code:${project}`, "CREATE (:File {path: 'x.py'})");
      await db.command(["HSET", `${project}_info`, "root", "/somewhere"]);
      const first = await migrateNames(db);
      assert(first.includes(`code:${project} -> code:{${project}}:_default`), first.join("\n"));
      assertEquals((await readInfo(db, project, "_default"))?.root, "/somewhere");
      const second = await migrateNames(db);
      assert(!second.some((m) => m.includes(project)));
      const graphs = await db.listGraphs();
      assert(graphs.includes(`code:{${project}}:_default`) && !graphs.includes(`code:${project}`));
    } finally {
      await deleteGraphs(db, project);
    }
  },
);

Deno.test(
  { name: "migrate: a graph under both names keeps the one indexed last", ...opts },
  async () => {
    const db = await testDb();
    const [a, b] = [uniqueName("both-old"), uniqueName("both-new")];
    try {
      for (const [project, oldAt, newAt] of [[a, "2026-02-01", "2026-01-01"], [b, "1", "2"]]) {
        const old = legacyKeysFor(project, "main");
        const now = keysFor(project, "main");
        await db.query(old.graph, "CREATE (:File {path: 'old.py'})");
        await db.command(["HSET", old.info, "indexed_at", oldAt, "root", "/old"]);
        await db.query(now.graph, "CREATE (:File {path: 'new.py'})");
        await db.command(["HSET", now.info, "indexed_at", newAt, "root", "/new"]);
        await db.command(["HSET", now.facts, "new.py", "{}"]);
      }
      await migrateNames(db);
      const paths = async (g: string) =>
        (await db.query(g, "MATCH (f:File) RETURN f.path AS p", {}, { readOnly: true })).map((
          r,
        ) => r.p);
      // a: the old name was indexed later: it replaces the new one, whose caches go with it.
      assertEquals(await paths(keysFor(a, "main").graph), ["old.py"]);
      assertEquals((await readInfo(db, a, "main"))?.root, "/old");
      assertEquals(await db.command(["EXISTS", keysFor(a, "main").facts]), 0);
      // b: the new name was indexed later: the old graph and its keys are dropped.
      assertEquals(await paths(keysFor(b, "main").graph), ["new.py"]);
      assertEquals((await readInfo(db, b, "main"))?.root, "/new");
      for (const p of [a, b]) {
        assert(!(await db.graphExists(legacyKeysFor(p, "main").graph)), p);
        assertEquals(await db.command(["EXISTS", legacyKeysFor(p, "main").info]), 0);
      }
    } finally {
      await deleteGraphs(db, a);
      await deleteGraphs(db, b);
    }
  },
);

Deno.test("every key of a project shares its hash tag, so one cluster slot holds them all", () => {
  for (const project of ["shop", "feature%2Fx", "ünïcode", sanitizeName("{evil}")]) {
    const names = [
      ...Object.values(keysFor(project, "main")),
      ...Object.values(keysFor(project, "feature%2Fy")),
      ...Object.values(projectKeys(project)),
    ];
    const slots = new Set(names.map(keySlot));
    assertEquals(slots.size, 1, `${project}: ${names.join(" ")}`);
    for (const n of names) assert(n.includes(`{${project}}`), n);
  }
  // A brace in a project name is escaped: it cannot end the tag early.
  assertEquals(sanitizeName("{evil}"), "%7Bevil%7D");
  // Known slots (CRC16-XMODEM, as Redis computes them: CLUSTER KEYSLOT).
  assertEquals(keySlot("foo"), 12182);
  assertEquals(keySlot("{user1000}.following"), keySlot("user1000"));
  assertEquals(keySlot("123456789"), 0x31c3 % 16384);
});

Deno.test(
  { name: "graphs under the names before hash tags are used again without a re-index", ...opts },
  async () => {
    const db = await testDb();
    const repo = await repoWith({
      "app/core.py": "def helper():\n    return 1\n",
      "app/main.py": "from app.core import helper\n\ndef run():\n    return helper()\n",
    });
    const project = uniqueName("oldnames");
    try {
      const ref = await resolveProject(repo, { project });
      await indexProject(db, ref);
      const before = await dumpGraph(db, ref.keys.graph);
      const notes = projectKeys(ref.project);
      await db.query(notes.memory, "CREATE (:Note {note_id: 'n-1', text: 'kept'})");
      await db.command(["HSET", notes.history, "k", "v"]);
      // Put everything back where an earlier cgraph kept it.
      const old = legacyKeysFor(ref.project, ref.branch);
      for (const k of ["graph", "info", "files", "facts", "edges", "edgeLists"] as const) {
        assertEquals(await db.command(["RENAME", ref.keys[k], old[k]]), "OK", k);
      }
      const oldMem = legacyProjectKeys(ref.project);
      await db.command(["RENAME", notes.memory, oldMem.memory]);
      await db.command(["RENAME", notes.history, oldMem.history]);
      const identity = await db.command<string>(["GET", notes.identity]);
      await db.command(["DEL", notes.identity]);
      await db.command(["HSET", LEGACY_PROJECTS_KEY, ref.project, identity]);
      assert(!(await db.graphExists(ref.keys.graph)));

      // The next cgraph run finds them under the new names: an answer, no first-use index.
      const env = { FALKORDB_URL: dbUrl(db), CGRAPH_LOG: "warn" };
      const callers = await runCgraph(["callers", "helper", "--project", project, "-C", repo], env);
      assertEquals(callers.code, 0, callers.stderr);
      assert(/app\/main\.py:\d+ \| run/.test(callers.stdout), callers.stdout);
      assert(!/indexed now/.test(callers.stdout), callers.stdout);
      assertEquals(await dumpGraph(db, ref.keys.graph), before);
      const again = await runCgraph(["index", repo, "--project", project, "--json"], env);
      assertEquals(again.code, 0, again.stderr);
      const summary = JSON.parse(again.stdout);
      assertEquals(summary.mode, "incremental", again.stdout);
      assertEquals([summary.files.added, summary.files.modified], [0, 0], again.stdout);
      assertEquals(await db.command(["GET", notes.identity]), identity);
      assertEquals(await db.command(["EXISTS", LEGACY_PROJECTS_KEY]), 0);
      assertEquals(
        await db.query(notes.memory, "MATCH (n:Note) RETURN n.text AS t", {}, { readOnly: true }),
        [{ t: "kept" }],
      );
      assertEquals(await db.command(["HGET", notes.history, "k"]), "v");
      for (const k of Object.values(old)) assertEquals(await db.command(["EXISTS", k]), 0, k);
    } finally {
      await deleteGraphs(db, sanitizeName(project));
      await db.deleteGraph(projectKeys(sanitizeName(project)).memory);
      await db.command(["DEL", projectKeys(sanitizeName(project)).history]);
      await Deno.remove(repo, { recursive: true });
    }
  },
);

Deno.test({ name: "a git worktree is a branch of its repository's project", ...opts }, async () => {
  const db = await testDb();
  const main = await repoWith({ "a.py": "def a():\n    return 1\n" });
  const wt = `${main}-wt-feature`;
  const project = basename(main);
  try {
    await git(main, "worktree", "add", "-q", "-b", "feature", wt);
    const fromMain = await resolveProject(main);
    const fromWorktree = await resolveProject(wt);
    assertEquals(fromWorktree.project, fromMain.project);
    assertEquals(fromWorktree.branch, "feature");
    assertEquals(fromWorktree.identity, fromMain.identity);
    const s = await indexProject(db, fromWorktree);
    assertEquals([s.project, s.branch], [fromMain.project, "feature"]);
  } finally {
    await deleteGraphs(db, project);
    await Deno.remove(wt, { recursive: true }).catch(() => {});
    await Deno.remove(main, { recursive: true });
  }
});
