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
  inheritNodes: { node: Node; relation: InheritFact["relation"]; hooked: boolean }[];
  hintNodes: HintNode[];
  pkg?: string;
  defaultExport?: string;
  skipped: Set<number>;
  decorators: Node[];
  returned: Node[];
}

export interface HintNode {
  at: Node;
  variable: Node;
  type?: Node;
  value?: Node;
}

/** The definitions, calls, imports, bases and hints the query's matches capture. */
export function gather(spec: LanguageSpec, query: Query, root: Node): Gathered {
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

function ownerOf(owner: Node | undefined): { owner?: string; ownerWritten?: string } {
  return owner ? { owner: typeName(owner.text), ownerWritten: qualifiedType(owner.text) } : {};
}
