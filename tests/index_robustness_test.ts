/**
 * Bad input and bad moments for the indexer: odd files never crash it or cost the graph; an
 * indexer killed mid-run leaves the previous graph and hashes intact; one indexer at a time.
 */
import assert, { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { join } from "node:path";
import { generateRepo } from "../bench/genrepo.ts";
import { CgraphError } from "../src/errors.ts";
import { keysFor } from "../src/project/names.ts";
import { indexProject } from "../src/index/indexer.ts";
import { withLock } from "../src/index/lock.ts";
import { resolveProject } from "../src/project/identity.ts";
import { testDb } from "./helpers/db.ts";
import { dropProject, dumpGraph, indexAs, uniqueName } from "./helpers/graph.ts";
import { childEnv, dbUrl, ROOT } from "./helpers/mcp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

async function write(dir: string, path: string, data: string | Uint8Array): Promise<void> {
  await Deno.mkdir(join(dir, path, ".."), { recursive: true });
  if (typeof data === "string") await Deno.writeTextFile(join(dir, path), data);
  else await Deno.writeFile(join(dir, path), data);
}

Deno.test(
  { name: "odd files are skipped or indexed as far as they parse, never fatal", ...opts },
  async () => {
    const db = await testDb();
    const project = uniqueName("odd");
    const dir = await Deno.makeTempDir({ prefix: "cgraph-odd-" });
    const outside = await Deno.makeTempDir({ prefix: "cgraph-outside-" });
    const previousCap = Deno.env.get("CGRAPH_MAX_FILE_BYTES");
    try {
      await write(
        dir,
        "good.py",
        "def good():\n    return helper()\n\ndef helper():\n    return 1\n",
      );
      await write(dir, "empty.py", "");
      await write(dir, "broken.py", "def fine():\n    return 1\n\ndef broken(:\n    pass\n");
      // Invalid UTF-8 in a comment: replaced, the definitions around it survive.
      await write(
        dir,
        "latin1.py",
        new Uint8Array([
          ...new TextEncoder().encode("# caf"),
          0xe9,
          0xff,
          ...new TextEncoder().encode("\ndef after_bad_bytes():\n    return good()\n"),
        ]),
      );
      await write(dir, "blob.js", new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2, 3]));
      await write(dir, "huge.py", `def big():\n    return 1\n${"# padding\n".repeat(2000)}`);
      await write(outside, "secret.py", "def secret():\n    return 1\n");
      await Deno.symlink(join(outside, "secret.py"), join(dir, "escape.py"));
      await Deno.symlink(join(dir, "loop_a.py"), join(dir, "loop_b.py"));
      await Deno.symlink(join(dir, "loop_b.py"), join(dir, "loop_a.py"));
      await Deno.mkdir(join(dir, "sub"));
      await Deno.symlink(dir, join(dir, "sub", "cycle"));
      Deno.env.set("CGRAPH_MAX_FILE_BYTES", "10000");

      const s = await indexAs(db, dir, project);
      const reasons = Object.fromEntries(s.files.skipped.map((x) => [x.path, x.reason]));
      assert(/binary/.test(reasons["blob.js"]), JSON.stringify(reasons));
      assert(/too large/.test(reasons["huge.py"]), JSON.stringify(reasons));
      assert(/outside the repository/.test(reasons["escape.py"]), JSON.stringify(reasons));
      assert(/symlink loop|broken/.test(reasons["loop_a.py"] ?? ""), JSON.stringify(reasons));
      assertEquals(s.files.parseErrors, 1);
      assertEquals(s.files.syntaxErrors.length, 1);
      assert(s.files.syntaxErrors[0].startsWith("broken.py:"), s.files.syntaxErrors[0]);
      const names = (await db.query(
        keysFor(project, "test").graph,
        "MATCH (s:Symbol) RETURN s.name AS n ORDER BY n",
        {},
        { readOnly: true },
      )).map((r) => r.n);
      assertEquals(names, ["after_bad_bytes", "broken", "fine", "good", "helper"]);
      const calls = await db.query(
        keysFor(project, "test").graph,
        "MATCH (a:Symbol)-[:CALLS]->(b:Symbol) RETURN a.name AS a, b.name AS b ORDER BY a",
        {},
        { readOnly: true },
      );
      assertEquals(calls, [{ a: "after_bad_bytes", b: "good" }, { a: "good", b: "helper" }]);
    } finally {
      if (previousCap === undefined) Deno.env.delete("CGRAPH_MAX_FILE_BYTES");
      else Deno.env.set("CGRAPH_MAX_FILE_BYTES", previousCap);
      await dropProject(db, project);
      await Deno.remove(dir, { recursive: true });
      await Deno.remove(outside, { recursive: true });
    }
  },
);

