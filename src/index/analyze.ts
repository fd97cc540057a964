/**
 * The one analyzer: runs a language's tags.scm over a parsed file and turns the captures into
 * FileFacts. It knows capture names, never node types; languages differ only in their data.
 */
import type { Node, Query, Tree } from "web-tree-sitter";
import type { LanguageSpec, ScopeLambda } from "../lang/spec.ts";
import type {
  CallFact,
  DefFact,
  FileFacts,
  ImportFact,
  InheritFact,
  SymbolKind,
  TypeHint,
} from "../graph/facts.ts";
import { TYPE_KINDS } from "../graph/facts.ts";

import {
  cleanName,
  compactExpr,
  normalizeReceiver,
  qualifiedType,
  typeName,
  unquote,
  valueType,
} from "./analyze/text.ts";
import {
  commentDocOf,
  contains,
  countErrors,
  docstringOf,
  errorRegions,
  row,
  signatureOf,
  typeOnlyImport,
  wrapperOf,
} from "./analyze/nodes.ts";
import { constQualified, paramsOf, returnTypeOf, typeParamsOf } from "./analyze/params.ts";
import { argsOf, argType, typeArgCount } from "./analyze/args.ts";

const KIND_BY_CAPTURE: Record<string, SymbolKind> = {
  "definition.function": "Function",
  "definition.method": "Method",
  "definition.class": "Class",
  "definition.interface": "Interface",
  "definition.struct": "Struct",
  "definition.enum": "Enum",
  "definition.trait": "Trait",
  "definition.module": "Module",
  "definition.macro": "Function",
  "definition.alias": "Class",
  "definition.expansion": "Function",
};

/** A definition or an impl scope while the file is being read. */
interface Container {
  node: Node;
  /** The name token: a definition's line is its name's, never a decorator's or annotation's. */
  nameNode: Node;
  name: string;
  kind: SymbolKind | "impl";
  owner?: string;
  /** The owner as written, qualified (`FunSpec.Builder`), without type arguments. */
  ownerWritten?: string;
  def?: number;
  macro?: boolean;
  static?: boolean;
  alias?: boolean;
  expansion?: boolean;
}

export function analyze(
  spec: LanguageSpec,
  query: Query,
  tree: Tree,
  file: { path: string; hash: string; lines: number },
): FileFacts {
  const root = tree.rootNode;
  // Each step its own function: V8 optimises the ones that run hot, each on its own, instead of
  // compiling one long function whole in every parse worker.
  const g = gather(spec, query, root);
  const { containers, calls, imports, importNodes, pkg, defaultExport } = g;
  const { parentOf, starts, defs } = definitions(spec, g);
  const defIndexAt = locator(containers, parentOf, starts, g.decorators);
  returnValues(spec, g.returned, defs, defIndexAt);
  const scoped = scopedLambdas(spec, calls);
  const callFacts = callFactsOf(spec, calls, scoped, defIndexAt);
  const inherits = inheritsOf(spec, g.inheritNodes, containers, defs, defIndexAt);
  // An import inside a function runs when the function does, not when its file loads.
  imports.forEach((imp, i) => {
    const at = defIndexAt(importNodes[i]);
    if (at >= 0 && (defs[at].kind === "Function" || defs[at].kind === "Method")) {
      imp.typeOnly = true;
    }
  });

  const hints = typeHints(spec, g.hintNodes, defIndexAt);

  return {
    path: file.path,
    language: spec.name,
    hash: file.hash,
    lines: file.lines,
    module: spec.moduleName(file.path, pkg),
    package: pkg,
    ...(defaultExport ? { defaultExport } : {}),
    defs,
    calls: callFacts,
    imports,
    inherits,
    hints,
    parseErrors: root.hasError ? countErrors(root) : 0,
    ...(root.hasError ? { errorLines: errorRegions(root) } : {}),
  };
}

/** A call as the matches found it, before its facts are read off its nodes. */
interface PendingCall {
  node: Node;
  name: Node;
  /** The name's text, read once (a node's text is a call into the parser). */
  text?: string;
  receiver?: Node;
  method?: boolean;
  isNew: boolean;
  delegate: boolean;
  operator?: boolean;
  range?: boolean;
}

