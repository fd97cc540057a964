/** The resolver's shared vocabulary: confidences, what a call looks like, a file's scope. */
import type { LanguageSpec } from "../../lang/spec.ts";
import type { DefFact, FileFacts, TypeHint } from "../../graph/facts.ts";
import type { Edge, RefNode, SymbolNode } from "../../graph/model.ts";

export const CONF_SCOPE = 1;
export const CONF_TYPED = 0.9;
export const CONF_UNIQUE = 0.7;
export const CONF_UNIQUE_METHOD = 0.5;
export const MAX_DEPTH = 6;

/** What a call looks like to resolution. */
export interface CallShape {
  name: string;
  receiver?: string;
  /** The receiver is a value (CallFact.method): no module or type qualifier. */
  method?: boolean;
  /** The value a lambda around a bare call runs on (CallFact.implicit). */
  implicit?: string;
  isNew?: boolean;
  delegate?: boolean;
  operator?: boolean;
  args?: number;
  argTypes?: string[];
  /** Named arguments' parameter names by position ("" positional), when any is named. */
  argNames?: string[];
  /** Explicit type arguments written at the call (`M<int>()`), which the overload must declare. */
  typeArgs?: number;
}

export interface Found {
  refs: DefRef[];
  confidence: number;
  /** Reached through a function value (alias, field, returned function), not by name. */
  via?: "value";
}

export interface TypeOf {
  type?: DefRef;
  /** The type is known and is not a repository type. */
  known?: boolean;
  /** Its name as written, when known but outside the repository (`String`, `byte[]`). */
  name?: string;
  /** An outside generic type's type arguments as written (`List<User>`: `User`). */
  args?: string[];
  /** Where those arguments are written (the scope and definition their names are read in). */
  argsAt?: [FileScope, number];
}

export interface DefRef {
  file: FileFacts;
  index: number;
  def: DefFact;
  node: RefNode;
}

export interface Binding {
  files: string[];
  /** Imported symbol name; undefined for a module binding. */
  name?: string;
  /** Module path as written: for `import static a.Util.f` its last segment names the owner type. */
  source?: string;
}

export interface FileScope {
  facts: FileFacts;
  spec: LanguageSpec;
  refs: DefRef[];
  /** Children by parent def index (-1 = file top level), by name. */
  children: Map<number, Map<string, DefRef[]>>;
  /** What other files see by simple name: top-level and namespace-level definitions. */
  exports: Map<string, DefRef[]>;
  bindings?: Map<string, Binding[]>;
  hintsByVar?: Map<string, TypeHint[]>;
  wildcards?: string[];
  /** Wildcard imports whose last segment may name a type: its members become visible. */
  wildcardTypes?: { files: string[]; type: string }[];
  importEdges?: Edge[];
}

export interface Resolution {
  /** Symbol nodes per file path. */
  symbols: Map<string, SymbolNode[]>;
  /** Edges per owning file (the file whose facts produced them). */
  edges: Map<string, Edge[]>;
  /** Files whose edges are complete here (all of them unless `only` was given). */
  resolved: Set<string>;
  /** The file a node id (a file's or a definition's) belongs to. */
  pathOf: (id: string) => string | undefined;
  /** Calls whose resolution threw (a bug, reported rather than fatal): `path:line name: error`. */
  failures: string[];
}