Deno.test(
  { name: "garbage files: deep nesting, very long paths, a 5 MB line, unreadable", ...opts },
  async () => {
    const db = await testDb();
    const project = uniqueName("garbage");
    const dir = await Deno.makeTempDir({ prefix: "cgraph-garbage-" });
    try {
      await write(dir, "ok.py", "def ok():\n    return 1\n");
      await write(
        dir,
        "deep.py",
        `x = ${"(".repeat(5000)}1${")".repeat(5000)}\ndef after():\n    return ok()\n`,
      );
      await write(
        dir,
        "deep.js",
        `const a = ${"[".repeat(20000)}${"]".repeat(20000)};\nfunction tail() {}\n`,
      );
      await write(dir, "braces.c", `int f() ${"{".repeat(10000)}${"}".repeat(10000)}\n`);
      const long = Array.from({ length: 12 }, (_, i) => `${i}${"d".repeat(200)}`).join("/");
      await write(dir, `${long}/far.py`, "def far():\n    return 2\n");
      await write(dir, "one_line.js", "var a=1;".repeat(5 * 1024 * 1024 / 8));
      await write(dir, "nothing.ts", "");
      await write(dir, "locked.py", "def locked():\n    return 3\n");
      await Deno.chmod(join(dir, "locked.py"), 0);
      const root = Deno.uid() === 0; // root reads a mode-0 file anyway

      const s = await indexAs(db, dir, project);
      const reasons = Object.fromEntries(s.files.skipped.map((x) => [x.path, x.reason]));
      assert(/too large/.test(reasons["one_line.js"] ?? ""), JSON.stringify(reasons));
      if (!root) assert(/unreadable/.test(reasons["locked.py"] ?? ""), JSON.stringify(reasons));
      const names = (await db.query(
        keysFor(project, "test").graph,
        "MATCH (s:Symbol) RETURN s.name AS n ORDER BY n",
        {},
        { readOnly: true },
      )).map((r) => r.n);
      for (const n of ["after", "far", "ok", "tail", ...(root ? ["locked"] : [])]) {
        assert(names.includes(n), `${n} in ${names.join(", ")}`);
      }
      const files = await db.query(
        keysFor(project, "test").graph,
        "MATCH (f:File) RETURN f.path AS p",
        {},
        { readOnly: true },
      );
      assert(files.some((f) => f.p === `${long}/far.py`), "the very long path is indexed whole");
    } finally {
      await Deno.chmod(join(dir, "locked.py"), 0o644).catch(() => {});
      await dropProject(db, project);
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  { name: "a path that is missing or not a directory is a clear error", ...opts },
  async () => {
    const db = await testDb();
    await rejects(indexAs(db, "/no/such/repository", uniqueName("missing")), CgraphError);
    await rejects(indexAs(db, join(ROOT, "README.md"), uniqueName("file")), /Not a directory/);
  },
);

Deno.test(
  { name: "a second indexer on the same graph is refused while the first runs", ...opts },
  async () => {
    const db = await testDb();
    const project = uniqueName("lock");
    const dir = await Deno.makeTempDir({ prefix: "cgraph-lock-" });
    try {
      await generateRepo(dir, 200);
      const first = indexAs(db, dir, project);
      await new Promise((r) => setTimeout(r, 30));
      await rejects(indexAs(db, dir, project), /Another cgraph is indexing/);
      assertEquals((await first).mode, "full");
    } finally {
      await dropProject(db, project);
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  { name: "an indexer killed mid-run leaves the previous graph intact", ...opts },
  async () => {
    const db = await testDb();
    const project = uniqueName("kill");
    const dir = await Deno.makeTempDir({ prefix: "cgraph-kill-" });
    try {
      await generateRepo(dir, 40);
      await indexAs(db, dir, project);
      const graph = keysFor(project, "test").graph;
      const before = await dumpGraph(db, graph);
      const hashes = await db.hashGetAll(keysFor(project, "test").files);
      // A much larger tree, indexed in full by a separate process that is killed part-way.
      await generateRepo(dir, 600, 9);
      const env = childEnv({ FALKORDB_URL: dbUrl(db) });
      let killed = false;
      for (const delay of [400, 1200, 2500]) {
        const child = new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            "--unstable-raw-imports",
            join(ROOT, "main.ts"),
            "index",
            dir,
            "--project",
            project,
            "--branch",
            "test",
            "--full",
          ],
          env,
          clearEnv: true,
          stdout: "null",
          stderr: "null",
        }).spawn();
        await new Promise((r) => setTimeout(r, delay));
        try {
          child.kill("SIGKILL");
        } catch {
          // it finished first: fine, then the graph is simply the new one
        }
        const status = await child.status;
        killed = !status.success;
        if (status.success) break;
        assertEquals(await dumpGraph(db, graph), before, `after a kill at ${delay} ms`);
        assertEquals(await db.hashGetAll(keysFor(project, "test").files), hashes);
        // The dead holder's lock stays behind; the next child takes it over at once.
      }
      // The next run proceeds at once (the dead holder's lock is taken over, not waited out) and
      // recovers: an incremental run over the new tree equals a full one.
      const notes: string[] = [];
      const t0 = performance.now();
      await indexProject(db, await resolveProject(dir, { project, branch: "test" }), {
        onLock: (m) => notes.push(m),
      });
      if (killed) {
        assert(notes.some((n) => /took over the index lock/.test(n)), JSON.stringify(notes));
        assert(performance.now() - t0 < 8000, "no wait for a dead holder");
      }
      const other = uniqueName("kill-full");
      try {
        await indexAs(db, dir, other, { full: true });
        assertEquals(await dumpGraph(db, graph), await dumpGraph(db, keysFor(other, "test").graph));
      } finally {
        await dropProject(db, other);
      }
    } finally {
      await dropProject(db, project);
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test({
  name: "an interrupted incremental run makes the next run full, with a warning",
  ...opts,
}, async () => {
  const db = await testDb();
  const project = uniqueName("pending");
  const dir = await Deno.makeTempDir({ prefix: "cgraph-pending-" });
  try {
    await generateRepo(dir, 12);
    await indexAs(db, dir, project);
    await db.command(["SET", keysFor(project, "test").pending, "x"]);
    const s = await indexAs(db, dir, project);
    assertEquals(s.mode, "full");
    assert(s.warnings.some((w) => /interrupted/.test(w)), s.warnings.join("; "));
    // The stored facts of some files lost (a segment of them: src/index/facts_store.ts).
    await db.command(["HDEL", keysFor(project, "test").facts, "s0"]);
    // A no-op run reads no facts (the graph is left as it is); the first edit needs them.
    assertEquals((await indexAs(db, dir, project)).mode, "incremental");
    await Deno.writeTextFile(join(dir, "pkg/mod1.py"), "\ndef extra():\n    return 1\n", {
      append: true,
    });
    const t = await indexAs(db, dir, project);
    assertEquals(t.mode, "full");
    assert(t.warnings.some((w) => /corrupt/.test(w)), t.warnings.join("; "));
    assertEquals((await indexAs(db, dir, project)).mode, "incremental");
  } finally {
    await dropProject(db, project);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  { name: "index lock: a dead holder is taken over, a live one waited for", ...opts },
  async () => {
    const db = await testDb();
    const key = `lock-test-${crypto.randomUUID().slice(0, 8)}`;
    const host = Deno.hostname();
    const holder = (pid: number) =>
      JSON.stringify({ host, pid, started: Date.now() - 5000, beat: Date.now(), token: "x" });
    try {
      // A process that is gone: taken over at once.
      const dead = new Deno.Command("true").spawn();
      const deadPid = dead.pid;
      await dead.status;
      await db.command(["SET", key, holder(deadPid), "PX", "60000"]);
      const notes: string[] = [];
      const t0 = performance.now();
      assertEquals(
        await withLock(db, key, "p:b", () => Promise.resolve(7), { onWait: (m) => notes.push(m) }),
        7,
      );
      assert(performance.now() - t0 < 2000);
      assert(notes.some((n) => n.includes(`from pid ${deadPid}`)), JSON.stringify(notes));
      assertEquals(await db.command(["GET", key]), null, "released after the run");
      // Left by an ended run of this very process (its release never reached the database, as
      // when the database restarts mid-index under a long-lived server): taken over at once.
      await db.command(["SET", key, holder(Deno.pid), "PX", "60000"]);
      const own: string[] = [];
      const t2 = performance.now();
      assertEquals(
        await withLock(db, key, "p:b", () => Promise.resolve(8), { onWait: (m) => own.push(m) }),
        8,
      );
      assert(performance.now() - t2 < 2000);
      assert(own.some((n) => n.includes("left by an earlier run of this process")), own.join());
      // But a run of this process that still holds it is not robbed by another in the same process.
      await withLock(db, key, "p:b", async () => {
        await rejects(
          withLock(db, key, "p:b", () => Promise.resolve(0), { waitMs: 300 }),
          /Another cgraph is indexing p:b right now/,
        );
      });
      // A live process: waited for up to the deadline, then a clear error naming it.
      const live = new Deno.Command("sleep", { args: ["30"] }).spawn();
      try {
        await db.command(["SET", key, holder(live.pid), "PX", "60000"]);
        const waits: string[] = [];
        const t1 = performance.now();
        await rejects(
          withLock(db, key, "p:b", () => Promise.resolve(1), {
            waitMs: 1200,
            onWait: (m) => waits.push(m),
          }),
          new RegExp(`Another cgraph is indexing p:b right now \\(pid ${live.pid} on this host`),
        );
        assert(performance.now() - t1 >= 1100, "it waited");
        assert(
          waits.some((w) => w.startsWith("waiting for the indexer of p:b")),
          JSON.stringify(waits),
        );
        // Released while waiting: the waiter gets it.
        setTimeout(() => db.command(["DEL", key]), 300);
        assertEquals(await withLock(db, key, "p:b", () => Promise.resolve(2), { waitMs: 5000 }), 2);
      } finally {
        live.kill("SIGKILL");
        await live.status;
      }
    } finally {
      await db.command(["DEL", key]);
    }
  },
);