/** What a file's query matches say, before any of it is ordered or read further. */
interface Gathered {
  containers: Container[];
  calls: Map<number, PendingCall>;
  imports: ImportFact[];
  importNodes: Node[];
  inheritNodes: { node: Node; relation: InheritFact["relation"]; hooked: boolean }[];
  hintNodes: HintNode[];
  pkg?: string;
  defaultExport?: string;
  skipped: Set<number>;
  decorators: Node[];
  returned: Node[];
}

interface HintNode {
  at: Node;
  variable: Node;
  type?: Node;
  value?: Node;
}

/** Where a node is: the index of the definition it is in (-1: the file's top level). */
type Locate = (node: Node, onlyTypes?: boolean, inHead?: boolean) => number;

/** Lambdas that run on a value, innermost first. */
type Scoped = { start: number; end: number; lambda: ScopeLambda; value: string }[];

/** The definitions, calls, imports, bases and hints the query's matches capture. */
function gather(spec: LanguageSpec, query: Query, root: Node): Gathered {
  const containers: Container[] = [];
  const calls = new Map<number, PendingCall>();
  const imports: ImportFact[] = [];
  const importNodes: Node[] = [];
  const inheritNodes: { node: Node; relation: InheritFact["relation"]; hooked: boolean }[] = [];
  const hintNodes: HintNode[] = [];
  let pkg: string | undefined;
  let defaultExport: string | undefined;
  const seenDefs = new Set<number>();
  const skipped = new Set<number>();
  const decorators: Node[] = [];
  const returned: Node[] = [];

  for (const match of query.matches(root)) {
    const byName = new Map<string, Node>();
    for (const c of match.captures) if (!byName.has(c.name)) byName.set(c.name, c.node);
    for (const c of match.captures) {
      if (c.name === "definition.skip") {
        skipped.add(c.node.id);
        continue;
      }
      if (c.name === "decorator") {
        decorators.push(c.node);
        continue;
      }
      if (c.name === "return.value") {
        returned.push(c.node);
        continue;
      }
      const kind = KIND_BY_CAPTURE[c.name];
      // `@qualified`: a scoped name (`ns::Cart::add`) whose last name is the definition's and the
      // scope just before it its owner.
      const qualified = byName.get("qualified");
      const scoped = qualified && kind ? splitScoped(qualified) : undefined;
      const nameNode = scoped?.name ?? byName.get("name");
      if (kind && nameNode) {
        const node = wrapperOf(c.node, spec);
        if (seenDefs.has(node.id)) {
          // A second pattern marking the same definition class-level (`class << self` bodies).
          if (byName.has("static")) {
            const seen = containers.find((x) => x.node.id === node.id);
            if (seen) seen.static = true;
          }
          continue;
        }
        seenDefs.add(node.id);
        containers.push({
          node,
          nameNode,
          name: cleanName(nameNode.text),
          kind,
          ...ownerOf(scoped?.scope ?? byName.get("owner")),
          ...(c.name === "definition.macro" ? { macro: true } : {}),
          ...(byName.has("static") ? { static: true } : {}),
          ...(c.name === "definition.alias" ? { alias: true } : {}),
          ...(c.name === "definition.expansion" ? { expansion: true } : {}),
        });
      } else if (c.name === "scope.impl" && nameNode) {
        containers.push({
          node: c.node,
          nameNode,
          name: typeName(nameNode.text),
          kind: "impl",
        });
      } else if (
        (c.name === "reference.call" || c.name === "reference.new" ||
          c.name === "reference.super" || c.name === "reference.operator" ||
          c.name === "reference.range") && nameNode
      ) {
        const prev = calls.get(c.node.id);
        const receiver = byName.get("receiver") ?? byName.get("receiver.value");
        // Several patterns may match one call; keep the most specific (the one with a receiver).
        if (!prev || (!prev.receiver && receiver)) {
          calls.set(c.node.id, {
            node: c.node,
            name: nameNode,
            receiver,
            method: byName.has("receiver.value") || undefined,
            isNew: c.name === "reference.new" || c.name === "reference.super",
            delegate: c.name === "reference.super",
            ...(c.name === "reference.operator" ? { operator: true } : {}),
            ...(c.name === "reference.range" ? { range: true } : {}),
          });
        }
      } else if (c.name === "import") {
        const source = byName.get("import.source");
        if (!source) continue;
        const name = byName.get("import.name");
        const alias = byName.get("import.alias");
        let imp: ImportFact = {
          source: unquote(source.text),
          name: name ? cleanName(name.text) : undefined,
          alias: alias ? cleanName(alias.text) : undefined,
          wildcard: byName.has("import.wildcard") || undefined,
          line: c.node.startPosition.row + 1,
        };
        if (spec.normalizeImport) imp = spec.normalizeImport(imp);
        if (typeOnlyImport(c.node, spec)) imp.typeOnly = true;
        imports.push(imp);
        importNodes.push(c.node);
      } else if (c.name.startsWith("reference.")) {
        const relation = c.name.slice("reference.".length);
        if (relation === "extends" || relation === "implements" || relation === "inherits") {
          inheritNodes.push({ node: c.node, relation, hooked: byName.has("hooked") });
        }
      } else if (c.name === "hint") {
        const variable = byName.get("hint.var");
        const type = byName.get("hint.type");
        const value = byName.get("hint.value");
        if (variable && (type || value)) hintNodes.push({ at: c.node, variable, type, value });
      } else if (c.name === "package") {
        pkg ??= c.node.text.trim();
      } else if (c.name === "export.default") {
        defaultExport ??= cleanName(c.node.text);
      }
    }
  }

  return {
    containers,
    calls,
    imports,
    importNodes,
    inheritNodes,
    hintNodes,
    pkg,
    defaultExport,
    skipped,
    decorators,
    returned,
  };
}

