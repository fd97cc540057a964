/** A definition's source lines for the side panel, read from the project's work tree. */
import { resolve, sep } from "node:path";
import type { NodeRef } from "../query/graph.ts";

/** Lines shown at most (a long body is cut, and says so). */
export const SNIPPET_LINES = 40;

export interface Snippet {
  /** First line number shown. */
  start: number;
  lines: string[];
  /** More lines follow in the definition. */
  cut: boolean;
}

/**
 * `node`'s lines (a file: its first lines), or undefined when the file is not readable from
 * `root` (a graph indexed elsewhere) or lies outside it.
 */
export async function snippet(
  root: string | undefined,
  node: NodeRef,
): Promise<Snippet | undefined> {
  if (!root) return undefined;
  const base = resolve(root);
  const full = resolve(base, node.path);
  if (full !== base && !full.startsWith(base + sep)) return undefined;
  let text: string;
  try {
    text = await Deno.readTextFile(full);
  } catch {
    return undefined;
  }
  const all = text.split("\n");
  const start = Math.max(1, node.line || 1);
  const end = Math.max(start, node.end_line ?? (node.kind === "File" ? all.length : start));
  const last = Math.min(end, start + SNIPPET_LINES - 1, all.length);
  return { start, lines: all.slice(start - 1, last), cut: last < end };
}
