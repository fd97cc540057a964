/**
 * The first step of the analyzer: what a file's query matches capture (definitions, impl scopes,
 * calls, imports, bases, hints, the package and default export), read off the captures by name.
 */
import type { Node, Query } from "web-tree-sitter";
import type { LanguageSpec } from "../../lang/spec.ts";
import type { ImportFact, InheritFact, SymbolKind } from "../../graph/facts.ts";
import { cleanName, qualifiedType, typeName, unquote } from "./text.ts";
import { typeOnlyImport, wrapperOf } from "./nodes.ts";

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
export interface Container {
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

/** A call as the matches found it, before its facts are read off its nodes. */
export interface PendingCall {
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
export interface Gathered {
  containers: Container[];
  calls: Map<number, PendingCall>;
  imports: ImportFact[];
  importNodes: Node[];
  /**
   * Bases as written; `at`, when the base is named away from the definition it is a base of
   * (`@inherit.at`: an enum constant's body extends the enum named above it).
   */
  inheritNodes: { node: Node; relation: InheritFact["relation"]; hooked: boolean; at?: Node }[];
  hintNodes: HintNode[];
  pkg?: string;
  defaultExport?: string;
  skipped: Set<number>;
  decorators: Node[];
  returned: Node[];
  /** Comments that state imports (`@doc.imports`, LanguageSpec.docImports). */
  docComments: Node[];
}

export interface HintNode {
  at: Node;
  variable: Node;
  type?: Node;
  value?: Node;
  /** The property the variable is read from (`@hint.field`: destructuring `{ gen } = cxt`). */
  field?: Node;
  /**
   * The type of this file the variable is a field of, wherever it is written (`@hint.owner`:
   * `Compiler.prototype.push = push` gives Compiler a field `push`).
   */
  owner?: Node;
  /** The variable holds an element of the value (`@hint.element`: `for (const u of users)`). */
  element?: boolean;
}

/** The definitions, calls, imports, bases and hints the query's matches capture. */
export function gather(spec: LanguageSpec, query: Query, root: Node): Gathered {
  const g: Gathered = {
    containers: [],
    calls: new Map(),
    imports: [],
    importNodes: [],
    inheritNodes: [],
    hintNodes: [],
    pkg: undefined,
    defaultExport: undefined,
    skipped: new Set(),
    decorators: [],
    returned: [],
    docComments: [],
  };
  const file: FileReading = { g, spec, seenDefs: new Set() };
  for (const match of query.matches(root)) {
    const byName = new Map<string, Node>();
    for (const c of match.captures) if (!byName.has(c.name)) byName.set(c.name, c.node);
    for (const c of match.captures) take(file, c.name, c.node, byName);
  }
  return g;
}

/** What gather keeps while it reads one file's matches. */
interface FileReading {
  g: Gathered;
  spec: LanguageSpec;
  /** The nodes of the definitions taken so far. */
  seenDefs: Set<number>;
}

/**
 * What one capture of a match says, added to `g`. (A function of its own: the match loop stays
 * small, and each kind of capture is compiled when it is hot, not all of them into the loop.)
 */
function take(file: FileReading, name: string, node: Node, byName: Map<string, Node>): void {
  const g = file.g;
  if (name === "definition.skip") g.skipped.add(node.id);
  else if (name === "decorator") g.decorators.push(node);
  else if (name === "return.value") g.returned.push(node);
  else if (name === "doc.imports") g.docComments.push(node);
  else if (name.startsWith("definition.") || name === "scope.impl") {
    container(file, name, node, byName);
  } else if (
    name === "reference.call" || name === "reference.new" || name === "reference.super" ||
    name === "reference.operator" || name === "reference.range"
  ) {
    call(g, name, node, byName);
  } else if (name === "import") importOf(g, file.spec, node, byName);
  else if (name.startsWith("reference.")) {
    const relation = name.slice("reference.".length);
    if (relation === "extends" || relation === "implements" || relation === "inherits") {
      const at = byName.get("inherit.at");
      g.inheritNodes.push({ node, relation, hooked: byName.has("hooked"), ...(at ? { at } : {}) });
    }
  } else if (name === "hint") {
    const variable = byName.get("hint.var");
    const type = byName.get("hint.type");
    const value = byName.get("hint.value");
    const field = byName.get("hint.field");
    const owner = byName.get("hint.owner");
    if (variable && (type || value)) {
      g.hintNodes.push({
        at: node,
        variable,
        type,
        value,
        ...(field ? { field } : {}),
        ...(owner ? { owner } : {}),
        ...(byName.has("hint.element") ? { element: true } : {}),
      });
    }
  } else if (name === "package") g.pkg ??= node.text.trim();
  else if (name === "export.default") g.defaultExport ??= cleanName(node.text);
}

/** A definition (`definition.*`) or an impl scope (`scope.impl`). */
function container(
  file: FileReading,
  name: string,
  node: Node,
  byName: Map<string, Node>,
): void {
  const { g, spec, seenDefs } = file;
  const kind = KIND_BY_CAPTURE[name];
  // `@qualified`: a scoped name (`ns::Cart::add`) whose last name is the definition's and the
  // scope just before it its owner.
  const qualified = byName.get("qualified");
  const scoped = qualified && kind ? splitScoped(qualified) : undefined;
  const nameNode = scoped?.name ?? byName.get("name");
  if (!nameNode) return;
  if (!kind) {
    if (name === "scope.impl") {
      g.containers.push({ node, nameNode, name: typeName(nameNode.text), kind: "impl" });
    }
    return;
  }
  const at = wrapperOf(node, spec);
  if (seenDefs.has(at.id)) {
    // A second pattern marking the same definition class-level (`class << self` bodies).
    if (byName.has("static")) {
      const seen = g.containers.find((x) => x.node.id === at.id);
      if (seen) seen.static = true;
    }
    return;
  }
  seenDefs.add(at.id);
  const c: Container = { node: at, nameNode, name: cleanName(nameNode.text), kind };
  const owner = scoped?.scope ?? byName.get("owner");
  if (owner) {
    c.owner = typeName(owner.text);
    c.ownerWritten = qualifiedType(owner.text);
  }
  if (name === "definition.macro") c.macro = true;
  if (byName.has("static")) c.static = true;
  if (name === "definition.alias") c.alias = true;
  if (name === "definition.expansion") c.expansion = true;
  g.containers.push(c);
}

/** A call, a construction, a super call, an operator or a range. */
function call(g: Gathered, name: string, node: Node, byName: Map<string, Node>): void {
  const nameNode = byName.get("name");
  if (!nameNode) return;
  const prev = g.calls.get(node.id);
  const receiver = byName.get("receiver") ?? byName.get("receiver.value");
  // Several patterns may match one call; keep the most specific (the one with a receiver).
  if (prev && (prev.receiver || !receiver)) return;
  const pending: PendingCall = {
    node,
    name: nameNode,
    receiver,
    method: byName.has("receiver.value") || undefined,
    isNew: name === "reference.new" || name === "reference.super",
    delegate: name === "reference.super",
  };
  if (name === "reference.operator") pending.operator = true;
  if (name === "reference.range") pending.range = true;
  g.calls.set(node.id, pending);
}

/** An import. */
function importOf(g: Gathered, spec: LanguageSpec, node: Node, byName: Map<string, Node>): void {
  const source = byName.get("import.source");
  if (!source) return;
  const name = byName.get("import.name");
  const alias = byName.get("import.alias");
  let imp: ImportFact = {
    source: unquote(source.text),
    name: name ? cleanName(name.text) : undefined,
    alias: alias ? cleanName(alias.text) : undefined,
    wildcard: byName.has("import.wildcard") || undefined,
    line: node.startPosition.row + 1,
  };
  if (spec.normalizeImport) imp = spec.normalizeImport(imp);
  if (typeOnlyImport(node, spec)) imp.typeOnly = true;
  g.imports.push(imp);
  g.importNodes.push(node);
}

/** The last name of a scoped name node and the scope just before it. */
function splitScoped(node: Node): { name: Node; scope?: Node } {
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
