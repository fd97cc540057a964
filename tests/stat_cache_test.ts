/**
 * The stat cache (src/index/stat_cache.ts): which files an incremental run need not read. Pure
 * rules first, then against a real FalkorDB: a no-op run reads nothing, an edit is seen whatever
 * its size, a touched file is read again but changes nothing, and the graph equals a full index.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { generateRepo } from "../bench/genrepo.ts";
import { nextStatCache, settled, statEntry, statLookup } from "../src/index/stat_cache.ts";
import type { ReadFile } from "../src/index/scan.ts";
import type { Candidate, FileStat } from "../src/index/walk.ts";
import { keysFor } from "../src/project/names.ts";
import { testDb } from "./helpers/db.ts";
import { dropProject, dumpGraph, indexAs, uniqueName } from "./helpers/graph.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
const stat = (over: Partial<FileStat> = {}): FileStat => ({
  size: 10,
  mtime: 1_000,
  ctime: 1_000,
  ino: 7,
  ...over,
});
const candidate = (path: string, s?: FileStat) =>
  ({ path, abs: `/r/${path}`, stat: s }) as Candidate;

Deno.test("stat cache: a hash is vouched for only when every stat field matches", () => {
  const stored = new Map([["a.py", statEntry(stat())]]);
  const hashes = new Map([["a.py", "h1"]]);
  const lookup = statLookup(stored, hashes);
  assertEquals(lookup(candidate("a.py", stat())), "h1");
  for (const change of [{ size: 11 }, { mtime: 1_001 }, { ctime: 1_001 }, { ino: 8 }]) {
    assertEquals(lookup(candidate("a.py", stat(change))), undefined, JSON.stringify(change));
  }
  assertEquals(lookup(candidate("a.py")), undefined, "no stat taken");
  assertEquals(lookup(candidate("b.py", stat())), undefined, "not in the cache");
  assertEquals(statLookup(stored, new Map())(candidate("a.py", stat())), undefined, "no hash");
});

Deno.test("stat cache: files changed within the racy window are not stored", () => {
  assert(settled(stat({ mtime: 1_000, ctime: 1_000 }), 4_000, 2_000));
  assert(!settled(stat({ mtime: 1_000, ctime: 2_500 }), 4_000, 2_000), "ctime is recent");
  assert(!settled(stat({ mtime: 3_000, ctime: 1_000 }), 4_000, 2_000), "mtime is recent");
  const read = (path: string, s: FileStat) =>
    ({ candidate: candidate(path, s), stat: s }) as ReadFile;
  const now = Date.now();
  const old = stat({ mtime: now - 60_000, ctime: now - 60_000 });
  const recent = stat({ mtime: now, ctime: now });
  const stored = new Map([["gone.py", "x"], ["same.py", statEntry(old)]]);
  const next = nextStatCache(
    [read("same.py", old), read("new.py", old), read("hot.py", recent), read("skip.py", old)],
    (p) => p !== "skip.py",
    stored,
    now,
  );
  assertEquals([...next.entries.keys()].sort(), ["new.py", "same.py"]);
  assertEquals(Object.keys(next.set), ["new.py"]);
  assertEquals(next.del, ["gone.py"]);
});

Deno.test({ name: "stat cache: no-op runs read nothing; edits are seen", ...opts }, async () => {
  const db = await testDb();
  const project = uniqueName("stat");
  const full = uniqueName("statfull");
  const dir = await Deno.makeTempDir({ prefix: "cgraph-stat-" });
  Deno.env.set("CGRAPH_STAT_RACY_MS", "0");
  try {
    const paths = await generateRepo(dir, 40);
    const first = await indexAs(db, dir, project);
    assertEquals(first.files.hashed, first.files.scanned);
    const noop = await indexAs(db, dir, project);
    assertEquals(noop.mode, "incremental");
    assertEquals(noop.files.hashed, 0, "a no-op run reads no file");
    // Same size, new content: the stat (mtime, ctime) still differs, so the file is read.
    const py = paths.find((p) => p.endsWith(".py"))!;
    const text = await Deno.readTextFile(join(dir, py));
    await Deno.writeTextFile(join(dir, py), text.replace("return x", "return y"));
    const edit = await indexAs(db, dir, project);
    assertEquals(edit.files.modified, [py]);
    assertEquals(edit.files.hashed, 1);
    // Touched, unchanged: read again, nothing modified.
    const ts = paths.find((p) => p.endsWith(".ts"))!;
    await Deno.utime(join(dir, ts), new Date(), new Date());
    const touched = await indexAs(db, dir, project);
    assertEquals(touched.files.modified, []);
    assertEquals(touched.files.hashed, 1);
    // Replaced by a new file of the same size (a new inode): read, and seen as modified.
    const go = paths.find((p) => p.endsWith(".go"))!;
    const goText = await Deno.readTextFile(join(dir, go));
    await Deno.remove(join(dir, go));
    await Deno.writeTextFile(join(dir, go), goText.replace("return x", "return z"));
    const replaced = await indexAs(db, dir, project);
    assertEquals(replaced.files.modified, [go]);
    await indexAs(db, dir, full, { full: true });
    assertEquals(
      await dumpGraph(db, keysFor(project, "test").graph),
      await dumpGraph(db, keysFor(full, "test").graph),
    );
  } finally {
    Deno.env.delete("CGRAPH_STAT_RACY_MS");
    await dropProject(db, project);
    await dropProject(db, full);
    await Deno.remove(dir, { recursive: true });
  }
});