/**
 * The definitions, in document order (containers ordered the same way, skipped and macro-made
 * ones dropped), with each container's parent and start.
 */
function definitions(
  spec: LanguageSpec,
  g: Gathered,
): { parentOf: number[]; starts: number[]; defs: DefFact[] } {
  const { containers, skipped } = g;
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
    const returns = callableKind ? returnTypeOf(c.node, spec) : undefined;
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
      doc: spec.docStyle === "docstring" ? docstringOf(c.node) : commentDocOf(c.node),
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

  return { parentOf, starts, defs };
}

/** Finds the definition a node is in (see Locate). */
function locator(
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
function returnValues(
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

function scopedLambdas(spec: LanguageSpec, calls: Map<number, PendingCall>): Scoped {
  // Lambdas that run on a value (Kotlin `x.apply { }`, `x.let { }`), read off the matched calls.
  const scoped: Scoped = [];
  if (spec.scopeLambda) {
    for (const call of calls.values()) {
      const text = call.text = call.name.text;
      if (call.receiver === undefined && text !== "with") continue;
      const found = spec.scopeLambda(call.node, text);
      if (!found) continue;
      const value = normalizeReceiver(found.value.text);
      if (!value) continue;
      const [start, end] = [found.lambda.startIndex, found.lambda.endIndex];
      scoped.push({ start, end, lambda: found, value });
    }
    // Innermost first: a later start inside an earlier lambda is nested in it.
    scoped.sort((a, b) => b.start - a.start);
  }
  return scoped;
}

/** The calls' facts, by line. */
function callFactsOf(
  spec: LanguageSpec,
  calls: Map<number, PendingCall>,
  scoped: Scoped,
  defIndexAt: Locate,
): CallFact[] {
  const callFacts: CallFact[] = [];
  for (const call of calls.values()) {
    if (call.range) {
      const from = defIndexAt(call.node, false, false);
      for (const fact of rangeCalls(call.name)) callFacts.push({ from, ...fact });
      continue;
    }
    if (call.operator) {
      const fact = operatorCall(call.node, call.name, call.receiver);
      if (fact) callFacts.push({ from: defIndexAt(call.node, false, false), ...fact });
      continue;
    }
    let receiver = call.receiver ? normalizeReceiver(call.receiver.text) : undefined;
    let implicit: string | undefined;
    if (scoped.length) {
      const [start, end] = [call.node.startIndex, call.node.endIndex];
      const head = receiver?.match(/^[\w$]+/)?.[0];
      for (const s of scoped) {
        if (s.start > start || s.end < end) continue;
        if (s.lambda.as === "this") {
          // The innermost receiver lambda: its value is `this`, and a bare call's first try.
          if (implicit !== undefined) continue;
          implicit = s.value;
          if (receiver !== undefined && spec.selfNames[0] === receiver) receiver = s.value;
        } else if (
          head && head === s.lambda.param && !spec.rebinds?.(call.node, s.lambda.lambda, head)
        ) {
          receiver = s.value + receiver!.slice(head.length);
          break;
        }
      }
      // A receiver that is `this` or the parameter was replaced by the value: nothing to try.
      if (call.receiver !== undefined && receiver !== normalizeReceiver(call.receiver.text)) {
        implicit = undefined;
      }
    }
    const argList = argsOf(call.node, spec.overloads === true);
    const callText = call.node.text;
    // An object made without an argument list (`Status s;`, `new Foo`) passes none; a
    // constructor reference (`Child::new`, `::Child`) passes what its use decides.
    const args = argList?.length ??
      (call.isNew && !call.delegate && !/[({]|::\s*new$|^::/.test(callText) ? 0 : undefined);
    const argTypes = argList?.some(Boolean) ? argList : undefined;
    const typeArgs = call.isNew ? undefined : typeArgCount(call.node, call.name, callText);
    const argNames = argList?.names.some(Boolean) ? argList.names : undefined;
    callFacts.push({
      from: defIndexAt(call.node, false, false),
      name: call.isNew
        ? typeName(call.text ?? call.name.text)
        : cleanName(call.text ?? call.name.text),
      receiver: receiver || undefined,
      ...(receiver && call.method ? { method: true } : {}),
      ...(implicit ? { implicit } : {}),
      // The callee's name token, unless it lies outside the call (`super(...)` names the base
      // class in the class header).
      line: (!call.delegate || contains(call.node, call.name) ? call.name : call.node)
        .startPosition.row + 1,
      isNew: call.isNew || undefined,
      delegate: call.delegate || undefined,
      ...(args !== undefined ? { args } : {}),
      ...(argTypes ? { argTypes } : {}),
      ...(typeArgs ? { typeArgs } : {}),
      ...(argNames ? { argNames } : {}),
    });
  }
  callFacts.sort((a, b) => a.line - b.line);
  return callFacts;
}

/** The bases and mixins each definition (or impl block) states. */
function inheritsOf(
  spec: LanguageSpec,
  inheritNodes: Gathered["inheritNodes"],
  containers: Container[],
  defs: DefFact[],
  defIndexAt: Locate,
): InheritFact[] {
  const inherits: InheritFact[] = [];
  for (const { node, relation, hooked } of inheritNodes) {
    // `@hooked`: a mixin made inside a class-level hook method (spec.mixinHooks), which hands it
    // to the type the hook is defined in; anywhere else the capture is no mixin.
    if (hooked) {
      const fn = defIndexAt(node);
      if (fn < 0 || !defs[fn].static || !spec.mixinHooks?.includes(defs[fn].name)) continue;
    }
    const from = defIndexAt(node, true);
    const impl = implAt(containers, node);
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

/** The variables' types (or the expressions they hold), where written. */
function typeHints(spec: LanguageSpec, hintNodes: HintNode[], defIndexAt: Locate): TypeHint[] {
  const hints: TypeHint[] = [];
  // A statement a pattern already types (`x = Foo.new`) needs no hint on its value as well.
  const typedAt = new Set(hintNodes.filter((h) => h.type).map((h) => h.at.id));
  for (const h of hintNodes) {
    if (!h.type && typedAt.has(h.at.id)) continue;
    const variable = normalizeReceiver(h.variable.text);
    if (!variable) continue;
    const pointer = spec.pointers === true && h.type !== undefined &&
      holdsPointer(h.at, h.variable, h.type);
    // `var h = (Wrapper<T>)cache.GetOrAdd(...)`: a cast names the type, however long the value.
    const castType = h.value?.type === "cast_expression" ? h.value.childForFieldName("type") : null;
    let type = h.type
      ? valueType(h.type.text, spec)
      : castType
      ? valueType(castType.text, spec)
      : "";
    // A pointer to `char` is a C string, as a parameter's type reads (declaratorMark).
    if (pointer && type === "char") type = "char*";
    const expr = !type && h.value ? compactExpr(withoutBlock(h.value)) : undefined;
    if (!type && !expr) continue;
    hints.push({
      scope: defIndexAt(h.at),
      variable,
      type,
      ...(expr ? { expr } : {}),
      line: h.at.startPosition.row + 1,
      ...(pointer ? { pointer: true } : {}),
      ...(spec.pointers &&
          h.at.namedChildren.some((n) => n?.type === "type_qualifier" && n.text === "const")
        ? { constant: true }
        : {}),
    });
  }
  return hints;
}

/**
 * An operator expression as a call of the operator function (`a << b` -> `operator<<` with
 * receiver `a` and one argument `b`; `!x`, `++it` -> no argument; `it++` -> the `int` tag;
 * `v[i]` -> `operator[]`). In a chain (`out << a << b`) the receiver is the chain's first operand:
 * such operators return their left operand (streams, builders, arithmetic types).
 */
function operatorCall(
  node: Node,
  token: Node,
  operand: Node | undefined,
): Omit<CallFact, "from"> | undefined {
  if (!operand) return undefined;
  const op = token.text === "[" ? "[]" : token.text;
  let left = operand;
  while (left.type === "binary_expression" && left.childForFieldName("operator")?.text === op) {
    left = left.childForFieldName("left") ?? left;
  }
  while (left.type === "parenthesized_expression" && left.namedChildCount === 1) {
    left = left.namedChild(0) ?? left;
  }
  if (left.text.length > 120 || left.text.includes("\n")) return undefined;
  const receiver = normalizeReceiver(left.text);
  const right = node.childForFieldName("right") ??
    node.childForFieldName("indices")?.namedChild(0) ?? null;
  const postfix = node.type === "update_expression" && node.firstChild?.id === operand.id;
  const argTypes = right ? [argType(right)] : postfix ? ["int"] : [];
  return {
    name: `operator${op}`,
    receiver,
    line: token.startPosition.row + 1,
    operator: true,
    args: argTypes.length,
    ...(argTypes.some(Boolean) ? { argTypes } : {}),
  };
}

/**
 * A variable that holds a pointer to a value of its hinted type (C, C++): declared through a
 * pointer declarator (`Foo* p`), or its type is a smart pointer's argument or a `new`
 * expression's. Operators on it are the pointer's own, never the type's.
 */
function holdsPointer(at: Node, variable: Node, type: Node): boolean {
  for (let n = variable.parent; n && n.id !== at.id; n = n.parent) {
    if (n.type === "pointer_declarator") return true;
    if (n.type === "init_declarator") break;
  }
  for (let n = type.parent; n && n.id !== at.id; n = n.parent) {
    if (n.type === "template_argument_list" || n.type === "new_expression") return true;
  }
  return false;
}

/**
 * A range loop over a value (C++ `for (auto x : items)`) runs its iterator's operators: `!=`
 * against the end, `++` and `*` on the iterator `items.begin()` returns.
 */
function rangeCalls(range: Node): Omit<CallFact, "from">[] {
  if (range.text.length > 100 || range.text.includes("\n")) return [];
  const items = normalizeReceiver(range.text);
  const iterator = `${items}.begin()`;
  const line = range.startPosition.row + 1;
  return [
    {
      name: "operator!=",
      receiver: iterator,
      line,
      operator: true,
      args: 1,
      argTypes: [`=${items}.end()`],
    },
    { name: "operator++", receiver: iterator, line, operator: true, args: 0 },
    { name: "operator*", receiver: iterator, line, operator: true, args: 0 },
  ];
}

/** Index of the innermost container (before `self`) that contains `node`, or -1. */
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

/** The last name of a scoped name node and the scope just before it. */
export function splitScoped(node: Node): { name: Node; scope?: Node } {
  let at = node;
  let scope: Node | undefined;
  while (at.type === node.type) {
    const inner = at.childForFieldName("name");
    if (!inner) break;
    scope = at.childForFieldName("scope") ?? scope;
    at = inner;
  }
  // A template's name (`Box<T>::put<int>` -> `put`).
  return { name: at.childForFieldName("name") ?? at, scope };
}

function ownerOf(owner: Node | undefined): { owner?: string; ownerWritten?: string } {
  return owner ? { owner: typeName(owner.text), ownerWritten: qualifiedType(owner.text) } : {};
}

/** A call's text without the block passed to it (Ruby `f(x) do .. end`): the call's value. */
function withoutBlock(node: Node): string {
  const block = node.childForFieldName("block");
  return block ? node.text.slice(0, block.startIndex - node.startIndex) : node.text;
}
