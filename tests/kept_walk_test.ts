/**
 * The walk a watching server keeps (src/index/kept_walk.ts): updated from the paths events name,
 * it must equal a fresh walk of the tree; anything a kept walk cannot tell (deletions, folders,
 * .gitignore, project files, C and C++ files coming, an old walk) asks for a full walk.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { keepWalk, updateWalk } from "../src/index/kept_walk.ts";
import { readManifests } from "../src/index/manifests.ts";
import { walkRepository, type WalkResult } from "../src/index/walk.ts";
import { copyFixture } from "./helpers/edits.ts";

function shape(w: WalkResult) {
  return {
    files: w.files.map((c) => [c.path, c.language.name, c.stat]),
    skipped: w.skipped,
    unsupported: w.unsupported,
    manifests: w.manifests,
    listed: [...w.listed].sort(),
  };
}

async function kept(dir: string) {
  const walk = await walkRepository(dir);
  return keepWalk(walk, await readManifests(dir, walk.manifests));
}

Deno.test("kept walk: edits and new files equal a fresh walk", async () => {
  const dir = await copyFixture("python", "typescript");
  try {
    let k = await kept(dir);
    const edits: [string, string][] = [
      ["python/shop/db.py", "\n\ndef added():\n    return 1\n"],
      ["typescript/util/new_file.ts", "export function fresh() { return 1; }\n"],
      ["python/notes.txt", "not code\n"],
      ["python/shop/zz_new.py", "def z():\n    pass\n"],
    ];
    for (const [path, text] of edits) {
      await Deno.writeTextFile(join(dir, path), text, { append: true });
      const next = updateWalk(dir, k, [path]);
      assertEquals(next !== undefined, true, `${path}: a kept walk suffices`);
      assertEquals(shape(next!.walk), shape(await walkRepository(dir)), path);
      k = next!.kept;
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("kept walk: what only a full walk can tell", async () => {
  const dir = await copyFixture("python", "typescript");
  try {
    const k = await kept(dir);
    const full = (changed: string[]) => assertEquals(updateWalk(dir, k, changed), undefined);
    await Deno.remove(join(dir, "python/shop/db.py"));
    full(["python/shop/db.py"]); // a deletion
    await Deno.mkdir(join(dir, "python/pkg2"));
    full(["python/pkg2"]); // a folder
    await Deno.writeTextFile(join(dir, ".gitignore"), "*.log\n");
    full([".gitignore"]);
    await Deno.writeTextFile(join(dir, "typescript/package.json"), "{}\n");
    full(["typescript/package.json"]); // a project file
    await Deno.writeTextFile(join(dir, "python/native.c"), "int f(void) { return 1; }\n");
    full(["python/native.c"]); // may change what language a header is
    await Deno.symlink(join(dir, "python/shop"), join(dir, "python/link"));
    full(["python/link"]);
    const away = await Deno.makeTempDir();
    await Deno.rename(join(dir, "typescript/util"), join(away, "util"));
    full(["typescript/util"]); // a folder moved away: its files' events never come
    await Deno.remove(away, { recursive: true });
    // An old kept walk: a dropped event is caught by the full walk.
    assertEquals(updateWalk(dir, { ...k, walkedAt: Date.now() - 3_600_000 }, ["x.py"]), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
