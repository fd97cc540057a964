import type { LanguageSpec } from "../spec.ts";
import { includeFiles } from "../paths.ts";
import { compileDbInclude } from "../c/compile_db.ts";
import { testsStayHome } from "../c/spec.ts";
import query from "./tags.scm" with { type: "text" };
import { blankMacros } from "../c/macros.ts";

/** Arithmetic types, which convert into each other implicitly. */
const ARITHMETIC = `int long short char bool float double unsigned signed size_t ssize_t ptrdiff_t
  intptr_t uintptr_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t`.split(/\s+/)
  .concat([
    "unsigned int",
    "unsigned long",
    "unsigned short",
    "unsigned char",
    "signed char",
    "long long",
    "unsigned long long",
    "long double",
    "long int",
    "short int",
  ]);
const arithmeticFrom = (t: string) => ARITHMETIC.filter((a) => a !== t);

const CPP_TESTS = /(^|\/)(test_[^/]*|[^/]*_(test|unittest))\.(cc|cpp|cxx|h|hpp)$/;

export const cpp: LanguageSpec = {
  name: "cpp",
  grammar: "cpp",
  // `.h` is routed here by the registry when the project has C++ sources.
  extensions: [".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".tpp"],
  query,
  selfNames: ["this"],
  selfIsPointer: true,
  pointers: true,
  implicitThis: true,
  namespaceFunctions: true,
  // Namespaces are open and span files: any file's definitions are visible through headers.
  packageScope: "global",
  typeNames: /^[A-Z][\w$]*$/,
  testFiles: CPP_TESTS,
  docStyle: "comments",
  // Export, calling-convention and annotation macros blanked, and conditional compilation inside
  // function bodies reduced to one branch, so tree-sitter reads the declarations around them
  // (macros.ts).
  prepare: (text) => blankMacros(text, { macroBodies: true }),
  family: "c",
  claims: {
    extensions: [".h"],
    priority: 2,
    comments: /\/\*[\s\S]*?\*\/|\/\/[^\n]*/g,
    // Constructs C has not: classes, namespaces, templates, access labels, references to std::,
    // scope operators in declarations, C++ keywords, extension-less standard headers.
    pattern:
      /^\s*(class|namespace|template\s*<|using\s+namespace|public:|private:|protected:)|\bstd::|\b(virtual|constexpr|nullptr|noexcept|operator\s*[^\s\w(]|static_cast|override)\b|^\s*#\s*include\s*<(string|vector|map|memory|iostream|cstdint|cstddef|cstring|utility|algorithm|functional)>|\w::~?\w+\s*\(/m,
  },
  overloads: true,
  // `true` is a `bool`.
  typeAliases: { bool: "boolean" },
  // A string literal is a C string: a `const char*` and a `const char (&)[N]` (`char[]`), which
  // a `char*` variable is not.
  sameTypes: { String: ["char*", "char[]"] },
  // A literal converts to any arithmetic type, a string literal to the standard strings.
  conversions: {
    int: arithmeticFrom("int"),
    long: arithmeticFrom("long"),
    char: arithmeticFrom("char"),
    double: arithmeticFrom("double"),
    float: arithmeticFrom("float"),
    boolean: arithmeticFrom("bool"),
    String: ["string", "string_view", "basic_string"],
    "char*": ["string", "string_view", "basic_string"],
    // The standard streams' bases (`Load(std::istream&)` takes a `std::stringstream`).
    stringstream: ["istream", "ostream", "iostream"],
    istringstream: ["istream"],
    ostringstream: ["ostream"],
    ifstream: ["istream"],
    ofstream: ["ostream"],
    fstream: ["istream", "ostream", "iostream"],
  },
  constructorNames: ["<type>"],
  returnFields: ["type"],
  moduleName: () => "",
  resolveImport: (imp, fromPath, repo) =>
    compileDbInclude(imp.source, fromPath, repo) ?? includeFiles(imp.source, fromPath, repo),
  guessReaches: testsStayHome(CPP_TESTS),
  manifests: ["compile_commands.json"],
  // Also the standard library's free functions and stream members (`std::max(a, b)`,
  // `in.eof()`): a qualifier or receiver from outside proves nothing by a unique name.
  libraryReturns: {
    "stringstream.str": "string",
    "ostringstream.str": "string",
    "istringstream.str": "string",
    "string.substr": "string",
    "string.c_str": "String",
    "string.data": "String",
    "string_view.substr": "string_view",
  },
  commonMethods: `push_back emplace_back push_front emplace_front pop_back pop_front emplace insert
    erase clear find count contains size length empty begin end rbegin rend cbegin cend front back at
    data reserve resize capacity swap get reset release lock unlock try_lock load store c_str substr
    append str first second value has_value value_or wait notify_one notify_all join detach what top
    push pop assign compare write read close open flush run start stop update add remove set put
    send min max abs eof good fail bad peek getline ignore precision width fill sort copy move
    forward transform replace reverse unique accumulate`.split(/\s+/),
};
