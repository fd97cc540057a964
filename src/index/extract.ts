/** One file's bytes -> FileFacts: decode, parse, analyze. Pure: no database, no other files. */
import { createHash } from "node:crypto";
import type { LanguageSpec } from "../lang/spec.ts";
import { toolsFor } from "../lang/parser.ts";
import { analyze } from "./analyze.ts";
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
    const facts = analyze(spec, query, tree, { path, hash, lines: countLines(text) });
    facts.keys = symbolKeys(facts);
    return facts;
  } finally {
    tree.delete();
  }
}
