/**
 * The analyzer's definitions: containers ordered and read into DefFacts, where a node is (which
 * definition it is in), what definitions return, and the bases they state.
 */
import type { Node } from "web-tree-sitter";
import type { LanguageSpec } from "../../lang/spec.ts";
import type { DefFact, InheritFact, SymbolKind } from "../../graph/facts.ts";
import { TYPE_KINDS } from "../../graph/facts.ts";
import { compactExpr, valueType } from "./text.ts";
import { commentTextOf, contains, docstringOf, row, signatureOf, trimDoc } from "./nodes.ts";
import { constQualified, paramsOf, returnTypeOf, typeParamsOf } from "./params.ts";
import type { Container, Gathered } from "./gather.ts";

/** Where a node is: the index of the definition it is in (-1: the file's top level). */
export type Locate = (node: Node, onlyTypes?: boolean, inHead?: boolean) => number;

/**
 * The definitions, in document order (containers ordered the same way, skipped and macro-made
 * ones dropped), with each container's parent and start.
 */
export function definitions(
  spec: LanguageSpec,
  g: Gathered,
): {
  parentOf: number[];
  starts: number[];
  defs: DefFact[];
  /** Parameter types a definition's doc comment states (LanguageSpec.docTypes), by its index. */
  docParams: Map<number, Record<string, string>>;
} {
  const { containers, skipped } = g;
  const docParams = new Map<number, Record<string, string>>();
  // Containers in document order, so a parent always precedes its children.
  if (skipped.size) {
    const kept = containers.filter((c) => !skipped.has(c.node.id));
    containers.length = 0;
    containers.push(...kept);
  }
  containers.sort((a, b) =>
    a.node.startIndex - b.node.startIndex || b.node.endIndex - a.node.endIndex
  );
  // What a macro's body defines is what its expansions make: no definitions of their own, their
  // calls are the macro's.
  if (containers.some((c) => c.macro)) {
    const outer = parents(containers);
    const inMacro = (i: number) => {
      for (let at = outer[i]; at >= 0; at = outer[at]) if (containers[at].macro) return true;
      return false;
    };
    const kept = containers.filter((_, i) => !inMacro(i));
    containers.length = 0;
    containers.push(...kept);
  }
  const parentOf = parents(containers);
  const starts = containers.map((c) => c.node.startIndex);

  const defs: DefFact[] = [];
  containers.forEach((c, i) => {
    if (c.kind === "impl") return;
    const parentContainer = parentOf[i] >= 0 ? containers[parentOf[i]] : undefined;
    const owner = c.owner ?? (parentContainer?.kind === "impl" ? parentContainer.name : undefined);
    let kind = c.kind;
    const inType = owner !== undefined ||
      (parentContainer !== undefined && parentContainer.kind !== "impl" &&
        TYPE_KINDS.has(parentContainer.kind) &&
        !(parentContainer.kind === "Module" && spec.namespaceFunctions));
    if (kind === "Function" && inType) kind = "Method";
    const parentDef = nearestDef(containers, parentOf, i);
    const parentLocal = parentDef >= 0 ? defs[containers[parentDef].def!].local : undefined;
    // An extension is named after its receiver as written (`FunSpec.Builder.f`, not `Builder.f`).
    const ownerPart = parentContainer?.kind === "impl" || c.owner
      ? (spec.extensionOwners && c.ownerWritten) || owner
      : undefined;
    const prefix = [parentLocal, ownerPart].filter(Boolean).join(".");
    c.def = defs.length;
    // An operator is named without spaces (`operator <<` -> `operator<<`), as its calls are.
    if (/^operator\b/.test(c.name)) c.name = c.name.replace(/\s+/g, "");
    // `namespace a::b` / `module A::B`: the name is the last segment, the rest is its path.
    const segments = c.name.split("::").filter(Boolean);
    const name = segments[segments.length - 1] ?? c.name;
    const written = segments.join(".");
    const callableKind = kind === "Function" || kind === "Method";
    const paramInfo = callableKind ? paramsOf(c.node, spec) : undefined;
    const params = paramInfo?.range;
    const paramTypes = paramInfo?.types.some(Boolean) ? paramInfo.types : undefined;
    const paramNames = paramInfo?.names.length ? paramInfo.names : undefined;
    const comment = spec.docStyle === "docstring" ? "" : commentTextOf(c.node);
    // JSDoc in JavaScript (LanguageSpec.docTypes): the types the code does not write.
    const docTypes = callableKind && comment ? spec.docTypes?.(comment) : undefined;
    if (docTypes && Object.keys(docTypes.params).length) {
      docParams.set(defs.length, docTypes.params);
    }
    const docReturns = docTypes?.returns ? valueType(docTypes.returns, spec) : undefined;
    const returns = callableKind
      ? returnTypeOf(c.node, spec) ?? (docReturns || undefined)
      : undefined;
    const constant = callableKind && constQualified(c.node);
    const generics = typeParamsOf(c.node);
    // An extension's receiver: C#'s `this` parameter, or (where the language says so) the type
    // written before the name (`fun Foo.m()`).
    const receiverType = spec.extensionOwners && c.owner ? c.ownerWritten : paramInfo?.receiver;
    defs.push({
      name,
      kind,
      local: prefix ? `${prefix}.${written}` : written,
      line: c.nameNode.startPosition.row + 1,
      endLine: c.node.endPosition.row + 1,
      signature: c.macro ? `#define ${c.name}` : signatureOf(c.node),
      ...(c.macro ? { macro: true } : {}),
      ...(c.static ? { static: true } : {}),
      ...(c.alias ? { alias: true } : {}),
      ...(c.expansion ? { expansion: true } : {}),
      doc: spec.docStyle === "docstring" ? docstringOf(c.node) : comment ? trimDoc(comment) : "",
      parent: parentDef >= 0 ? containers[parentDef].def! : -1,
      owner,
      ...(params ? { params } : {}),
      ...(paramTypes ? { paramTypes } : {}),
      ...(paramNames ? { paramNames } : {}),
      ...(returns ? { returns } : {}),
      ...(constant ? { constant } : {}),
      ...(generics ? { typeParams: generics.names } : {}),
      ...(generics && Object.keys(generics.bounds).length ? { typeBounds: generics.bounds } : {}),
      ...(receiverType ? { receiverType } : {}),
      ...(paramInfo?.receiver ? { receiverParam: true } : {}),
    });
  });

  return { parentOf, starts, defs, docParams };
}

