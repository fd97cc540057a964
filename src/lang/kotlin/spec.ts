import type { LanguageSpec } from "../spec.ts";
import { declaredPackages } from "../packages.ts";
import { JVM_BUILD_FILES, moduleSees, resolveJvmImport, splitImport } from "../java/jvm.ts";
import query from "./tags.scm" with { type: "text" };
import { prepareKotlinSource } from "./prepare.ts";
import { branchValue, rebinds, scopeLambda } from "./scopes.ts";

export const kotlin: LanguageSpec = {
  name: "kotlin",
  grammar: "kotlin",
  extensions: [".kt", ".kts"],
  query,
  // Constructs the grammar gives up on, rewritten to same-length text it reads (prepare.ts).
  prepare: prepareKotlinSource,
  selfNames: ["this", "super"],
  implicitThis: true,
  importsReexported: false,
  packageScope: "declared",
  typeNames: /^[A-Z][\w$]*$/,
  testFiles: /(^|\/)src\/(test|androidTest|\w+Test)\/|Tests?\.kts?$/,
  provides: (_repo, files) => declaredPackages(files, kotlin.testFiles, ["java", "kotlin"]),
  docStyle: "comments",
  overloads: true,
  bareFunctionValues: false,
  typeAliases: {
    Int: "int",
    Long: "long",
    Double: "double",
    Float: "float",
    Boolean: "boolean",
    Char: "char",
    Byte: "byte",
    Short: "short",
    Any: "Object",
  },
  // `fun Foo.m()`: an extension of every value typed Foo (a typealias, a nested or outside type).
  extensionOwners: true,
  // `import a.parse` hides the `parse` extensions of `import b.*` (and of the file's package).
  importLevels: true,
  // `x.apply { m() }`, `with(x) { m() }`, `x.let { it.m() }`: the lambda runs on x.
  scopeLambda,
  rebinds,
  // `Foo(x)` runs the companion's `operator fun invoke(x)` when one takes the arguments.
  invokeOperator: "invoke",
  // `fun f() = Foo(1)`: f's value is a Foo.
  expressionBodies: true,
  returnValueOf: branchValue,
  classLiteralType: "KClass",
  functionTypes: ["Function", "KFunction", "Runnable", "Callable"],
  constructorNames: ["constructor"],
  primaryConstructor: true,
  superNames: ["super"],
  // A function's return type has no field in this grammar: it is the type right after the
  // parameter list (`fun f(x: Int): Foo`).
  returnFields: ["+parameters"],
  moduleName: (_path, pkg) => pkg ?? "",
  normalizeImport: splitImport,
  // Kotlin file names are free and functions are imported by name: a named import resolves to the
  // package's file named after it (`Order.kt`) when there is one, else to every file of the package.
  resolveImport: (imp, fromPath, repo) =>
    resolveJvmImport("kotlin", [".kt", ".kts"], imp, repo, fromPath),
  guessReaches: moduleSees,
  manifests: JVM_BUILD_FILES,
  // Scope functions, collections, strings, coroutines and standard infix functions: the standard
  // library's extension functions, which an untyped receiver calls far more often than a
  // same-named repository method (`file.writeText()`, `lists.flatten()`).
  commonMethods: `let apply also run with takeIf takeUnless use invoke equals hashCode toString copy
    get set put getOrPut add addAll remove clear contains containsKey isEmpty isNotEmpty first last
    firstOrNull map mapNotNull filter forEach flatMap sumOf joinToString toList toMutableList toSet
    toMap format trim split lowercase uppercase close start stop print println emit collect launch
    async await to until downTo step and or xor shl shr ushr matches
    associate associateBy associateWith groupBy partition flatten zip unzip chunked windowed sorted
    sortedBy sortedByDescending sortedWith sortedDescending reversed distinct distinctBy count sum
    maxOf minOf maxBy minBy maxByOrNull minByOrNull maxOrNull minOrNull any all none find findLast
    single singleOrNull getOrNull getOrElse getOrDefault elementAt indexOf lastIndexOf take
    takeLast takeWhile drop dropLast dropWhile plus minus fold reduce onEach forEachIndexed
    mapIndexed mapValues mapKeys filterNot filterIsInstance filterNotNull filterKeys filterValues
    toTypedArray toSortedMap toMutableSet toMutableMap asSequence asIterable iterator lastOrNull
    orEmpty ifEmpty ifBlank isNullOrEmpty isNullOrBlank isBlank isNotBlank removeAll retainAll
    removeIf putAll getValue subList indices withIndex random shuffled
    substring substringBefore substringAfter substringBeforeLast substringAfterLast startsWith
    endsWith replace replaceFirst removePrefix removeSuffix removeSurrounding padStart padEnd
    repeat lines trimIndent trimMargin trimEnd trimStart toInt toLong toDouble toFloat toBoolean
    toIntOrNull toLongOrNull toDoubleOrNull toCharArray toByteArray toRegex capitalize decapitalize
    replaceFirstChar compareTo append appendLine
    readText writeText readLines readBytes writeBytes appendText forEachLine useLines
    bufferedReader bufferedWriter reader writer exists delete mkdirs resolve relativeTo
    getOrThrow onSuccess onFailure cancel join delay withContext`.split(/\s+/),
};
