/**
 * What syntax errors cost: for every file tree-sitter parses with errors, the definitions cgraph
 * extracts against the definitions of the same file with each erroneous construct blanked out
 * (the line where the first error starts becomes spaces, newline kept, so every line stays where
 * it was; repeated until the file parses cleanly: the erroneous construct's lines and no others). A definition the blanked file has and the original
 * parse lacks lies outside every erroneous construct: it was lost to the error, a defect. A
 * benchmark, not CI.
 *
 * `deno run -A --unstable-raw-imports bench/accuracy/parse_errors.ts [--worst N] [--lost]
 * <root>...`
 * (`--lost` lists every lost definition.)
 */
import { parseArgs } from "node:util";
import { Edit, type Node, type Tree } from "web-tree-sitter";
import type { DefFact } from "../../src/graph/facts.ts";
import { analyze } from "../../src/index/analyze.ts";
import { visitErrors } from "../../src/index/analyze/nodes.ts";
import { countLines, extractFacts } from "../../src/index/extract.ts";
import { readCandidates } from "../../src/index/scan.ts";
import { walkRepository } from "../../src/index/walk.ts";
import { toolsFor } from "../../src/lang/parser.ts";
import type { LanguageSpec } from "../../src/lang/spec.ts";

interface Row {
  files: number;
  withErrors: number;
  defs: number;
  lost: number;
  lostFiles: number;
  /** Lines blanked to make the files parse, and files still erroneous after 400 lines. */
  blankedLines: number;
  unclean: number;
  worst: { path: string; lost: number; defs: number; names: string[] }[];
}

/** Outermost ERROR nodes and every MISSING node. */
function errorNodes(root: Node): Node[] {
  const out: Node[] = [];
  visitErrors(root, (n) => out.push(n));
  return out;
}

const key = (d: DefFact) => `${d.name}@${d.line}`;

async function defsOf(spec: LanguageSpec, text: string, path: string) {
  const { parser, query } = await toolsFor(spec);
  const tree = parser.parse(text)!;
  try {
    const defs = analyze(spec, query, tree, { path, hash: "", lines: countLines(text) }).defs;
    return { defs, errors: tree.rootNode.hasError };
  } finally {
    tree.delete();
  }
}

/** The row where the first error (ERROR or MISSING node) starts. */
function firstErrorRow(tree: Tree): number | undefined {
  if (!tree.rootNode.hasError) return undefined;
  return Math.min(...errorNodes(tree.rootNode).map((n) => n.startPosition.row));
}

/**
 * Definitions of the file with its erroneous construct blanked: the line where the first error
 * starts becomes spaces (newline kept), then the file is parsed again (incrementally), until it
 * parses cleanly. One line at a time, the construct's lines are blanked and never the well-formed
 * constructs an ERROR node swallowed after it.
 */
async function blankedDefs(spec: LanguageSpec, text: string, path: string) {
  const { parser } = await toolsFor(spec);
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  let current = text;
  let tree = parser.parse(text)!;
  let blanked = 0;
  const done = new Set<number>();
  try {
    for (let round = 0; round < 400; round++) {
      const row = firstErrorRow(tree);
      if (row === undefined || done.has(row)) break;
      done.add(row);
      const start = lineStarts[row];
      const end = row + 1 < lineStarts.length ? lineStarts[row + 1] - 1 : current.length;
      current = current.slice(0, start) + current.slice(start, end).replace(/[^\r]/g, " ") +
        current.slice(end);
      const pos = { row, column: 0 };
      const endPos = { row, column: end - start };
      tree.edit(
        new Edit({
          startIndex: start,
          oldEndIndex: end,
          newEndIndex: end,
          startPosition: pos,
          oldEndPosition: endPos,
          newEndPosition: endPos,
        }),
      );
      const next = parser.parse(current, tree)!;
      tree.delete();
      tree = next;
      blanked++;
    }
    const clean = !tree.rootNode.hasError;
    const { defs } = await defsOf(spec, current, path);
    return { defs, blanked, clean };
  } finally {
    tree.delete();
  }
}

async function main() {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    options: { worst: { type: "string", default: "5" }, lost: { type: "boolean" } },
    allowPositionals: true,
  });
  const rows = new Map<string, Row>();
  const decoder = new TextDecoder();
  for (const root of positionals) {
    const walk = await walkRepository(root);
    const read = await readCandidates(walk.files, walk.skipped);
    for (const f of read) {
      const spec = f.candidate.language;
      const lang = spec.name === "tsx" ? "typescript" : spec.name;
      const row = rows.get(lang) ??
        {
          files: 0,
          withErrors: 0,
          defs: 0,
          lost: 0,
          lostFiles: 0,
          blankedLines: 0,
          unclean: 0,
          worst: [],
        };
      rows.set(lang, row);
      row.files++;
      const t0 = performance.now();
      // What cgraph indexes: the whole pipeline (source preparation, parse, any recovery).
      const original = await extractFacts(spec, f.candidate.path, f.bytes, f.hash);
      if (!original.parseErrors) continue;
      const decoded = decoder.decode(f.bytes);
      const text = spec.prepare ? spec.prepare(decoded) : decoded;
      row.withErrors++;
      row.defs += original.defs.length;
      const blanked = await blankedDefs(spec, text, f.candidate.path);
      row.blankedLines += blanked.blanked;
      if (!blanked.clean) row.unclean++;
      const have = new Set(original.defs.map(key));
      const lost = blanked.defs.filter((d) => !have.has(key(d)));
      const path = `${root.replace(/\/$/, "")}/${f.candidate.path}`;
      if (lost.length) {
        row.lost += lost.length;
        row.lostFiles++;
        row.worst.push({
          path,
          lost: lost.length,
          defs: original.defs.length,
          names: lost.map((d) => `${d.local}:${d.line}`),
        });
      }
      const ms = performance.now() - t0;
      if (ms > 2000) console.error(`${path}: ${Math.round(ms)} ms`);
      if (values.lost && lost.length) {
        console.log(`${path}: lost ${lost.map((d) => `${d.local}:${d.line}`).join(", ")}`);
      }
    }
  }
  const n = Number(values.worst);
  console.log(
    "| language | files | with errors | defs in them | lost outside errors | files losing | lines blanked | not clean |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const [lang, r] of [...rows].sort()) {
    console.log(
      `| ${lang} | ${r.files} | ${r.withErrors} | ${r.defs} | ${r.lost} | ${r.lostFiles} | ${r.blankedLines} | ${r.unclean} |`,
    );
  }
  for (const [lang, r] of [...rows].sort()) {
    if (!r.worst.length) continue;
    console.log(`\n${lang}: worst files`);
    for (const w of r.worst.sort((a, b) => b.lost - a.lost).slice(0, n)) {
      console.log(
        `  ${w.path}: lost ${w.lost} (kept ${w.defs}) e.g. ${w.names.slice(0, 4).join(", ")}`,
      );
    }
  }
}

if (import.meta.main) await main();
