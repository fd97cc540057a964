/** One file's bytes -> FileFacts: decode, parse, analyze. Pure: no database, no other files. */
import { createHash } from "node:crypto";
import type { LanguageSpec } from "../lang/spec.ts";
import { toolsFor } from "../lang/parser.ts";
import { analyze } from "./analyze.ts";
import { blankErrorLines, lineRanges, swallowsLines } from "./analyze/recover.ts";
import type { Tree } from "web-tree-sitter";
import type { FileFacts } from "../graph/facts.ts";
import { symbolKeys } from "../graph/model.ts";

const decoder = new TextDecoder("utf-8", { fatal: false });

export function sha256(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** Lines in a text (a trailing newline does not start a new line). */
export function countLines(text: string): number {
  if (text.length === 0) return 0;
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return text.endsWith("\n") ? n - 1 : n;
}

export async function extractFacts(
  spec: LanguageSpec,
  path: string,
  bytes: Uint8Array,
  hash = sha256(bytes),
): Promise<FileFacts> {
  // Invalid UTF-8 is replaced (U+FFFD), not fatal: the rest of the file still indexes.
  const decoded = decoder.decode(bytes);
  // A language may rewrite constructs its grammar cannot read (macros, new syntax) into text of the
  // same length and lines, so every position still points into the file as written.
  const text = spec.prepare ? spec.prepare(decoded) : decoded;
  const { parser, query } = await toolsFor(spec);
  const tree = parser.parse(text);
  if (!tree) throw new Error(`tree-sitter could not parse ${path}`);
  try {
    const file = { path, hash, lines: countLines(text) };
    let facts = analyze(spec, query, tree, file);
    if (facts.parseErrors && swallowsLines(tree.rootNode)) {
      facts = recovered(
        facts,
        blankErrorLines(parser, tree, text),
        (t) => analyze(spec, query, t, file),
      );
    }
    facts.keys = symbolKeys(facts);
    return facts;
  } finally {
    tree.delete();
  }
}

/**
 * The facts of the file read with its erroneous lines blanked (analyze/recover.ts), when that
 * reading has definitions the first one lost to the error and keeps more than it drops; the first
 * reading otherwise. The file is still reported with its errors, and with the definitions the
 * first reading had that the kept one lacks (`lostDefs`).
 */
function recovered(
  facts: FileFacts,
  blanked: ReturnType<typeof blankErrorLines>,
  read: (tree: Tree) => FileFacts,
): FileFacts {
  if (!blanked) return facts;
  try {
    const second = read(blanked.tree);
    const key = (d: { name: string; line: number }) => `${d.name}@${d.line}`;
    const first = new Set(facts.defs.map(key));
    const again = new Set(second.defs.map(key));
    // A definition counts as regained when it has lines of its own or sits in another one: a
    // one-line file-level "definition" the blanking made may be none (C++ `TYPED_TEST_SUITE(T, U);`
    // reads as a function declaration once the line before it is blank).
    const gained = second.defs.filter((d) =>
      !first.has(key(d)) && (d.endLine > d.line || d.parent >= 0)
    ).length;
    const dropped = facts.defs.filter((d) => !again.has(key(d))).length;
    // A reading that drops as much as it gains is no better.
    if (gained <= dropped) return facts;
    return {
      ...second,
      parseErrors: facts.parseErrors,
      errorLines: lineRanges(blanked.rows).slice(0, 3),
      recoveredDefs: gained,
      ...(dropped ? { lostDefs: dropped } : {}),
    };
  } finally {
    blanked.tree.delete();
  }
}
