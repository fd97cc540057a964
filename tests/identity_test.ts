/**
 * Graph identity: names for git, non-git, detached and odd branches; two branches of one repository
 * isolated; a project name bound to another repository refused; legacy graphs migrated once.
 */
import assert, { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { basename, join } from "node:path";
import { CgraphError } from "../src/errors.ts";
import { deleteGraphs, listGraphs, migrateLegacy, readInfo } from "../src/project/catalog.ts";
import { resolveProject } from "../src/project/identity.ts";
import { keysFor, parseGraphName, sanitizeName } from "../src/project/names.ts";
import { indexProject } from "../src/index/indexer.ts";
import { testDb } from "./helpers/db.ts";
import { uniqueName } from "./helpers/graph.ts";

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
    assertEquals(ref.keys.graph, `code:${sanitizeName(dir.split("/").pop()!)}:main`);
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
      "code:p%2Fq:b",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const plain = await Deno.makeTempDir({ prefix: "cgraph-plain-" });
  try {
    const ref = await resolveProject(plain);
    assertEquals(ref.branch, "_default");
    assertEquals(ref.commit, undefined);
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
      const first = await migrateLegacy(db);
      assert(first.includes(`code:${project} -> code:${project}:_default`), first.join("\n"));
      assertEquals((await readInfo(db, project, "_default"))?.root, "/somewhere");
      const second = await migrateLegacy(db);
      assert(!second.some((m) => m.includes(project)));
      const graphs = await db.listGraphs();
      assert(graphs.includes(`code:${project}:_default`) && !graphs.includes(`code:${project}`));
    } finally {
      await deleteGraphs(db, project);
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
