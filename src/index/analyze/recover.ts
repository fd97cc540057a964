/**
 * Recovery of what a syntax error swallowed. tree-sitter's error recovery can wrap well-formed
 * constructs that follow an error into one ERROR node (a class's later methods after a member the
 * grammar cannot read), and the definitions in them are lost although nothing is wrong with them.
 * When an ERROR node spans lines, the file is read again with its erroneous lines blanked: the
 * line where the first error starts becomes spaces (line breaks kept, so every position stays where it
 * was) and the file is parsed again, incrementally, a few lines at most. The erroneous
 * construct's own lines are then all that is not indexed.
 */
import { Edit, type Node, type Parser, type Tree } from "web-tree-sitter";
import { visitErrors } from "./nodes.ts";

/** Rounds of blanking: bounds the work on a file that is mostly errors. */
const MAX_ROUNDS = 4;

/**
 * Lines an ERROR node must span to be read again: a construct's worth (a member and what follows
 * it), not a declaration head the grammar split over two lines.
 */
const SWALLOWED_LINES = 4;

/** Whether some ERROR node spans enough lines to hold well-formed constructs. */
export function swallowsLines(root: Node): boolean {
  let found = false;
  visitErrors(root, (n) => {
    if (n.isError && n.endPosition.row - n.startPosition.row + 1 >= SWALLOWED_LINES) found = true;
  });
  return found;
}

/** The row where the first ERROR or MISSING node starts. */
function firstErrorRow(root: Node): number | undefined {
  let first: number | undefined;
  visitErrors(root, (n) => {
    if (first === undefined || n.startPosition.row < first) first = n.startPosition.row;
  });
  return first;
}

/** Calls `visit` on the outermost ERROR nodes and on every MISSING node. */

/**
 * The text with its erroneous lines blanked and its tree (the caller deletes it), with the
 * 0-based rows blanked: each round blanks the line where the first error starts and parses again
 * (incrementally), MAX_ROUNDS times at most (one line at a time: blanking the lines of later
 * errors too would blank the well-formed code the first one swallowed). The result may still hold
 * errors.
 */
export function blankErrorLines(
  parser: Parser,
  tree: Tree,
  text: string,
): { text: string; tree: Tree; rows: number[] } | undefined {
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const chars = text.split("");
  let at = tree.copy();
  const rows = new Set<number>();
  for (let round = 0; round < MAX_ROUNDS && at.rootNode.hasError; round++) {
    const first = firstErrorRow(at.rootNode);
    if (first === undefined || rows.has(first)) break;
    for (const row of [first]) {
      rows.add(row);
      const start = lineStarts[row];
      const end = row + 1 < lineStarts.length ? lineStarts[row + 1] - 1 : chars.length;
      for (let i = start; i < end; i++) if (chars[i] !== "\r") chars[i] = " ";
      const position = { row, column: 0 };
      const endPosition = { row, column: end - start };
      at.edit(
        new Edit({
          startIndex: start,
          oldEndIndex: end,
          newEndIndex: end,
          startPosition: position,
          oldEndPosition: endPosition,
          newEndPosition: endPosition,
        }),
      );
    }
    const next = parser.parse(chars.join(""), at);
    at.delete();
    if (!next) return undefined;
    at = next;
  }
  return rows.size ? { text: chars.join(""), tree: at, rows: [...rows] } : (at.delete(), undefined);
}

/** Rows (0-based) as 1-based line ranges, adjacent rows joined. */
export function lineRanges(rows: number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const r of [...rows].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last && last[1] >= r) last[1] = Math.max(last[1], r + 1);
    else out.push([r + 1, r + 1]);
  }
  return out;
}
