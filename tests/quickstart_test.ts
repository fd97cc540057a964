/**
 * The README's first command, run as a new user runs it: read from the README's quick start, on an
 * empty Deno cache (every npm package downloads first), with no FalkorDB running (a temporary
 * CGRAPH_DATA_DIR: the embedded server starts). It prints the answer on stdout and, on stderr, only
 * the one line that says a server was started, where, and what stops it: no download lines, no
 * box about build scripts.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { bundledBinaries, withDataDir } from "./helpers/db.ts";

const ROOT = new URL("../", import.meta.url).pathname;

/** The first command of the README's quick start (its `sh` block's first line, comment dropped). */
async function quickStartCommand(): Promise<string[]> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const section = readme.slice(readme.indexOf("## Quick start"));
  const block = /```sh\n([^\n]*)\n/.exec(section);
  assert.ok(block, "the quick start has an sh block");
  return block[1].replace(/#.*$/, "").trim().split(/\s+/);
}

Deno.test("the README's first command on a fresh machine prints the answer and one line", async () => {
  const argv = await quickStartCommand();
  assert.equal(argv[0], "deno");
  await bundledBinaries(); // FalkorDB's binaries are cgraph's own cache, not Deno's
  const denoDir = await Deno.makeTempDir({ prefix: "cgraph-fresh-deno-" });
  try {
    await withDataDir(async (dataDir) => {
      const env: Record<string, string> = {};
      for (const [k, v] of Object.entries(Deno.env.toObject())) {
        if (!/^(FALKORDB_|CGRAPH_|CODE_GRAPH_|DENO_DIR$|NO_COLOR$)/.test(k)) env[k] = v;
      }
      const out = await new Deno.Command(Deno.execPath(), {
        args: argv.slice(1),
        cwd: ROOT,
        env: { ...env, DENO_DIR: denoDir, CGRAPH_DB: "embedded", CGRAPH_DATA_DIR: dataDir },
        clearEnv: true,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      const stdout = new TextDecoder().decode(out.stdout);
      const stderr = new TextDecoder().decode(out.stderr);
      assert.equal(out.code, 0, stderr);
      assert.match(stdout, /^context of shop\.db\.store \(function, shop\/db\.py:\d+\)/);
      assert.match(stdout, /--- callers \(\d+\) ---/);
      const lines = stderr.split("\n").filter((l) => l.trim());
      assert.equal(lines.length, 1, `stderr should hold one line:\n${stderr.slice(0, 2000)}`);
      assert.match(lines[0], /^cgraph: started an embedded FalkorDB \(pid \d+, 127\.0\.0\.1:\d+/);
      assert.match(lines[0], /'cgraph db stop' stops it/);
    });
  } finally {
    await Deno.remove(denoDir, { recursive: true }).catch(() => {});
  }
});
