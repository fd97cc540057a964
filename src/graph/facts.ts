/**
 * What one source file says, independent of every other file: the output of the analyzer and the
 * input of call resolution. Plain data (structured-cloneable), so it crosses worker boundaries and
 * can be cached as JSON between incremental runs.
 */

export const SYMBOL_KINDS = [
  "Function",
  "Method",
  "Class",
  "Interface",
  "Struct",
  "Enum",
  "Trait",
  "Module",
] as const;
export type SymbolKind = typeof SYMBOL_KINDS[number];

/** Kinds that can own methods and take part in inheritance. */
export const TYPE_KINDS: ReadonlySet<SymbolKind> = new Set(
  SYMBOL_KINDS.filter((k) => k !== "Function" && k !== "Method"),
);

export interface DefFact {
  name: string;
  kind: SymbolKind;
  /** Container chain inside the file, without the module prefix: `Class.method`. */
  local: string;
  line: number;
  endLine: number;
  signature: string;
  doc: string;
  /** Index of the enclosing definition in `defs`, or -1 at file top level. */
  parent: number;
  /** Owner type named outside the definition (Go receiver, Rust impl), when not a parent here. */
  owner?: string;
  /** Parameters a call must pass: [required, maximum] (maximum -1 = variadic). */
  params?: [number, number];
  /** Declared return type (bare name, wrappers like Optional/Promise removed). */
  returns?: string;
  /** Declared parameter types (bare names, "" when not written), for overload choice. */
  paramTypes?: string[];
  /** A name the definition returns (`return inner`): `make()()` calls it. */
  returnsValue?: string;
  /** Parameter names: a local name a call may use (`fn()`), never a repository function's. */
  paramNames?: string[];
  /** Names of its generic type parameters (`T`, `K`): types that are no repository types. */
  typeParams?: string[];
  /** A function-like macro (C, C++): a call to it is a call of what its body calls. */
  macro?: boolean;
  /**
   * A class-level method (Ruby `def self.x`, a method in `class << self`; tags.scm's `@static`):
   * `Const.x` reaches it before an instance method of the same name, a value's `v.x` after.
   */
  static?: boolean;
  /** A type alias (`using Ptr = Node;`, `typedef Foo Bar;`): it is constructed as its target. */
  alias?: boolean;
  /** A C++ member function declared `const`: the overload a const object calls. */
  constant?: boolean;
  /**
   * A macro invoked where declarations stand (`DEFINE_CONVERT(int);`): the site of what the
   * expansion defines, whose calls are the macro's. No name reaches it.
   */
  expansion?: boolean;
  /** Declared bounds of generic parameters (`B extends Builder<B>` -> B: Builder). */
  typeBounds?: Record<string, string>;
  /**
   * An extension's receiver type (C# `M(this Foo x)`, Kotlin `fun Foo.m()`): `foo.m()` on a value
   * of that type reaches it where it is visible and no member applies.
   */
  receiverType?: string;
  /** The receiver is the first declared parameter (C#): `x.M(a)` passes `x` as it. */
  receiverParam?: boolean;
}

export interface CallFact {
  /** Index of the enclosing named definition, or -1 for file top level. */
  from: number;
  name: string;
  /** Receiver or qualifier text (`self`, `obj`, `pkg`, `a.b`, `Type`), absent for a bare call. */
  receiver?: string;
  /**
   * The receiver is a value (Rust `x.m()`, tags.scm's `@receiver.value`), never a module or type
   * path: the call reaches a method, not a function of a module named like the value.
   */
  method?: boolean;
  line: number;
  /**
   * A bare call inside a lambda that runs with a value as its receiver (Kotlin `x.apply { m() }`):
   * that value's expression, whose members and extensions the call tries first.
   */
  implicit?: string;
  /** `new Foo()` and the like: the name is a type. */
  isNew?: boolean;
  /** `super(...)`, `this(...)`, `base(...)`: runs a constructor without creating an object. */
  delegate?: boolean;
  /**
   * An operator expression (`a << b`, `!x`, `v[i]`) as a call of the operator function: a member
   * of the receiver's type, or a free function taking the receiver and the arguments.
   */
  operator?: boolean;
  /** Parameter names of named arguments by position ("" positional), when any is named. */
  argNames?: string[];
  /** Number of explicit type arguments (`Query<int>(...)`: 1), when written. */
  typeArgs?: number;
  /** Number of arguments, when every one is a plain argument (no spread/splat). */
  args?: number;
  /**
   * What each argument's static type is where the call shows it: a literal's type (`String`,
   * `int`, `char`, `boolean`, `null`), a constructed type, or `=name` for a variable; "" unknown.
   */
  argTypes?: string[];
}

