/**
 * Fast unit tests (no database) for resolution rules and the accuracy scorer: overload choice,
 * constructors, receiver typing from return types, and the scorer's precision/recall.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { extractFacts } from "../src/index/extract.ts";
import { chooseOverload, resolveAll } from "../src/index/resolve/mod.ts";
import { splitArgs, splitAtOperator } from "../src/index/resolve/text.ts";
import { languageByName, languageOf, refineLanguage } from "../src/lang/registry.ts";
import type { DefFact, FileFacts } from "../src/graph/facts.ts";
import { score } from "../bench/accuracy/score.ts";
import type { CgExport, Oracle } from "../bench/accuracy/types.ts";

async function edgesOf(files: Record<string, string>): Promise<string[]> {
  const facts: FileFacts[] = [];
  // As the walk decides: `.h` is C++ in a project with C++ sources, unless its text says C.
  const cpp = Object.keys(files).some((p) => p.endsWith(".cpp"));
  for (const [path, text] of Object.entries(files)) {
    const bytes = new TextEncoder().encode(text);
    facts.push(
      await extractFacts(refineLanguage(languageOf(path, cpp)!, path, bytes), path, bytes),
    );
  }
  const res = resolveAll(facts, languageByName);
  const names = new Map<string, string>();
  for (const list of res.symbols.values()) for (const s of list) names.set(s.id, s.qualified_name);
  const out: string[] = [];
  for (const [path, list] of res.edges) {
    for (const e of list) {
      if (e.type !== "CALLS" && e.type !== "INSTANTIATES") continue;
      out.push(`${e.type} ${e.fromFile ? path : names.get(e.from)} -> ${names.get(e.to)}`);
    }
  }
  return out.sort();
}

const files = new Map<string, FileFacts>();
const def = (params: [number, number], file = "a"): { def: DefFact; file: FileFacts } => ({
  def: {
    name: "f",
    kind: "Method",
    local: "f",
    line: 1,
    endLine: 1,
    signature: "",
    doc: "",
    parent: -1,
    params,
  },
  file: files.get(file) ?? files.set(file, { path: file } as FileFacts).get(file)!,
});

Deno.test("expressions split outside brackets and strings", () => {
  assertEquals(splitArgs(`a, f(b, c), "x, y", Map<K, V>`), ["a", "f(b, c)", `"x, y"`, "Map<K, V>"]);
  assertEquals(splitArgs("  "), []);
  assertEquals(splitAtOperator("opts.cache ?? new Cache()", ["??", "||"]), [
    "opts.cache",
    "new Cache()",
  ]);
  assertEquals(splitAtOperator("f(a || b) || c", ["??", "||"]), ["f(a || b)", "c"]);
  assertEquals(splitAtOperator(`"a || b"`, ["||"]), undefined);
  assertEquals(splitAtOperator("a||b", ["||"]), undefined); // only as written with spaces
});

Deno.test("chooseOverload: by arity, varargs, and never every overload of one file", () => {
  const one = def([1, 1]), two = def([2, 2]), many = def([1, -1]);
  assertEquals(chooseOverload([one, two], 2), [two]);
  assertEquals(chooseOverload([one, two], 3), []);
  assertEquals(chooseOverload([two, many], 3), [many]);
  // same arity in one file: undecided here (argument types decide in the resolver)
  assertEquals(chooseOverload([one, def([1, 1])], 1), []);
  // a declaration and its definition in two files are one function
  const decl = def([1, 1], "a.h"), impl = def([1, 1], "a.c");
  assertEquals(chooseOverload([decl, impl], 1), [decl, impl]);
});

Deno.test("java: overloads by argument types, inherited overloads, constructors", async () => {
  const edges = await edgesOf({
    "p/Base.java": `package p;
class Base {
  Base(int x) {}
  void put(String s) {}
}`,
    "p/A.java": `package p;
class A extends Base {
  A() { super(1); }
  A(String s) { this(); }
  void put(int i) {}
  void run() {
    put("x");
    put(2);
    new A("y");
  }
}`,
  });
  assertEquals(
    edges,
    [
      "CALLS p.A.A -> p.Base.Base",
      "CALLS p.A.A -> p.A.A",
      "CALLS p.A.run -> p.A.A",
      "CALLS p.A.run -> p.A.put",
      "CALLS p.A.run -> p.Base.put",
      "INSTANTIATES p.A.run -> p.A",
    ].sort(),
  );
});

Deno.test("python: X() reaches the inherited __init__; return types type the receiver", async () => {
  const edges = await edgesOf({
    "m.py": `class Base:
    def __init__(self, x):
        pass

class Repo(Base):
    def find(self):
        pass

def make() -> "Repo":
    return Repo(1)

def use():
    r = make()
    r.find()
`,
  });
  assertEquals(
    edges,
    [
      "CALLS m.make -> m.Base.__init__",
      "CALLS m.use -> m.Repo.find",
      "CALLS m.use -> m.make",
      "INSTANTIATES m.make -> m.Repo",
    ].sort(),
  );
});

Deno.test("typescript: decorators belong to the defining scope; known outside types never guess", async () => {
  const edges = await edgesOf({
    "a.ts": `export function dec() { return (t: unknown) => t; }
export class Store { send(x: string) { return x; } }
@dec()
export class Svc {
  run(s: string) {
    s.send("x");
  }
}`,
  });
  assertEquals(edges, ["CALLS a.ts -> a.dec"]);
});

Deno.test("scorer: precision, recall, unjudged and causes", () => {
  const oracle: Oracle = {
    oracle: "test",
    language: "python",
    root: "/",
    files: ["a.py"],
    defs: [
      { path: "a.py", line: 1, name: "f", kind: "function" },
      { path: "a.py", line: 5, name: "g", kind: "function" },
      { path: "a.py", line: 9, name: "h", kind: "function" },
    ],
    calls: [
      { caller: "a.py:1", callee: "a.py:5", site: 2 },
      { caller: "a.py:1", callee: "a.py:9", site: 3 },
    ],
    unresolved: [{ caller: "a.py:5", name: "h", site: 6 }],
  };
  const sym = (id: string, line: number, name: string) => ({
    id,
    path: "a.py",
    line,
    endLine: line + 3,
    name,
    kind: "Function",
    qualified: `a.${name}`,
  });
  const cg: CgExport = {
    files: ["a.py"],
    symbols: [sym("f", 1, "f"), sym("g", 5, "g"), sym("h", 9, "h")],
    edges: [
      { type: "CALLS", from: "f", to: "g", line: 2, confidence: 1 },
      { type: "CALLS", from: "g", to: "h", line: 6, confidence: 0.7 },
      { type: "CALLS", from: "h", to: "f", line: 10, confidence: 0.5 },
    ],
    calls: [{ path: "a.py", from: "f", line: 3, name: "h", receiver: "obj" }],
    parseErrors: {},
    ms: { analyze: 0, resolve: 0 },
  };
  const s = score(oracle, cg);
  assertEquals([s.correct, s.cgEdges, s.unjudged], [1, 2, 1]);
  assertEquals(s.precision, 0.5);
  assertEquals(s.recall, 0.5);
  assertEquals(s.missing, { "unresolved: variable receiver": 1 });
  assertEquals(s.wrong, { "name-only guess (0.5)": 1 });
  assertEquals(s.defs, { total: 3, found: 3, rightLine: 3 });
});

Deno.test("cpp: a field declared in the header types the receiver in an out-of-line method", async () => {
  const edges = await edgesOf({
    "repo.h": `struct Repo { void save(int x); };`,
    // A declaration is no definition: the call reaches the one that runs.
    "repo.cpp": `#include "repo.h"
void Repo::save(int x) {}`,
    "s.h": `#include "repo.h"
struct S {
  Repo* repo_;
  void run();
};`,
    "s.cpp": `#include "s.h"
void S::run() {
  repo_->save(1);
}`,
  });
  assertEquals(edges, ["CALLS S.run -> Repo.save"]);
});

Deno.test("a .h file's language comes from its text, per file", () => {
  const bytes = (t: string) => new TextEncoder().encode(t);
  const c = languageOf("a.h")!;
  const cppByPath = languageOf("a.h", true)!;
  assertEquals(refineLanguage(c, "a.h", bytes("namespace x {\nclass A {};\n}")).name, "cpp");
  assertEquals(refineLanguage(c, "a.h", bytes("int add(int a, int b);")).name, "c");
  // C++ words in comments prove nothing (lua's `** Lua virtual machine`).
  assertEquals(
    refineLanguage(c, "a.h", bytes("/*\n** Lua virtual machine\n*/\n// std::vector\nint f(void);"))
      .name,
    "c",
  );
  assertEquals(
    refineLanguage(
      cppByPath,
      "a.h",
      bytes('#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);'),
    ).name,
    "c",
  );
  assertEquals(refineLanguage(cppByPath, "a.h", bytes("struct S { int x; };")).name, "cpp");
});

