/**
 * A language is data: a grammar, a tree-sitter query file (`tags.scm`) and this small spec.
 *
 * Capture names in `tags.scm` (one shared analyzer reads them for every language):
 *
 * Definitions — the whole node is `@definition.<kind>`, its name `@name`; `@definition.skip` on a
 *   definition node drops it (Python `@overload` stubs: signatures, not definitions):
 *   kinds: function, method, class, interface, struct, enum, trait, module; `alias` is a class
 *   that stands for the type it inherits from (C++ `using It = Base<T>;`: made by its constructors).
 *   A function directly inside a type becomes a method automatically.
 *   `@owner` (optional, inside the match): the owning type's name when it is written outside the
 *   type's body (Go receiver type). `@qualified` instead of `@name` on a scoped name
 *   (`ns::Cart::add`): its last name is the name and the scope before it the owner.
 * Scopes that are not definitions — `@scope.impl` with `@name` (Rust `impl T`, `impl Trait for T`):
 *   methods inside are owned by the named type.
 * Calls — the call node `@reference.call`, the callee's name `@name`, optional `@receiver` (object or
 *   qualifier: `self`, `obj`, `pkg`, `Type`, `a.b`). `@reference.new` for constructor expressions
 *   (`new Foo()`), where `@name` is the type.
 * Inheritance — `@reference.extends`, `@reference.implements`, or `@reference.inherits` (let the
 *   target's kind decide) on the base type's name node, inside the inheriting definition; Rust's
 *   `impl Trait for T` puts `@reference.implements` inside `@scope.impl`.
 * Imports — `@import` on the statement, with `@import.source` (module path), optional
 *   `@import.name` (one imported symbol), `@import.alias` (local name), `@import.wildcard` (any node:
 *   marks a wildcard import).
 * Package — `@package` on the declared package / namespace name (Java, Kotlin, C# file-scoped, Go).
 * Returned functions — `@return.value` on a name a definition returns (`return inner`), so
 *   `make()()` and `h = make(); h()` reach `inner`.
 *   `@hooked` beside `@reference.implements` keeps it only inside a class-level method named in
 *   `mixinHooks` (Ruby's `def self.included(base); base.extend M; end`).
 * Decorators — `@decorator` on a decorator: its calls belong to the scope the decorated
 *   definition is made in (the class for member and parameter decorators).
 * Default export — `@export.default` on the name a file exports as its default (JS/TS).
 * Type hints — `@hint` on the statement, `@hint.var` on the variable (or `self.x` attribute) and
 *   `@hint.type` on the type name (constructor callee, declared type, annotation).
 *
 * Everything a query cannot say (module paths, import resolution) is a function here.
 */
import type { Node } from "web-tree-sitter";
import type { FileFacts, ImportFact } from "../graph/facts.ts";
export type { ImportFact };

/**
 * A package the repository offers other projects under the name they import it by
 * (LanguageSpec.provides): a project importing it depends on this one (src/query/across.ts).
 */
export interface ProvidedPackage {
  /** The name an import uses: `@acme/geo`, `example.com/geo/shapes`, `acme_geo`, `com.acme.geo`. */
  name: string;
  /** Its directory in the repository ("" for the root). */
  dir: string;
  /**
   * What follows the name in an import of something inside it (`/`, `.`, `::`): the package holds
   * every file below `dir`. "" (Go, Java): only the name itself, and only the files in `dir`.
   */
  sep: string;
  /** Languages whose files import it (default: the spec's family). */
  languages?: string[];
}

/** A lambda that runs on a value the call shows (LanguageSpec.scopeLambda). */
export interface ScopeLambda {
  lambda: Node;
  /** The value: the lambda's receiver (`this`) or its one parameter. */
  value: Node;
  as: "this" | "it";
  /** The parameter's name (`it` when none is declared), for `as: "it"`. */
  param?: string;
}

/** What import resolution may look at: the repository's files. */
export interface RepoFiles {
  /** Every indexed path (relative, `/`-separated). */
  has(path: string): boolean;
  /** Files in one directory (not recursive). */
  inDir(dir: string): string[];
  /** Files declaring a package / namespace (from `@package`). */
  inPackage(language: string, pkg: string): string[];
  /** Paths ending with `/suffix` or equal to it. */
  withSuffix(suffix: string): string[];
  /**
   * The text of a project file a language declares in `LanguageSpec.manifests` (`package.json`,
   * `tsconfig.json`), when the index read one at that path.
   */
  read?(path: string): string | undefined;
  /** Paths of the project files read, with this file name (`package.json`), sorted. */
  manifests?(name: string): string[];
}

