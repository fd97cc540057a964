/**
 * `deno task accuracy [project...] [--lang L] [--detail] [--fresh-oracle] [--cgraph DIR]`
 *
 * For each corpus project (bench/accuracy/corpus/<language>.json, real repositories pinned at a
 * commit): extract the tree if needed, run the language's compiler-resolved oracle (cached per
 * project), run cgraph's own pipeline over the same tree, score, and print precision, recall and
 * definitions per project with the mean and worst per language. `--detail` adds the wrong and
 * missing edges by cause with examples. `--cgraph DIR` scores another checkout of cgraph (a
 * baseline) with the same oracles.
 *
 * Trees live in $CGRAPH_CORPUS (default ~/.cache/cgraph/corpus). A project missing there is
 * extracted from a snapshot mirror when one is on this machine ($CGRAPH_MIRRORS, default
 * /work/.mirror); else the runner says which repository and commit to put there.
 */
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";
import { homedir } from "node:os";
import { type Score, score } from "./score.ts";
import type { CgExport, Oracle } from "./types.ts";

export interface CorpusEntry {
  name: string;
  language: string;
  repo: string;
  commit: string;
  include?: string[];
  exclude?: string[];
  oracleArgs?: string[];
}

const HERE = new URL(".", import.meta.url).pathname;
const REPO_ROOT = resolve(HERE, "../..");

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    lang: { type: "string", multiple: true },
    detail: { type: "boolean", default: false },
    "fresh-oracle": { type: "boolean", default: false },
    cgraph: { type: "string" },
    json: { type: "string" },
  },
});

const corpusDir = Deno.env.get("CGRAPH_CORPUS") ?? join(homedir(), ".cache/cgraph/corpus");
const mirrors = Deno.env.get("CGRAPH_MIRRORS") ?? "/work/.mirror";

async function loadCorpus(): Promise<CorpusEntry[]> {
  const out: CorpusEntry[] = [];
  for await (const e of Deno.readDir(join(HERE, "corpus"))) {
    if (!e.name.endsWith(".json")) continue;
    out.push(...JSON.parse(await Deno.readTextFile(join(HERE, "corpus", e.name))));
  }
  return out.sort((a, b) => a.language.localeCompare(b.language) || a.name.localeCompare(b.name));
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

async function run(cmd: string[], cwd?: string): Promise<{ ok: boolean; out: string }> {
  const p = new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd,
    stdout: "piped",
    stderr: "piped",
  });
  const r = await p.output();
  const text = new TextDecoder().decode(r.stdout) + new TextDecoder().decode(r.stderr);
  return { ok: r.success, out: text };
}

/** The project's tree at its pinned commit, extracted once. */
async function ensureTree(p: CorpusEntry): Promise<string | undefined> {
  const dir = join(corpusDir, p.name);
  const stamp = join(dir, ".cgraph-commit");
  if (await exists(stamp) && (await Deno.readTextFile(stamp)).trim() === p.commit) return dir;
  const git = join(mirrors, p.repo.replace("/", "+"));
  let gitDir: string | undefined;
  if (await exists(git)) {
    for (const cand of [git, join(git, ".git")]) {
      if ((await run(["git", "--git-dir", cand, "cat-file", "-e", p.commit])).ok) gitDir = cand;
    }
    if (!gitDir) {
      for await (const e of Deno.readDir(git)) {
        const cand = join(git, e.name);
        if ((await run(["git", "--git-dir", cand, "cat-file", "-e", p.commit])).ok) gitDir = cand;
      }
    }
  }
  if (!gitDir) {
    console.error(
      `${p.name}: put ${p.repo} at ${p.commit} in ${dir} (git archive of that commit), or a ` +
        `snapshot mirror in ${git}`,
    );
    return undefined;
  }
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(dir, { recursive: true });
  const r = await run([
    "bash",
    "-c",
    `git --git-dir='${gitDir}' archive ${p.commit} | tar -x -C '${dir}'`,
  ]);
  if (!r.ok) {
    console.error(`${p.name}: extracting failed: ${r.out}`);
    return undefined;
  }
  await Deno.writeTextFile(stamp, p.commit);
  return dir;
}

function oracleCommand(p: CorpusEntry, root: string, out: string): { cmd: string[]; cwd?: string } {
  const sel = [
    ...(p.include ?? []).flatMap((d) => ["--include", d]),
    ...(p.exclude ?? []).flatMap((d) => ["--exclude", d]),
    ...(p.oracleArgs ?? []),
  ];
  const o = join(HERE, "oracles");
  // Every oracle takes --root and --out, then the project's selection.
  const io = ["--root", root, "--out", out];
  const deno = (script: string) => ({
    cmd: ["deno", "run", "-A", join(o, script), ...io, "--language", p.language, ...sel],
  });
  switch (p.language) {
    case "typescript":
    case "javascript":
      return deno("typescript.ts");
    case "c":
    case "cpp":
      return deno("clang.ts");
    case "python":
      return { cmd: ["python3", join(o, "python_jedi.py"), ...io, ...sel] };
    case "java":
      return { cmd: ["java", "-Xmx6g", join(o, "JavaOracle.java"), ...io, ...sel] };
    case "go":
      return { cmd: ["go", "run", ".", ...io, ...sel], cwd: join(o, "go") };
  }
  throw new Error(`no oracle for ${p.language}`);
}

