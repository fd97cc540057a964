/**
 * A new git worktree of an indexed repository (`deno run -A --unstable-raw-imports bench/branch.ts
 * [files]`, also part of `deno task bench`): a generated repository of `files` files (default
 * 10,000) is committed and indexed cold on main; then a worktree on a new branch with 10 changed
 * files is indexed (it starts from a copy of main's graph) and asked one question. Prints the time
 * to that first answer beside the cold index time. Target: < 3 s for 10,000 files.
 */
import { join } from "node:path";
import type { Db } from "../src/db/client.ts";
import { ensureDb } from "../src/db/ensure.ts";
import { indexProject } from "../src/index/indexer.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { resolveProject } from "../src/project/identity.ts";
import { generateRepo } from "./genrepo.ts";
import { git } from "./util.ts";

export async function benchBranch(db: Db, files: number): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-bench-branch-" });
  const repo = join(dir, "repo");
  const wt = join(dir, "wt");
  const project = `bench-branch-${crypto.randomUUID().slice(0, 6)}`;
  try {
    const paths = await generateRepo(repo, files, 11);
    await git(repo, "init", "-q", "-b", "main");
    await git(repo, "add", ".");
    await git(repo, "commit", "-qm", "generated");
    let t = performance.now();
    const cold = await indexProject(db, await resolveProject(repo, { project }));
    const coldMs = performance.now() - t;

    await git(repo, "worktree", "add", "-q", "-b", "feature", wt);
    const changed = paths.filter((p) => p.endsWith(".py")).slice(0, 10);
    for (const p of changed) {
      await Deno.writeTextFile(join(wt, p), "\n\ndef branch_extra():\n    return 1\n", {
        append: true,
      });
    }
    t = performance.now();
    const ref = await resolveProject(wt, { project });
    const s = await indexProject(db, ref);
    const rows = await db.query(
      ref.keys.graph,
      "MATCH (s:Symbol {name: 'branch_extra'}) RETURN count(s) AS n",
      {},
      { readOnly: true },
    );
    const branchMs = performance.now() - t;
    const answer = Number(rows[0]?.n ?? 0);
    console.log(
      `new worktree (${cold.files.scanned} files, ${changed.length} changed): first answer in ${
        branchMs.toFixed(0)
      } ms (started from ${s.seededFrom ?? "nothing: cold"}, re-parsed ${
        s.files.modified.length + s.files.added.length
      }; found ${answer} of ${changed.length})   target < 3000 ms;   cold full index ${
        coldMs.toFixed(0)
      } ms`,
    );
    console.log(`  (worktree phases: ${JSON.stringify(s.timings)})`);
  } finally {
    await deleteGraphs(db, project).catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const db = await ensureDb({ quiet: true });
  try {
    await benchBranch(db, Number(Deno.args[0] ?? 10_000));
  } finally {
    await db.close();
  }
}
