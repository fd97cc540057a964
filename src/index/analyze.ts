/**
 * The one analyzer: runs a language's tags.scm over a parsed file and turns the captures into
 * FileFacts. It knows capture names, never node types; languages differ only in their data.
 */
import type { Node, Query, Tree } from "web-tree-sitter";
import type { LanguageSpec } from "../lang/spec.ts";
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

const MAX_SIGNATURE = 200;
const MAX_DOC = 400;

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
  const containers: Container[] = [];
  const calls = new Map<
    number,
    {
      node: Node;
      name: Node;
      receiver?: Node;
      method?: boolean;
      isNew: boolean;
      delegate: boolean;
      operator?: boolean;
      range?: boolean;
    }
  >();
  const imports: ImportFact[] = [];
  const importNodes: Node[] = [];
  const inheritNodes: { node: Node; relation: InheritFact["relation"] }[] = [];
  const hintNodes: { at: Node; variable: Node; type?: Node; value?: Node }[] = [];
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
      const nameNode = byName.get("name");
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
          owner: byName.has("owner") ? typeName(byName.get("owner")!.text) : undefined,
          ownerWritten: byName.has("owner") ? qualifiedType(byName.get("owner")!.text) : undefined,
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
          inheritNodes.push({ node: c.node, relation });
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

  const defIndexAt = (node: Node, onlyTypes = false, inHead = true): number => {
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

  // `return inner`: the name a definition returns (its first such return counts).
  for (const node of returned) {
    const at = defIndexAt(node);
    const value = compactExpr(node.text);
    if (at >= 0 && defs[at].returnsValue === undefined && value) defs[at].returnsValue = value;
  }

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
    const receiver = call.receiver ? normalizeReceiver(call.receiver.text) : undefined;
    const argList = argsOf(call.node, spec.overloads === true);
    // An object made without an argument list (`Status s;`, `new Foo`) passes none; a
    // constructor reference (`Child::new`, `::Child`) passes what its use decides.
    const args = argList?.length ??
      (call.isNew && !call.delegate && !/[({]|::\s*new$|^::/.test(call.node.text) ? 0 : undefined);
    const argTypes = argList?.some(Boolean) ? argList : undefined;
    const typeArgs = call.isNew ? undefined : typeArgCount(call.node, call.name);
    const argNames = argList?.names.some(Boolean) ? argList.names : undefined;
    callFacts.push({
      from: defIndexAt(call.node, false, false),
      name: call.isNew ? typeName(call.name.text) : cleanName(call.name.text),
      receiver: receiver || undefined,
      ...(receiver && call.method ? { method: true } : {}),
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

  const inherits: InheritFact[] = [];
  for (const { node, relation } of inheritNodes) {
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

  // An import inside a function runs when the function does, not when its file loads.
  imports.forEach((imp, i) => {
    const at = defIndexAt(importNodes[i]);
    if (at >= 0 && (defs[at].kind === "Function" || defs[at].kind === "Method")) {
      imp.typeOnly = true;
    }
  });

  const hints: TypeHint[] = [];
  for (const h of hintNodes) {
    const variable = normalizeReceiver(h.variable.text);
    if (!variable) continue;
    const pointer = h.type !== undefined && holdsPointer(h.at, h.variable, h.type);
    // `var h = (Wrapper<T>)cache.GetOrAdd(...)`: a cast names the type, however long the value.
    const castType = h.value?.type === "cast_expression" ? h.value.childForFieldName("type") : null;
    let type = h.type
      ? valueType(h.type.text, spec)
      : castType
      ? valueType(castType.text, spec)
      : "";
    // A pointer to `char` is a C string, as a parameter's type reads (declaratorMark).
    if (pointer && type === "char") type = "char*";
    const expr = !type && h.value ? compactExpr(h.value.text) : undefined;
    if (!type && !expr) continue;
    hints.push({
      scope: defIndexAt(h.at),
      variable,
      type,
      ...(expr ? { expr } : {}),
      line: h.at.startPosition.row + 1,
      ...(pointer ? { pointer: true } : {}),
      ...(h.at.namedChildren.some((n) => n?.type === "type_qualifier" && n.text === "const")
        ? { constant: true }
        : {}),
    });
  }

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

/** Parameters a call must pass, [required, maximum]; maximum -1 when variadic. */
function paramsOf(
  node: Node,
  spec: LanguageSpec,
): { range: [number, number]; types: string[]; names: string[]; receiver?: string } | undefined {
  const list = parameterList(node, 0);
  if (!list) return undefined;
  let required = 0;
  let max = 0;
  let first = true;
  const types: string[] = [];
  const names: string[] = [];
  // Every child in order: a value after an anonymous `=` is the previous parameter's default
  // (Kotlin), an anonymous `params` marks the next one variadic (C#).
  let variadicNext = false;
  let afterEquals = false;
  let lastOptional: (() => void) | undefined;
  let receiver: string | undefined;
  for (const p of list.children) {
    if (!p) continue;
    if (!p.isNamed) {
      if (p.type === "=") afterEquals = true;
      else if (p.type === "params") variadicNext = true;
      continue;
    }
    if (afterEquals) {
      afterEquals = false;
      lastOptional?.();
      lastOptional = undefined;
      continue;
    }
    if (/comment|keyword_separator|positional_separator|attribute/.test(p.type)) continue;
    // Kotlin `vararg x: T`: the modifiers are the parameter's preceding sibling.
    if (p.type === "parameter_modifiers") {
      if (/\bvararg\b/.test(p.text)) variadicNext = true;
      continue;
    }
    const text = p.text;
    const nameNode = p.childForFieldName("name") ?? p.childForFieldName("pattern") ??
      declaratorName(p.childForFieldName("declarator"));
    if (first) {
      first = false;
      // C# `static M(this Foo x, ...)`: an extension method of Foo.
      const mods = p.namedChildren.filter((c) => c?.type === "modifier").map((c) => c!.text);
      const type = p.childForFieldName("type");
      if (mods.includes("this") && type) receiver = valueType(type.text, spec) || undefined;
      // Rust `&mut self`, `&'a self`, `mut self`: the receiver too.
      const selfName = nameNode
        ? nameNode.text
        : text.replace(/^&\s*('\w+\s+)?/, "").replace(/^mut\s+/, "").split(/[:\s]/)[0];
      if (spec.selfNames.includes(selfName) && !/^this\s/.test(text)) continue; // bound by the receiver
    }
    const name = nameNode?.text ?? text.match(/^[*&.\s]*([A-Za-z_$][\w$]*)/)?.[1];
    if (name && /^[A-Za-z_$][\w$]*$/.test(name)) names.push(name);
    const modifiers = p.namedChildren.find((c) => c?.type === "parameter_modifiers")?.text ?? "";
    if (
      variadicNext || /\bvararg\b/.test(modifiers) ||
      /splat|spread|variadic|rest_pattern|dictionary/.test(p.type) || /^\*|\.\.\./.test(text)
    ) {
      variadicNext = false;
      max = -1;
      // Its element type, marked `...` (`params object[] a`, `vararg a: T`, `T... a`).
      const elem = declaredType(p);
      types.push(elem ? `${paramType(elem.text, spec).replace(/\[\]$/, "")}...` : "");
      continue;
    }
    const declared = declaredType(p);
    types.push(declared ? paramType(declared.text, spec) + declaratorMark(p, declared) : "");
    if (max >= 0) max++;
    const optional = /default|optional/.test(p.type) || p.childForFieldName("value") !== null ||
      p.childForFieldName("default_value") !== null || /\?\s*:/.test(text) || /=/.test(text);
    if (!optional) {
      required++;
      lastOptional = () => required--;
    } else lastOptional = undefined;
  }
  return { range: [required, max], types, names, ...(receiver ? { receiver } : {}) };
}

/** A parameter's declared type node, if written. */
function declaredType(p: Node): Node | null | undefined {
  return p.childForFieldName("type") ??
    p.namedChildren.find((c) =>
      c !== null && /type$/.test(c.type) && c.type !== "parameter_modifiers"
    );
}

/**
 * What a C/C++ parameter's declarator adds to its type for overload choice: a pointer to `char`
 * (`char*`) or an array of it (`char[]`, which binds a literal but no pointer) is a C string,
 * `T&&` binds only temporaries.
 */
function declaratorMark(param: Node, declared: Node): string {
  const d = param.childForFieldName("declarator");
  if (!d) return "";
  if (d.type === "reference_declarator" && d.text.startsWith("&&")) return "&&";
  if (declared.text !== "char") return "";
  let inner: Node | null = d;
  while (inner && /^(reference_declarator|parenthesized_declarator)$/.test(inner.type)) {
    inner = inner.namedChild(0);
  }
  if (inner?.type === "array_declarator") return "[]";
  return inner && /pointer_declarator/.test(inner.type) ? "*" : "";
}

/** A C++ member function declared `const` (`int size() const`): callable on a const object. */
function constQualified(node: Node): boolean {
  let d = node.childForFieldName("declarator");
  for (let i = 0; d && d.type !== "function_declarator" && i < 4; i++) {
    d = d.childForFieldName("declarator") ?? d.namedChild(0);
  }
  return !!d && d.namedChildren.some((n) => n?.type === "type_qualifier" && n.text === "const");
}

/** The name a C/C++ declarator declares: `*e`, `&e`, `e[3]`, `(*f)(int)` -> e, f. */
function declaratorName(node: Node | null): Node | null {
  for (let n = node, i = 0; n && i < 8; i++) {
    if (n.type === "identifier" || n.type === "field_identifier") return n;
    n = n.childForFieldName("declarator") ?? n.namedChildren.find((c) =>
      c?.type === "identifier"
    ) ??
      null;
  }
  return null;
}

function parameterList(node: Node, depth: number): Node | undefined {
  const direct = node.childForFieldName("parameters");
  if (direct) return direct;
  if (depth > 2) return undefined;
  for (const child of node.namedChildren) {
    if (!child || child.type === "block" || /body|statement_block/.test(child.type)) continue;
    if (
      /^(parameters|parameter_list|formal_parameters|function_value_parameters)$/.test(child.type)
    ) {
      return child;
    }
    if (/declarator|function_type|lambda/.test(child.type)) {
      const inner = parameterList(child, depth + 1);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** Generic parameters of a definition: `<T, K extends X>` -> T, K. */
function typeParamsOf(node: Node): { names: string[]; bounds: Record<string, string> } | undefined {
  // C++ `template <typename T, class U = int, int N>` wraps the definition: T and U are types.
  if (node.parent?.type === "template_declaration") {
    const names: string[] = [];
    for (const p of node.parent.childForFieldName("parameters")?.namedChildren ?? []) {
      if (!p || !/type_parameter_declaration$/.test(p.type)) continue;
      const name = p.childForFieldName("name") ??
        p.namedChildren.find((c) => c?.type === "type_identifier");
      if (name) names.push(name.text);
    }
    return names.length ? { names, bounds: {} } : undefined;
  }
  const list = node.childForFieldName("type_parameters") ??
    node.namedChildren.find((c) => c?.type === "type_parameters");
  if (!list) return undefined;
  const names: string[] = [];
  const bounds: Record<string, string> = {};
  for (const p of list.namedChildren) {
    const m = p?.text.match(/^\s*([\w$]+)(?:\s*(?:extends|:)\s*([\w$.]+))?/);
    if (!m) continue;
    names.push(m[1]);
    // `B extends Builder<T, B>`, `T: Trait`: members of a T are the bound's (erasure).
    if (m[2]) bounds[m[1]] = typeName(m[2]);
  }
  // Rust `where D: Distribution<T>, R: Rng + ?Sized`: bounds written after the signature.
  const where = node.namedChildren.find((c) => c?.type === "where_clause");
  for (const p of where?.namedChildren ?? []) {
    const m = p?.text.match(/^\s*([\w$]+)\s*:\s*(?:\?Sized\s*\+\s*)?([\w$.:]+)/);
    if (m && names.includes(m[1]) && !bounds[m[1]]) bounds[m[1]] = typeName(m[2]);
  }
  // C# `where T : IFoo, new()`: the first type constraint is the bound.
  for (const clause of node.namedChildren) {
    if (clause?.type !== "type_parameter_constraints_clause") continue;
    const param = clause.namedChildren[0]?.text;
    const bound = clause.namedChildren.find((c) =>
      c?.type === "type_parameter_constraint" &&
      /^(identifier|generic_name|qualified_name)$/.test(c.namedChildren[0]?.type ?? "")
    );
    if (param && bound && names.includes(param)) bounds[param] ??= typeName(bound.text);
  }
  return names.length ? { names, bounds } : undefined;
}

/**
 * Arguments of a call when they can be counted (no spread, splat or block pass), each with the
 * static type the call site shows (see CallFact.argTypes).
 */
function argsOf(node: Node, typed: boolean): (string[] & { names: string[] }) | undefined {
  let list = node.childForFieldName("arguments");
  let trailing = 0;
  if (!list) {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (/^(arguments|argument_list|value_arguments)$/.test(child.type)) list = child;
      // C++'s most vexing parse: `Slice key(data, n);` reads as a function declarator.
      else if (node.type === "function_declarator" && child.type === "parameter_list") {
        list = child;
      } else if (child.type === "call_suffix") {
        list = child.namedChildren.find((x) => x?.type === "value_arguments") ?? null;
        // Kotlin `f(a) { ... }`: the trailing lambda is one more argument.
        if (child.namedChildren.some((x) => x?.type === "annotated_lambda")) trailing = 1;
      }
      if (list) break;
    }
  }
  if (!list) return undefined;
  const out: string[] = [];
  const names: string[] = [];
  let named = false;
  // Each `.type` and `.text` of a node is a call into the parser: read each once.
  for (const raw of list.namedChildren) {
    if (!raw) continue;
    const rawType = raw.type;
    if (rawType.includes("comment")) continue;
    if (/splat|spread|block_argument|variadic/.test(rawType)) return undefined;
    // `argument` / `value_argument` wrap the expression (and a name: `f(x = 1)`, `F(x: 1)`, or a
    // spread: Kotlin `f(*xs)`).
    const wrapped = rawType === "argument" || rawType === "value_argument";
    let a = raw;
    let aType = rawType;
    if (wrapped) {
      const inner = raw.namedChildren;
      a = inner[inner.length - 1] ?? raw;
      aType = a.type;
      const head = raw.text.slice(0, a.startIndex - raw.startIndex);
      if (/^\s*\*/.test(head)) {
        // Kotlin `f(format, *args)`: the array spread into a vararg parameter, written `*`.
        if (!typed) return undefined;
        out.push("*");
        names.push("");
        continue;
      }
      if (inner.length > 1 && /=|:/.test(head)) named = true;
      // A named argument's parameter name (`buffered: false`, `modifiers = x`).
      const name = named ? inner[0]?.text.trim() ?? "" : "";
      names.push(/^[A-Za-z_][\w]*$/.test(name) ? name : named ? "?" : "");
    } else names.push(named ? "?" : "");
    if (aType === "parameter_declaration") {
      // A vexing parse's "parameter" is an argument: a name (`data`, `NodeType::Map`) or a type.
      out.push(
        a.namedChildCount === 1 && a.text.length <= 80 ? `=${normalizeReceiver(a.text)}` : "",
      );
      continue;
    }
    // Only overload choice reads literal types; a bare name may be a function passed as a value.
    out.push(named ? "" : typed ? argType(a, aType) : bareName(a, aType));
  }
  // A trailing lambda (Kotlin `f(a) { ... }`) is passed to the last parameter, named `^` here.
  for (let i = 0; i < trailing; i++) out.push(typed ? "λ" : "");
  for (let i = 0; i < trailing; i++) names.push(typed ? "^" : "");
  return Object.assign(out, { names });
}

/** Explicit type arguments of a call (`M<int, string>(...)`, Kotlin `f<Int>()`), if written. */
function typeArgCount(call: Node, name: Node): number | undefined {
  let list = name.parent?.type === "generic_name"
    ? name.parent.namedChildren.find((c) => c?.type === "type_argument_list")
    : undefined;
  if (!list && contains(call, name)) {
    const suffix = call.namedChildren.find((c) => c?.type === "call_suffix");
    list = suffix?.namedChildren.find((c) => c?.type === "type_arguments");
  }
  return list ? list.namedChildren.filter((c) => c && !/comment/.test(c.type)).length : undefined;
}

/** `=name` for an argument that is a bare name, else "". */
function bareName(a: Node, t: string): string {
  if (t !== "identifier") return "";
  const text = a.text;
  return text.length <= 80 ? `=${text}` : "";
}

/** The static type an argument shows: a literal's, a constructed type, `=name` for a variable. */
function argType(a: Node, t: string = a.type): string {
  if (
    /^(string|string_literal|template_string|interpreted_string_literal|raw_string_literal|text_block|line_string_literal|multi_line_string_literal|verbatim_string_literal|interpolated_string_expression|raw_string_literal)$/
      .test(t)
  ) {
    return "String";
  }
  // `Foo::class` (Kotlin): a class literal.
  if (/^[\w$.]+\s*::\s*class$/.test(a.text)) return "KClass";
  // A lambda: a value of a function type (LanguageSpec.functionTypes), written `λ`.
  if (/^(lambda_expression|anonymous_method_expression|lambda_literal|annotated_lambda)$/.test(t)) {
    return "λ";
  }
  if (t === "real_literal") return /[fF]$/.test(a.text) ? "float" : "double";
  if (t === "number_literal") return /[.eE]/.test(a.text) ? "double" : "int";
  if (t === "concatenated_string") return "String";
  if (t === "character_literal" || t === "char_literal") return "char";
  if (t === "nullptr") return "null";
  // `&x`, `*p` (C, C++): the object's own type, as parameter types are read (pointers erased).
  if (t === "pointer_expression") {
    const arg = a.childForFieldName("argument");
    return arg && /^(identifier|field_expression|this)$/.test(arg.type) && arg.text.length <= 80
      ? `=${normalizeReceiver(arg.text)}`
      : "";
  }
  // Rust `a..b` / `a..=b`: std's Range / RangeInclusive (picks `impl TryFrom<Range<X>>`).
  if (t === "range_expression") return a.text.includes("..=") ? "RangeInclusive" : "Range";
  if (/integer|int_literal/.test(t)) return /[lL]$/.test(a.text) ? "long" : "int";
  if (/floating|float|decimal_floating/.test(t)) return /[fF]$/.test(a.text) ? "float" : "double";
  if (t === "true" || t === "false" || t === "boolean_literal") return "boolean";
  if (t === "null_literal" || t === "null" || t === "none") return "null";
  if (/object_creation_expression|new_expression/.test(t)) {
    const type = a.childForFieldName("type") ?? a.childForFieldName("constructor");
    return type ? typeName(type.text) : "";
  }
  // `c ? "a" : "b"`: the type both branches show.
  if (t === "conditional_expression") {
    const yes = a.childForFieldName("consequence");
    const no = a.childForFieldName("alternative");
    const both = yes && no ? [argType(yes), argType(no)] : [];
    return both.length && both[0] === both[1] && !both[0].startsWith("=") ? both[0] : "";
  }
  if (t === "cast_expression") {
    const type = a.childForFieldName("type");
    return type ? typeName(type.text) : "";
  }
  if (
    /^(identifier|field_access|field_expression|member_expression|navigation_expression|member_access_expression)$/
      .test(t)
  ) {
    return a.text.length <= 80 ? `=${normalizeReceiver(a.text)}` : "";
  }
  // `static_cast<T>(x)` (C++): the cast's type.
  const fn = t === "call_expression" ? a.childForFieldName("function") : null;
  if (fn?.type === "template_function" && /_cast$/.test(fn.childForFieldName("name")?.text ?? "")) {
    const type = fn.childForFieldName("arguments")?.namedChild(0);
    return type ? typeName(type.text) : "";
  }
  // A call's value: typed on demand from the callee's declared return type.
  if (/^(method_invocation|call_expression|call|invocation_expression)$/.test(t)) {
    return a.text.length <= 80 && !a.text.includes("\n") ? `=${normalizeCallee(a.text)}` : "";
  }
  return "";
}

/** The declared return type of a function, unwrapped to the type a call's value has. */
function returnTypeOf(node: Node, spec: LanguageSpec): string | undefined {
  for (const field of spec.returnFields ?? ["return_type"]) {
    // `+parameters`: the type written right after the parameter list (Kotlin `fun f(): T`).
    const t = field === "+parameters" ? afterParameters(node) : node.childForFieldName(field);
    if (t) return valueType(t.text, spec) || undefined;
  }
  return undefined;
}

function afterParameters(node: Node): Node | undefined {
  const list = parameterList(node, 0);
  if (!list) return undefined;
  for (let n = list.nextNamedSibling; n; n = n.nextNamedSibling) {
    if (/type$/.test(n.type)) return n;
    if (/body|block/.test(n.type)) return undefined;
  }
  return undefined;
}

/**
 * The type a value of a written type has for member lookup: `Optional[X]`, `X | None`,
 * `Promise<X>`, `X?` -> `X`; anything else to its bare name.
 */
export function valueType(text: string, spec: LanguageSpec): string {
  let t = text.trim().replace(/^(:|->)\s*/, "").trim();
  // Several results (`(T, error)`, `(n int, err error)`): a call's value is the first.
  if (t.startsWith("(") && t.endsWith(")")) {
    const first = splitTop(t.slice(1, -1), ",")[0].trim();
    t = first.includes(" ") ? first.slice(first.lastIndexOf(" ") + 1) : first;
  }
  for (let i = 0; i < 4; i++) {
    const parts = splitTop(t, "|").map((p) => p.trim()).filter((p) =>
      p && !(spec.nullTypes ?? ["None", "null", "undefined", "nil"]).includes(p)
    );
    if (parts.length === 1) t = parts[0];
    else return "";
    const m = t.match(/^([\w.$]+)\s*[[<]([\s\S]*)[\]>]$/);
    const wrapper = m?.[1].split(".").pop();
    if (m && wrapper && (spec.typeWrappers ?? []).includes(wrapper)) {
      t = splitTop(m[2], ",")[0].trim();
      continue;
    }
    break;
  }
  if (/^["'(]/.test(t)) t = t.replace(/^["']|["']$/g, "");
  return typeName(t);
}

/** A parameter's type for overload choice: as valueType, keeping its type arguments (`IRequest<T>`). */
function paramType(text: string, spec: LanguageSpec): string {
  // Kotlin `(T) -> Unit`, `T.() -> Unit`: a function type.
  if (/^[^<]*->/.test(text.replace(/^[\s(]*suspend\s+/, ""))) return "λ";
  const bare = valueType(text, spec);
  const generic = text.trim().match(/^([\w.$]+)\s*(<[\s\S]*>)\??$/);
  return generic && bare && generic[1].split(".").pop() === bare ? `${bare}${generic[2]}` : bare;
}

/** Splits on a separator outside brackets. */
function splitTop(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === "[" || ch === "<" || ch === "(" || ch === "{") depth++;
    else if (ch === "]" || ch === ">" || ch === ")" || ch === "}") depth--;
    else if (depth === 0 && text.startsWith(sep, i)) {
      out.push(text.slice(start, i));
      start = i + sep.length;
    }
  }
  out.push(text.slice(start));
  return out;
}

/** An expression's text on one line, without arguments' whitespace noise. */
function compactExpr(text: string): string {
  const t = text.replace(/\s+/g, " ").trim();
  return t.length > 200 ? "" : t;
}

function row(node: Node): number {
  return node.startPosition.row + 1;
}

function contains(outer: Node, inner: Node): boolean {
  return outer.startIndex <= inner.startIndex && inner.endIndex <= outer.endIndex &&
    outer.id !== inner.id;
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

/** Identifier text without quoting or backticks (Kotlin `fun \`x y\`()`). */
function cleanName(text: string): string {
  // `:name` (a Ruby symbol naming a method: attr_reader, alias_method).
  return text.trim().replace(/^:(?=[A-Za-z_])/, "").replace(/^[`'"]|[`'"]$/g, "");
}

/** Bare type name from a written type: `pkg.Foo<T>` / `*Foo` / `&mut a::Foo` / `Foo?` -> `Foo`. */
export function typeName(text: string): string {
  let t = text.trim();
  // `Foo[]` stays an array (no member of Foo); `List[int]`, `Foo<T>` and `f(x)` lose their tails.
  t = t.replace(/<[\s\S]*>$/, "").replace(/\[[^\]][\s\S]*\]$/, "").replace(/\([\s\S]*\)$/, "");
  t = t.replace(/^[*&\s]+|^mut\s+|^const\s+|[?!*&\s]+$/g, "").replace(/^'\w+\s+/, "") // `&'a T`
    .replace(/^(mut|dyn|impl)\s+/, "");
  const parts = t.split(/::|\.|\\/);
  return cleanName(parts[parts.length - 1] ?? t);
}

/** A call's text with its callee written as a dotted receiver (`p->f(x)` -> `p.f(x)`). */
function normalizeCallee(text: string): string {
  const open = text.indexOf("(");
  return open < 0 ? text : normalizeReceiver(text.slice(0, open)) + text.slice(open);
}

/** A type as written with its qualifier (`A.B<T>?` -> `A.B`, `kotlin.String` stays). */
function qualifiedType(text: string): string {
  const t = text.trim().replace(/<[\s\S]*>/g, "").replace(/[?!\s]+/g, "");
  // A package prefix is no part of the type's name (`kotlin.reflect.KClass` -> `KClass`).
  return /^[\w$.]+$/.test(t) ? t.replace(/^([a-z_][\w$]*\.)+(?=[A-Z])/, "") : typeName(text);
}

/** `self .foo` / `this?.x` / `a::b` written with spaces: a compact dotted receiver. */
function normalizeReceiver(text: string): string {
  return text.replace(/\s*(\?\.|\.|::|->)\s*/g, ".").replace(/\s+/g, " ").trim();
}

function unquote(text: string): string {
  return text.trim().replace(/^[`'"<]+|[`'">]+$/g, "");
}

function signatureOf(node: Node): string {
  const body = node.childForFieldName("body");
  const end = body ? body.startIndex - node.startIndex : node.text.length;
  const head = node.text.slice(0, Math.max(0, end));
  const firstLines = head.length > MAX_SIGNATURE * 2 ? head.slice(0, MAX_SIGNATURE * 2) : head;
  const compact = firstLines.replace(/\s+/g, " ").trim().replace(/[{:=]\s*$/, "").trim();
  return compact.length > MAX_SIGNATURE ? compact.slice(0, MAX_SIGNATURE - 1) + "…" : compact;
}

function docstringOf(node: Node): string {
  const body = node.childForFieldName("body");
  const first = body?.namedChild(0);
  if (!first || first.type !== "expression_statement") return "";
  const str = first.namedChild(0);
  if (!str || str.type !== "string") return "";
  return trimDoc(str.text.replace(/^[rRuUbB]*("""|'''|"|')/, "").replace(/("""|'''|"|')$/, ""));
}

/** The statement that only wraps this definition (spec.definitionWrappers), else the node. */
function wrapperOf(node: Node, spec: LanguageSpec): Node {
  const wrappers = spec.definitionWrappers;
  if (!wrappers) return node;
  let n = node;
  for (let p = n.parent; p && wrappers.includes(p.type) && p.namedChildCount === 1; p = n.parent) {
    n = p;
  }
  return n;
}

function commentDocOf(node: Node): string {
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
  const text = lines.join("\n")
    .replace(/^\s*\/\*+|\*+\/\s*$/gm, "")
    .replace(/^\s*(\/\/\/?|#|\*(?!\/))\s?/gm, "");
  return trimDoc(text);
}

function trimDoc(text: string): string {
  const t = text.split("\n").map((l) => l.trim()).join("\n").trim();
  return t.length > MAX_DOC ? t.slice(0, MAX_DOC - 1) + "…" : t;
}

function countErrors(root: Node): number {
  // The cursor must be deleted explicitly: web-tree-sitter's finalizer for a collected cursor
  // frees through the tree's address, which corrupts wasm memory once the tree is gone.
  const cursor = root.walk();
  try {
    return countWith(cursor);
  } finally {
    cursor.delete();
  }
}

/** The three largest ERROR regions (outermost ones), as 1-based line ranges, in line order. */
function errorRegions(root: Node): [number, number][] {
  const found: [number, number][] = [];
  const cursor = root.walk();
  try {
    let more = true;
    while (more) {
      const node = cursor.currentNode;
      if (node.isError) found.push([node.startPosition.row + 1, node.endPosition.row + 1]);
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
  return found.sort((a, b) => (b[1] - b[0]) - (a[1] - a[0])).slice(0, 3).sort((a, b) =>
    a[0] - b[0]
  );
}

function countWith(cursor: ReturnType<Node["walk"]>): number {
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
function typeOnlyImport(node: Node, spec: LanguageSpec): boolean {
  if (spec.typeOnlyImport?.test(node.text)) return true;
  if (!spec.typeOnlyGuard) return false;
  for (let a = node.parent; a; a = a.parent) {
    const condition = a.childForFieldName("condition");
    if (condition && spec.typeOnlyGuard.test(condition.text)) return true;
  }
  return false;
}