export interface LanguageSpec {
  /** Stable language id: `python`, `typescript`, `csharp`, ... */
  name: string;
  /** Key of the grammar in grammars/mod.ts. */
  grammar: string;
  /** Lower-case file extensions with the dot. */
  extensions: string[];
  /** Contents of tags.scm. */
  query: string;
  /** Names that mean "this object": `self`, `this`, `cls`. */
  selfNames: string[];
  /** The self name is a pointer (C++ `this`): `*this` is the object, `this == p` compares. */
  selfIsPointer?: boolean;
  /**
   * Variables may hold pointers and be `const` (C, C++): a hint's declarator or type says so
   * (`Foo* p`, `std::unique_ptr<Foo> p`, `new Foo`), and operators on a pointer are its own.
   */
  pointers?: boolean;
  /** A bare call `m()` inside a class may call the class's own method (Java, C#, C++, Kotlin, Ruby). */
  implicitThis: boolean;
  /** How files see each other's top-level names without an import. */
  packageScope: "directory" | "declared" | "global" | "none";
  /**
   * A bare call may fall back to a repository-wide unique name (default true). False where a bare
   * name can only come from local scope, the package or imports (Go, Rust).
   */
  uniqueBareNames?: boolean;
  /** Functions directly inside a Module (C++ namespace, Rust mod) stay functions, not methods. */
  namespaceFunctions?: boolean;
  /** Doc comments: Python docstrings, or comments right above the definition. */
  docStyle: "docstring" | "comments";
  /**
   * Types a definition's doc comment states (JSDoc `@param {Suite[]} suites`, `@returns {Runner}`):
   * its parameters' and result's, where the code writes none.
   */
  docTypes?: (comment: string) => { params: Record<string, string>; returns?: string } | undefined;
  /**
   * Imports a comment states (JSDoc `@typedef {import('./x')} X`), for the comments the query
   * captures as `@doc.imports`; `line` is the comment's first.
   */
  docImports?: (comment: string, line: number) => ImportFact[];
  /** Module prefix of qualified names for a file (`pkg/mod.py` -> `pkg.mod`), given its package. */
  moduleName(path: string, pkg: string | undefined): string;
  /** Files an import's module path refers to (empty when outside the repository). */
  resolveImport(imp: ImportFact, fromPath: string, repo: RepoFiles): string[];
  /**
   * Whether the build lets code at `fromPath` use a definition at `toPath` (Maven/Gradle modules
   * and their dependencies, workspace packages): a guess by name alone (a repository-wide unique
   * name or method) never reaches what it does not, such as another module's tests. Absent, or
   * files outside every module: no narrowing.
   */
  guessReaches?(fromPath: string, toPath: string, repo: RepoFiles): boolean;
  /**
   * Names of project files (`package.json`, `tsconfig*.json`: `*` matches within the name) whose
   * text import resolution reads
   * through `RepoFiles.read`: the index reads them with the sources, and a change to one
   * re-resolves the repository.
   */
  manifests?: string[];
  /**
   * The packages the repository offers other projects, from its project files and the facts of
   * this language's files (a package.json `name`, a go.mod module's packages, a Cargo package).
   */
  provides?(repo: RepoFiles, files: readonly FileFacts[]): ProvidedPackage[];
  /** Name an import of a whole module binds when it has no alias (`import a.b` binds `a.b`). */
  moduleBinding?(source: string): string | undefined;
  /** An import statement that brings in types only (`import type ...`), by its text. */
  typeOnlyImport?: RegExp;
  /** A condition under which imports serve type checking only (`if TYPE_CHECKING:`). */
  typeOnlyGuard?: RegExp;
  /** Tidy one import as captured (split `a.b.Foo` into source and name, ...). */
  /**
   * Same-named methods of one type from impls of one generic trait (Rust `impl Distribution<u8>
   * for S`, `impl Distribution<u16> for S`): when the call cannot choose the impl, it reaches the
   * trait's declaration of the method instead of nothing.
   */
  /**
   * Methods whose result is the receiver's own value for member lookup, given `typeWrappers` are
   * transparent (Rust `x.unwrap()`, `x.expect(..)`, `x.clone()`).
   */
  identityMethods?: string[];
  /**
   * Operators whose value is the left operand's unless it is missing or false, then the right's
   * (`a ?? b`, `a || b`): such an expression has the type of the operand that has one, left first.
   */
  fallbackOperators?: string[];
  /**
   * A function's value is its last expression (Ruby), and a bare name that is no local is a call
   * of the method of that name: `shell.ask` types `shell` by what `def shell` ends with.
   */
  implicitReturn?: boolean;
  traitDispatch?: boolean;
  /**
   * Node types that end a body without being its value (Ruby comments, `ensure` and `rescue`
   * clauses): a `@return.value` on one stands for the statement before it.
   */
  returnSkip?: string[];
  /**
   * A function without a declared return type has its expression body's type (Kotlin
   * `fun f() = Foo(1)`, tags.scm's `@return.value` on the body).
   */
  expressionBodies?: boolean;
  /** The node whose value a `@return.value` has (Kotlin `if`/`when`: a branch's expression). */
  returnValueOf?(node: Node): Node;
  normalizeImport?(imp: ImportFact): ImportFact;
  /** Method names so common in standard libraries that a unique match in the repo proves nothing. */
  commonMethods?: string[];
  /**
   * Files with one of these extensions that another language owns, which this language claims when
   * their text matches (`.h` holding classes or namespaces is C++): decided per file, by content.
   */
  claims?: {
    extensions: string[];
    pattern: RegExp;
    priority: number;
    /** Comments, removed before the pattern is tried (a `virtual` in a comment proves nothing). */
    comments?: RegExp;
  };
  /**
   * Several declarations of one member name in one type are one member (TypeScript overload
   * signatures, accessor pairs): calls reach the first.
   */
  mergeSameNamedMembers?: boolean;
  /** A function whose prototype holds methods is a class (`Foo.prototype.m = function`). */
  constructorFunctions?: boolean;
  /**
   * How a type's name looks (`/^[A-Z][\w$]*$/`: capitalised): an unresolved receiver named so is
   * a type from outside, never a guess; a wildcard or static import ending so names a type.
   */
  typeNames?: RegExp;
  /**
   * Rewrites source the grammar cannot read (Rust expression macros, new Kotlin syntax, C export
   * macros) into text of the same length whose line breaks stay put, before parsing.
   */
  prepare?(text: string): string;
  /** The qualifier naming a file's parent module (`super` in Rust `super::f()`). */
  parentModule?: string;
  /** Type names that are another's spelling, for overload choice (`string` -> `String`). */
  typeAliases?: Record<string, string>;
  /**
   * Implicit conversions between the language's own types, for overload choice: an argument of
   * the key's type fits a parameter of a listed type, less well than one of its own type.
   */
  conversions?: Record<string, string[]>;
  /**
   * Standard-library types an outside type is a subtype of, by its name, for overload choice
   * between library parameter types (`IllegalArgumentException` is a `Throwable`).
   */
  librarySupertypes?: [RegExp, string[]][];
  /** Argument types that are each listed parameter type exactly (a literal is a `char[N]`). */
  sameTypes?: Record<string, string[]>;
  /**
   * Return types of standard-library methods, by `Type.method` (`stringstream.str` -> `string`):
   * a call on a library value keeps a type for overload choice.
   */
  libraryReturns?: Record<string, string>;
  /**
   * Standard-library generic methods whose result is one of the receiver type's type arguments,
   * by `Type.method` (`List.get` -> 0: the element of a `List<User>` is a User; `Map.get` -> 1).
   * Read through a repository type that extends the library type (`Elements extends
   * Nodes<Element>`, `Nodes<T> extends ArrayList<T>`). The method `[]` is an element by index or
   * iteration (`users[0]`, `for (const u of users)`); the type `[]` is an array (`[].find`: what
   * `find` of a `User[]` gives). Written with elementTable.
   */
  elementReturns?: Record<string, number>;
  /** Functions whose first argument names the type of their result (`typing.cast(T, v)`). */
  castFunctions?: string[];
  /** Test files by this ecosystem's naming (`*_test.go`, `test_*.py`, `*.spec.ts`, `src/test/`). */
  testFiles?: RegExp;
  /** Languages whose files call each other share a family (`js`: JS, TS, TSX; `c`: C, C++). */
  family?: string;
  /** A type may be reopened or split into parts (Ruby classes, C# partial classes): one type. */
  openTypes?: boolean;
  /** A function can be passed by its bare name (`run(step)`); false for Java and Kotlin. */
  bareFunctionValues?: boolean;
  /** Methods overload by parameters (Java, C#, C++, Kotlin): inherited overloads stay visible. */
  overloads?: boolean;
  /** Names of constructor methods; `<type>` means the type's own name (Java, C#, C++). */
  constructorNames?: string[];
  /** A class is its own (primary) constructor when it declares none (Kotlin). */
  primaryConstructor?: boolean;
  /** A type without a constructor of its own runs its base's (TS, JS, Python, Ruby). */
  inheritsConstructors?: boolean;
  /** Receivers that mean "the base type's member" (`super`, `base`; Python's `super()` call). */
  superNames?: string[];
  /** Fields of a definition node holding its return type (default `return_type`). */
  returnFields?: string[];
  /** Generic wrappers whose first argument is the value's type (`Optional`, `Promise`). */
  typeWrappers?: string[];
  /** Type names that mean "no value" in a union (`None`, `null`, `undefined`). */
  nullTypes?: string[];
  /**
   * Statements that only wrap one definition (`const f = ...` around its declarator,
   * `exports.f = ...` around its assignment). tags.scm captures the inner node, which matches far
   * faster than a pattern rooted at a statement; the definition is then the wrapper (its doc,
   * signature and range), as if the pattern had captured it.
   */
  definitionWrappers?: string[];
  /**
   * Whether a name a file imports can be imported from that file in turn (Python's
   * `from a import x`, Rust's `pub use`, C/C++ includes; default true). False where an import
   * only serves its own file (Java, Kotlin, C#, Go): lookups never follow it onwards.
   */
  importsReexported?: boolean;
  /**
   * A definition's `@owner` is an extension's receiver type (Kotlin `fun Foo.m()`): besides
   * being Foo's member when Foo is a repository type, it extends values of any type named so.
   */
  extensionOwners?: boolean;
  /**
   * Outside generic methods that return a value of their type argument (dependency-injection
   * factories: `GetRequiredService<IMediator>()`): the call's value has that type.
   */
  genericFactories?: string[];
  /**
   * Type arguments are inferred from a call's arguments only (C#): a generic method whose type
   * parameter no parameter mentions (`T Query<T>(string sql)`) needs them written.
   */
  argumentInference?: boolean;
  /** Function (delegate) types a lambda argument converts to, for overload choice (`Action`). */
  functionTypes?: string[];
  /** Code in namespace `A.B` sees namespace `A`'s names without importing it (C#). */
  enclosingNamespaces?: boolean;
  /**
   * A call whose lambda runs with a value as its receiver or parameter (Kotlin `x.apply { m() }`,
   * `with(x) { }`, `x.let { it.m() }`), given the matched call node and its name: bare calls in
   * the lambda try the value's members first, and `it` (or the parameter) is that value.
   */
  scopeLambda?(call: Node, name: string): ScopeLambda | undefined;
  /** Whether a lambda between a node and a scope lambda declares the parameter name anew. */
  rebinds?(node: Node, lambda: Node, name: string): boolean;
  /**
   * Names imported one by one hide those of the file's package, which hide those a `*` import
   * brings (Kotlin's scope levels): an extension is chosen at the first level where one applies.
   */
  importLevels?: boolean;
  /**
   * The class-level operator a call of a type name may run instead of a constructor (Kotlin's
   * companion `operator fun invoke`: `TypeVariableName("T")`), chosen by the arguments.
   */
  invokeOperator?: string;
  /** The type of a class literal (`Foo::class` is a `KClass`), for extensions on it. */
  classLiteralType?: string;
  /** Class-level hook methods whose `@hooked` mixins belong to the type defining them. */
  mixinHooks?: string[];
}

/**
 * LanguageSpec.elementReturns from lists of `Type.method` names by the type argument their result
 * is: `elementTable({ 0: "List.get Iterator.next", 1: "Map.get" })`.
 */
export function elementTable(bySlot: Record<number, string>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(bySlot).flatMap(([slot, names]) =>
      names.split(/\s+/).filter(Boolean).map((n) => [n, Number(slot)])
    ),
  );
}
