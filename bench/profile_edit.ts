/**
 * Phase-by-phase profile of one-file edits (dev tool): a generated git repository of N files,
 * indexed in full, then edits indexed resident (as a watching server does) and one-shot (as the
 * CLI does). `deno run -A --unstable-raw-imports bench/profile_edit.ts [files] [edits] [--cli]`
 */
import { join } from "node:path";
import { ensureDb } from "../src/db/ensure.ts";
import { indexProject } from "../src/index/indexer.ts";
import { RACY_DEFAULT_MS } from "../src/index/stat_cache.ts";
import { deleteGraphs } from "../src/project/catalog.ts";
import { resolveProject } from "../src/project/identity.ts";
import "../src/tools/registry.ts";
import { generateRepo } from "./genrepo.ts";
import { git } from "./util.ts";

const n = Number(Deno.args[0] ?? 1000);
const edits = Number(Deno.args[1] ?? 5);
const db = await ensureDb({ quiet: true });
const dir = await Deno.makeTempDir({ prefix: "cgraph-profile-" });
const project = `profile-${crypto.randomUUID().slice(0, 6)}`;
try {
  const paths = await generateRepo(dir, n, n > 2000 ? 7 : 42);
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", "-A");
  await git(dir, "commit", "-qm", "generated");
  const ref = await resolveProject(dir, { project });
  const py = paths.filter((p) => p.endsWith(".py"));
  let t = performance.now();
  await indexProject(db, ref, { full: true, resident: true });
  console.log(`full: ${Math.round(performance.now() - t)} ms`);
  await new Promise((r) => setTimeout(r, RACY_DEFAULT_MS + 100));
  await indexProject(db, ref, { resident: true });
  // `--cli`: only one-shot runs, editing as bench/fresh.ts's CLI figure does (a function without
  // calls appended to the first modules, which many files import).
  const cli = Deno.args.includes("--cli");
  for (const resident of cli ? [false] : [true, false]) {
    for (let k = 0; k < edits; k++) {
      const file = cli ? py[k] : py[py.length - 2 - k];
      const module = file.replace(/^pkg\/mod(\d+)\.py$/, "$1");
      await Deno.writeTextFile(
        join(dir, file),
        cli
          ? `\n\ndef cli_edit_${k}():\n    return 1\n`
          : `\n\ndef edit_${resident}_${k}(x):\n    return func${module}_0(x)\n`,
        { append: true },
      );
      t = performance.now();
      const s = await indexProject(db, ref, { resident, changed: resident ? [file] : undefined });
      console.log(
        `${resident ? "resident" : "one-shot"} edit: ${Math.round(performance.now() - t)} ms ${
          JSON.stringify(s.timings)
        } ${s.mode}`,
      );
    }
  }
  t = performance.now();
  await indexProject(db, ref, {});
  console.log(`one-shot noop: ${Math.round(performance.now() - t)} ms`);
} finally {
  await deleteGraphs(db, project);
  await Deno.remove(dir, { recursive: true });
  await db.close();
}