Deno.test("ruby: a reopened class is one type; DSL calls in a class body never guess", async () => {
  const edges = await edgesOf({
    "lib/base.rb": `class Thor
  def say(x)
  end
end
`,
    "lib/ext.rb": `class Thor
  def ask(x)
    say(x)
  end
end
`,
    "lib/app.rb": `class App < Thor
  option :name
  def run
    ask("q")
  end
end
`,
    "lib/dsl.rb": `class Other
  def option(x)
  end
end
`,
  });
  assertEquals(edges, ["CALLS App.run -> Thor.ask", "CALLS Thor.ask -> Thor.say"]);
});

Deno.test("Ruby: paths built with File are read from the require's text", async () => {
  const { fileRelativePath } = await import("../src/lang/ruby/spec.ts");
  assertEquals(fileRelativePath(`File.expand_path("../helper", __FILE__)`), "./helper");
  assertEquals(fileRelativePath(`File.expand_path('lib/x', __dir__)`), "lib/x");
  assertEquals(fileRelativePath(`File.expand_path "../a/b", __FILE__`), "./a/b");
  assertEquals(fileRelativePath(`File.join(File.dirname(__FILE__), "x")`), "x");
  assertEquals(fileRelativePath(`File.join(__dir__, 'y/z')`), "y/z");
  // Outside what can be followed: the file itself, interpolation, any other call.
  assertEquals(fileRelativePath(`File.expand_path("x", __FILE__)`), "");
  assertEquals(fileRelativePath(`File.join(__dir__, "#{name}")`), "");
  assertEquals(fileRelativePath(`Gem.path("x")`), "");
});