async function ensureOracle(p: CorpusEntry, root: string): Promise<Oracle | undefined> {
  const out = join(corpusDir, `${p.name}.oracle.json`);
  if (!values["fresh-oracle"] && await exists(out)) {
    return JSON.parse(await Deno.readTextFile(out));
  }
  const { cmd, cwd } = oracleCommand(p, root, out);
  const t0 = performance.now();
  const r = await run(cmd, cwd);
  if (!r.ok || !await exists(out)) {
    console.error(`${p.name}: oracle failed:\n${r.out.slice(-2000)}`);
    return undefined;
  }
  console.error(`${p.name}: oracle ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return JSON.parse(await Deno.readTextFile(out));
}

async function exportCg(root: string, name: string): Promise<CgExport | undefined> {
  const checkout = values.cgraph ? resolve(values.cgraph) : REPO_ROOT;
  const out = join(corpusDir, `${name}.cgraph.json`);
  const r = await run([
    "deno",
    "run",
    "-A",
    "--unstable-raw-imports",
    "--config",
    join(checkout, "deno.json"),
    join(checkout, "bench/accuracy/export.ts"),
    root,
    out,
  ], checkout);
  if (!r.ok) {
    console.error(`${name}: cgraph export failed:\n${r.out.slice(-2000)}`);
    return undefined;
  }
  return JSON.parse(await Deno.readTextFile(out));
}

const pct = (x: number) => x.toFixed(3);

async function main() {
  const all = await loadCorpus();
  const chosen = all.filter((p) =>
    (!positionals.length || positionals.includes(p.name)) &&
    (!values.lang?.length || values.lang.includes(p.language))
  );
  if (!chosen.length) {
    console.error("no corpus project matches");
    Deno.exit(2);
  }
  await Deno.mkdir(corpusDir, { recursive: true });
  const rows: { p: CorpusEntry; s: Score; ms: number }[] = [];
  for (const p of chosen) {
    const root = await ensureTree(p);
    if (!root) continue;
    const oracle = await ensureOracle(p, root);
    if (!oracle) continue;
    const t0 = performance.now();
    const cg = await exportCg(root, p.name);
    if (!cg) continue;
    const s = score(oracle, cg, { preprocessed: p.language === "c" || p.language === "cpp" });
    if (!s.defs.total) {
      console.error(
        `${p.name}: no file both sides analysed (cgraph read ${cg.files.length} files): ` +
          "a broken query or a wrong include?",
      );
    }
    rows.push({ p, s, ms: performance.now() - t0 });
    if (values.detail) printDetail(p, s);
  }
  printTable(rows);
  if (values.json) {
    await Deno.writeTextFile(
      values.json,
      JSON.stringify(
        rows.map((r) => ({ project: r.p.name, language: r.p.language, ...r.s })),
        null,
        1,
      ),
    );
  }
}

function printDetail(p: CorpusEntry, s: Score) {
  console.log(`\n## ${p.language} ${p.name}`);
  for (
    const [title, bucket, ex] of [
      ["wrong", s.wrong, s.examples.wrong],
      ["missing", s.missing, s.examples.missing],
    ] as const
  ) {
    const sorted = Object.entries(bucket).sort((a, b) => b[1] - a[1]);
    console.log(`${title}: ${sorted.reduce((n, [, v]) => n + v, 0)}`);
    for (const [cause, n] of sorted) {
      console.log(`  ${String(n).padStart(5)}  ${cause}`);
      for (const e of ex[cause] ?? []) console.log(`           ${e}`);
    }
  }
}

function printTable(rows: { p: CorpusEntry; s: Score; ms: number }[]) {
  const head = [
    "language",
    "project",
    "oracle",
    "cgraph",
    "correct",
    "precision",
    "recall",
    "defs",
    "def line",
    "value",
  ];
  const lines: string[][] = [];
  const byLang = new Map<string, Score[]>();
  for (const { p, s } of rows) {
    lines.push([
      p.language,
      p.name,
      String(s.oracleEdges),
      String(s.cgEdges),
      String(s.correct),
      pct(s.precision),
      pct(s.recall),
      pct(s.defs.found / Math.max(1, s.defs.total)),
      pct(s.defs.rightLine / Math.max(1, s.defs.total)),
      s.valueEdges ? `${s.valueCorrect}/${s.valueEdges}` : "-",
    ]);
    const l = byLang.get(p.language) ?? [];
    l.push(s);
    byLang.set(p.language, l);
  }
  for (const [lang, list] of byLang) {
    const mean = (f: (s: Score) => number) => list.reduce((a, s) => a + f(s), 0) / list.length;
    const worst = (f: (s: Score) => number) => Math.min(...list.map(f));
    lines.push([
      lang,
      "mean / worst",
      "",
      "",
      "",
      `${pct(mean((s) => s.precision))} / ${pct(worst((s) => s.precision))}`,
      `${pct(mean((s) => s.recall))} / ${pct(worst((s) => s.recall))}`,
      pct(mean((s) => s.defs.found / Math.max(1, s.defs.total))),
      pct(mean((s) => s.defs.rightLine / Math.max(1, s.defs.total))),
      "",
    ]);
  }
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const fmt = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(" | ")} |`;
  console.log("\n" + fmt(head));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const l of lines) console.log(fmt(l));
}

if (import.meta.main) await main();