/** Finds the definition a node is in (see Locate). */
export function locator(
  containers: Container[],
  parentOf: number[],
  starts: number[],
  decorators: Node[],
): Locate {
  return (node: Node, onlyTypes = false, inHead = true): number => {
    // A decorator runs where the definition it decorates is made: in the scope around a
    // definition whose head (before its body) holds it, e.g. a class's for its members' and
    // parameters' decorators.
    const decorator = inHead
      ? undefined
      : decorators.find((d) => contains(d, node) || d.id === node.id);
    // The containers that contain `node` are the last one starting at or before it and its
    // ancestors (definitions nest): a binary search and a walk up, never a scan of them all.
    let lo = 0;
    let hi = starts.length - 1;
    let at = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (starts[mid] <= node.startIndex) {
        at = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    for (; at >= 0; at = parentOf[at]) {
      const c = containers[at];
      if (c.def === undefined || !contains(c.node, node)) continue;
      if (onlyTypes && !TYPE_KINDS.has(c.kind as SymbolKind)) continue;
      if (decorator) {
        const body = c.node.childForFieldName("body");
        if (!body || decorator.startIndex < body.startIndex) continue;
      }
      // Calls before the name (annotations, attributes) run where the definition is made.
      if (!inHead && node.startIndex < c.nameNode.startIndex) continue;
      return c.def;
    }
    return -1;
  };
}

/** Records on each definition the name it returns, if any. */
export function returnValues(
  spec: LanguageSpec,
  returned: Node[],
  defs: DefFact[],
  defIndexAt: Locate,
): void {
  // `return inner`: the name a definition returns (its first such return counts).
  for (let node of returned) {
    const at = defIndexAt(node);
    for (
      let i = 0;
      i < 8 && spec.returnSkip?.includes(node.type) && node.previousNamedSibling;
      i++
    ) {
      node = node.previousNamedSibling;
    }
    if (spec.returnSkip?.includes(node.type)) continue;
    if (spec.returnValueOf) node = spec.returnValueOf(node);
    const value = compactExpr(withoutBlock(node));
    if (at >= 0 && defs[at].returnsValue === undefined && value) defs[at].returnsValue = value;
  }
}

/** The bases and mixins each definition (or impl block) states. */
export function inheritsOf(
  spec: LanguageSpec,
  inheritNodes: Gathered["inheritNodes"],
  containers: Container[],
  defs: DefFact[],
  defIndexAt: Locate,
): InheritFact[] {
  const inherits: InheritFact[] = [];
  for (const { node, relation, hooked, at } of inheritNodes) {
    // `@hooked`: a mixin made inside a class-level hook method (spec.mixinHooks), which hands it
    // to the type the hook is defined in; anywhere else the capture is no mixin.
    if (hooked) {
      const fn = defIndexAt(node);
      if (fn < 0 || !defs[fn].static || !spec.mixinHooks?.includes(defs[fn].name)) continue;
    }
    const from = defIndexAt(at ?? node, true);
    const impl = at ? undefined : implAt(containers, node);
    if (impl && (from < 0 || contains(containers.find((c) => c.def === from)!.node, impl.node))) {
      const generics = typeParamsOf(impl.node);
      const blanket = generics?.names.includes(impl.name);
      inherits.push({
        from: -1,
        ownerName: impl.name,
        ...(blanket ? { ownerBound: generics!.bounds[impl.name] ?? "" } : {}),
        name: node.text.trim(),
        relation,
        line: row(node),
      });
    } else if (from >= 0) {
      inherits.push({ from, name: node.text.trim(), relation, line: row(node) });
    }
  }
  return inherits;
}

/**
 * Each container's innermost enclosing container (-1 at file level), in one pass over containers
 * sorted by start (then outer first): a stack of the ones still open.
 */
function parents(containers: Container[]): number[] {
  const out: number[] = [];
  const open: number[] = [];
  containers.forEach((c, i) => {
    while (open.length && !contains(containers[open[open.length - 1]].node, c.node)) open.pop();
    out.push(open.length ? open[open.length - 1] : -1);
    open.push(i);
  });
  return out;
}

/** Nearest enclosing container that is a definition (skipping impl scopes). */
function nearestDef(containers: Container[], parentOf: number[], i: number): number {
  let p = parentOf[i];
  while (p >= 0 && containers[p].kind === "impl") p = parentOf[p];
  return p;
}

function implAt(containers: Container[], node: Node): Container | undefined {
  let found: Container | undefined;
  for (const c of containers) if (c.kind === "impl" && contains(c.node, node)) found = c;
  return found;
}

/** A call's text without the block passed to it (Ruby `f(x) do .. end`): the call's value. */
export function withoutBlock(node: Node): string {
  const block = node.childForFieldName("block");
  return block ? node.text.slice(0, block.startIndex - node.startIndex) : node.text;
}
