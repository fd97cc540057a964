/** Reading a definition's node: its signature, doc, wrapper statement, parse errors, range. */
import type { Node } from "web-tree-sitter";
import type { LanguageSpec } from "../../lang/spec.ts";

export const MAX_SIGNATURE = 200;

export const MAX_DOC = 400;

export function row(node: Node): number {
  return node.startPosition.row + 1;
}

export function contains(outer: Node, inner: Node): boolean {
  return outer.startIndex <= inner.startIndex && inner.endIndex <= outer.endIndex &&
    outer.id !== inner.id;
}

export function signatureOf(node: Node): string {
  const body = node.childForFieldName("body");
  const end = body ? body.startIndex - node.startIndex : node.text.length;
  const head = node.text.slice(0, Math.max(0, end));
  const firstLines = head.length > MAX_SIGNATURE * 2 ? head.slice(0, MAX_SIGNATURE * 2) : head;
  const compact = firstLines.replace(/\s+/g, " ").trim().replace(/[{:=]\s*$/, "").trim();
  return compact.length > MAX_SIGNATURE ? compact.slice(0, MAX_SIGNATURE - 1) + "…" : compact;
}

export function docstringOf(node: Node): string {
  const body = node.childForFieldName("body");
  const first = body?.namedChild(0);
  if (!first || first.type !== "expression_statement") return "";
  const str = first.namedChild(0);
  if (!str || str.type !== "string") return "";
  return trimDoc(str.text.replace(/^[rRuUbB]*("""|'''|"|')/, "").replace(/("""|'''|"|')$/, ""));
}

/** The statement that only wraps this definition (spec.definitionWrappers), else the node. */
export function wrapperOf(node: Node, spec: LanguageSpec): Node {
  const wrappers = spec.definitionWrappers;
  if (!wrappers) return node;
  let n = node;
  for (let p = n.parent; p && wrappers.includes(p.type) && p.namedChildCount === 1; p = n.parent) {
    n = p;
  }
  return n;
}

/**
 * The comments right above a definition, their markers stripped, whole: a doc is their trimDoc,
 * and the types JSDoc states are read from all of them (LanguageSpec.docTypes).
 */
export function commentTextOf(node: Node): string {
  // Decorators, export statements and attributes wrap the definition; the comment sits above them.
  let anchor = node;
  while (
    anchor.parent && anchor.parent.startPosition.row === anchor.startPosition.row &&
    /export|decorat|template|annotat/.test(anchor.parent.type)
  ) anchor = anchor.parent;
  const lines: string[] = [];
  let expectRow = anchor.startPosition.row;
  let sib = anchor.previousNamedSibling;
  while (sib && /comment/.test(sib.type) && sib.endPosition.row >= expectRow - 1) {
    lines.unshift(sib.text);
    expectRow = sib.startPosition.row;
    sib = sib.previousNamedSibling;
  }
  if (lines.length === 0) return "";
  return lines.join("\n")
    .replace(/^\s*\/\*+|\*+\/\s*$/gm, "")
    .replace(/^\s*(\/\/\/?|#|\*(?!\/))\s?/gm, "");
}

export function trimDoc(text: string): string {
  const t = text.split("\n").map((l) => l.trim()).join("\n").trim();
  return t.length > MAX_DOC ? t.slice(0, MAX_DOC - 1) + "…" : t;
}

export function countErrors(root: Node): number {
  // The cursor must be deleted explicitly: web-tree-sitter's finalizer for a collected cursor
  // frees through the tree's address, which corrupts wasm memory once the tree is gone.
  const cursor = root.walk();
  try {
    return countWith(cursor);
  } finally {
    cursor.delete();
  }
}

/**
 * Visits the outermost ERROR nodes and every MISSING node of a tree, in order, without descending
 * into what parsed cleanly.
 */
export function visitErrors(root: Node, visit: (n: Node) => void): void {
  const cursor = root.walk();
  try {
    let more = true;
    while (more) {
      const node = cursor.currentNode;
      if (node.isError || node.isMissing) visit(node);
      else if (node.hasError && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent()) {
          more = false;
          break;
        }
      }
    }
  } finally {
    cursor.delete();
  }
}

/** The three largest ERROR regions (outermost ones), as 1-based line ranges, in line order. */
export function errorRegions(root: Node): [number, number][] {
  const found: [number, number][] = [];
  visitErrors(root, (node) => {
    if (node.isError) found.push([node.startPosition.row + 1, node.endPosition.row + 1]);
  });
  return found.sort((a, b) => (b[1] - b[0]) - (a[1] - a[0])).slice(0, 3).sort((a, b) =>
    a[0] - b[0]
  );
}

export function countWith(cursor: ReturnType<Node["walk"]>): number {
  let n = 0;
  let more = true;
  while (more) {
    const node = cursor.currentNode;
    if (node.isError || node.isMissing) n++;
    if (node.hasError && cursor.gotoFirstChild()) continue;
    while (!cursor.gotoNextSibling()) {
      if (!cursor.gotoParent()) {
        more = false;
        break;
      }
    }
  }
  return n;
}

/** `import type ...`, or an import under a guard such as `if TYPE_CHECKING:` (see LanguageSpec). */
export function typeOnlyImport(node: Node, spec: LanguageSpec): boolean {
  if (spec.typeOnlyImport?.test(node.text)) return true;
  if (!spec.typeOnlyGuard) return false;
  for (let a = node.parent; a; a = a.parent) {
    const condition = a.childForFieldName("condition");
    if (condition && spec.typeOnlyGuard.test(condition.text)) return true;
  }
  return false;
}