export interface ImportFact {
  /** Module path as written: `a.b`, `./x`, `fmt`, `crate::a::b`, `x.h`. */
  source: string;
  /** Imported symbol name; absent when the module itself is imported. */
  name?: string;
  /** Local name the import binds. */
  alias?: string;
  /** `import a.*`, `using A;`, `#include`, `from x import *`, `require`: all names of the module. */
  wildcard?: boolean;
  line: number;
  /**
   * Needed for types only or deferred: `import type`, under `if TYPE_CHECKING:`, inside a function.
   * Such an import does not run when its file loads: cycles leave it out by default.
   */
  typeOnly?: boolean;
}

export interface InheritFact {
  /** Index of the inheriting definition (class, struct, ...). */
  from: number;
  /** Type name as written, possibly qualified (`a.B`, `pkg::Trait`). */
  name: string;
  /** `inherits` means: extends a class, implements an interface; decided by the target's kind. */
  relation: "extends" | "implements" | "inherits";
  /** For Rust `impl Trait for Type` the implementer is a named type, not a local definition. */
  ownerName?: string;
  /**
   * A blanket impl (`impl<R: Rng + ?Sized> Ext for R`, `impl<I> Ext for I where I: Iterator`):
   * the implementer is the impl's own type parameter, and this is its first bound ("" for none).
   * Every type meeting the bound has the trait's methods.
   */
  ownerBound?: string;
  line: number;
}

/** A variable whose type is known locally: `x = Foo()`, `Foo x`, `x: Foo`, `self.x = Foo()`. */
export interface TypeHint {
  /** Definition the variable lives in (-1 = file). Hints on `self.x`/`this.x` are class-wide. */
  scope: number;
  variable: string;
  /** The declared or constructed type; empty when only `expr` is known. */
  type: string;
  /** The declared type's type arguments as written (`List<User> users`: `User`). */
  typeArgs?: string[];
  /** The variable holds this expression's value (`x = make()`, `x = a.b`): typed on demand. */
  expr?: string;
  /**
   * With `type`: the variable holds this field of a value of that type, not the value itself (a
   * destructured parameter, `({ gen }: Cxt)`). A destructured value is an `expr` (`cxt.gen`).
   */
  field?: string;
  /** Line of the declaration or assignment. */
  line?: number;
  /** The variable holds a pointer to a value of the type (C, C++ `Foo* p`, a smart pointer). */
  pointer?: boolean;
  /** Declared `const` (C++ `const Foo& x`): only `const` member functions apply to it. */
  constant?: boolean;
}

export interface FileFacts {
  path: string;
  language: string;
  hash: string;
  lines: number;
  /** Module prefix of qualified names (`pkg.mod`, `com.acme`), possibly empty. */
  module: string;
  /** Declared package / namespace, for same-package resolution (Java, Kotlin, C#, Go dir). */
  package?: string;
  /** The local name the file exports as its default (`export default class X`). */
  defaultExport?: string;
  defs: DefFact[];
  calls: CallFact[];
  imports: ImportFact[];
  inherits: InheritFact[];
  hints: TypeHint[];
  /** Count of ERROR/MISSING nodes tree-sitter recovered from (the rest still indexed). */
  parseErrors: number;
  /** Lines of the largest regions a syntax error swallowed (what is in them is not indexed). */
  errorLines?: [number, number][];
  /**
   * Definitions read past a syntax error that swallowed them (the file read again with its
   * erroneous lines blanked, src/index/analyze/recover.ts).
   */
  recoveredDefs?: number;
  /** Definitions a syntax error still cost outside its own lines (the index summary names them). */
  lostDefs?: number;
  /**
   * Symbol ids and search words per definition, computed once where the file is parsed (in a
   * worker) and cached with the facts, so re-resolving unchanged files never re-hashes them.
   */
  keys?: { id: string; words: string }[];
}
