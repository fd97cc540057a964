/**
 * Fast unit tests (no database) for the text passes that run on every file before parsing (C/C++
 * tokens and macro blanking, Rust expression macros), the resolver's memo tables, and the early
 * start of `index --full` (its path, and its census taken as the run's walk).
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { tokenize } from "../src/lang/c/tokens.ts";
import { blankMacros } from "../src/lang/c/macros.ts";
import { conditionHolds } from "../src/lang/c/conditionals.ts";
import { prepareMacros } from "../src/lang/rust/macros.ts";
import { Memo2, Memo3 } from "../src/index/resolve/memo.ts";
import { join } from "node:path";
import { indexPath, prestartFullIndex, takeCensus } from "../src/index/prestart.ts";
import { releaseWorkers } from "../src/index/pool.ts";
import type { WalkResult } from "../src/index/walk.ts";

Deno.test("C tokens: punctuators longest first, numbers, literals, comments, directives", () => {
  const text = [
    "#define A(x) x \\",
    "  + 1",
    "a <<= b <=> c ->* d ... e->f ## g; // c \\",
    "still comment",
    'x = 1e+5 + 0x1p-3 + .5f + 1\'000; u8R"d(raw)d" L\'a\' /* b */ "s\\"q"',
    "  #if B",
  ].join("\n");
  const tokens = tokenize(text, true).map((t) => `${t.line}:${t.kind}:${t.text}`);
  assertEquals(tokens, [
    "0:pp:#define A(x) x \\\n  + 1",
    "2:id:a",
    "2:punct:<<=",
    "2:id:b",
    "2:punct:<=>",
    "2:id:c",
    "2:punct:->*",
    "2:id:d",
    "2:punct:...",
    "2:id:e",
    "2:punct:->",
    "2:id:f",
    "2:punct:##",
    "2:id:g",
    "2:punct:;",
    "4:id:x",
    "4:punct:=",
    "4:num:1e+5",
    "4:punct:+",
    "4:num:0x1p-3",
    "4:punct:+",
    "4:num:.5f",
    "4:punct:+",
    "4:num:1'000",
    "4:punct:;",
    '4:str:u8R"d(raw)d"',
    "4:str:L'a'",
    '4:str:"s\\"q"',
    "5:pp:#if B",
  ]);
  // Without directives, the preprocessor lines are skipped and lines still counted.
  assertEquals(tokenize("#x\nint y;").map((t) => `${t.line}:${t.text}`), ["1:int", "1:y", "1:;"]);
});

Deno.test("C macro blanking keeps every offset and line", () => {
  const text = "LUA_API int lua_gettop (lua_State *L) {\n  return 0;\n}\n" +
    "class LEVELDB_EXPORT DB {\n public:\n  void Lock() EXCLUSIVE_LOCK_FUNCTION();\n};\n" +
    "local int helper (int x) { return x; }\n";
  const out = blankMacros(text, { macroBodies: true });
  assertEquals(out.length, text.length);
  assertEquals(out.split("\n").length, text.split("\n").length);
  assertEquals(out.includes("LUA_API"), false);
  assertEquals(out.includes("LEVELDB_EXPORT"), false);
  assertEquals(out.includes("EXCLUSIVE_LOCK_FUNCTION"), false);
  assertEquals(out.includes("local int"), false);
  assertEquals(out.includes("int lua_gettop (lua_State *L)"), true);
  assertEquals(out.includes("int helper (int x)"), true);
});

Deno.test("C function-like macros become functions, a block body as it is", () => {
  const text =
    "#define FLUSH_ONLY(s, last) { \\\n   tr_flush(s, last); \\\n   pending(s); \\\n}\n" +
    "#define FLUSH(s, last) { \\\n   FLUSH_ONLY(s, last); \\\n   if (done(s)) return last; \\\n}\n" +
    "#define pop(L,n) settop(L, -(n)-1)\n";
  const out = blankMacros(text, { macroBodies: true });
  assertEquals(out.length, text.length);
  assertEquals(out.split("\n").length, text.split("\n").length);
  // The block is the function's body; the line continuations are gone.
  assert(out.startsWith("__m FLUSH_ONLY(s, last)     {  \n   tr_flush(s, last);"), out);
  assert(out.includes("__m FLUSH(s, last)     {  \n   FLUSH_ONLY(s, last);"), out);
  assert(out.includes("__m pop(L,n){settop(L, -(n)-1);}"), out);
  assertEquals(out.includes("\\"), false);
});

Deno.test("C conditionals in code keep the branch a default build compiles", () => {
  const defined = new Set(["HAVE_MMAP"]);
  assertEquals(conditionHolds("ifdef", " MAXSEG_64K", defined), false);
  assertEquals(conditionHolds("ifdef", " HAVE_MMAP /* set by configure */", defined), true);
  assertEquals(conditionHolds("ifndef", " FASTEST", defined), true);
  assertEquals(conditionHolds("ifdef", " __GNUC__", defined), true);
  assertEquals(conditionHolds("if", " 0", defined), false);
  assertEquals(conditionHolds("if", " defined(HAVE_MMAP)", defined), true);
  assertEquals(conditionHolds("if", " !defined(_WIN32)", defined), true);
  assertEquals(conditionHolds("if", " FASTEST", defined), false);
  assertEquals(conditionHolds("if", " LUA_VERSION_NUM >= 503", defined), true);
  // Reserved names are the compiler's: the first branch, whichever test.
  assertEquals(conditionHolds("ifdef", " __cpp_lib_bit_cast", defined), true);
  assertEquals(conditionHolds("ifndef", " _MSC_VER", defined), true);
  assertEquals(conditionHolds("if", " !defined(__SIZEOF_INT128__)", defined), true);
  const text = "#define LOCAL\nint copy(int a) {\n#ifdef MAXSEG_64K\n  return 0;\n#else\n" +
    "  check(a);\n#endif\n#ifdef LOCAL\n  local(a);\n#else\n  other(a);\n#endif\n" +
    "#undef LOCAL\n#ifdef LOCAL\n  gone(a);\n#endif\n  return a;\n}\n";
  const out = blankMacros(text);
  assertEquals(out.length, text.length);
  assertEquals(out.includes("return 0"), false);
  assertEquals(out.includes("check(a)"), true);
  assertEquals(out.includes("local(a)"), true);
  assertEquals(out.includes("other(a)"), false);
  assertEquals(out.includes("gone(a)"), false);
});

Deno.test("Rust expression macros lose their name; strings, comments and braces stay", () => {
  const cases: [string, string][] = [
    ["assert_eq!(f(x), 1);", "          (f(x), 1);"],
    ['log::info!("{}", a)', '          ("{}", a)'],
    ["vec![Item::new(a)]", "    [Item::new(a)]"],
    ['let s = "assert!(x)"; // println!(y)', 'let s = "assert!(x)"; // println!(y)'],
    ['m! { a }  $vec![1]  r#"vec![2]"#', 'm! { a }  $vec![1]  r#"vec![2]"#'],
    ["/* /* vec![1] */ */ dbg!(\n x)", "/* /* vec![1] */ */     (\n x)"],
    ["'a' 'lt format!(\"x\")", "'a' 'lt        (\"x\")"],
  ];
  for (const [text, want] of cases) assertEquals(prepareMacros(text), want);
});

Deno.test("memo tables keep each key part apart", () => {
  const m3 = new Memo3<string, number, string, number>();
  m3.set("a.ts", 1, "x", 1);
  m3.set("a.ts", 1, "y", 2);
  m3.set("a.ts\u00001", 1, "x", 3);
  assertEquals([m3.get("a.ts", 1, "x"), m3.get("a.ts", 1, "y"), m3.get("a.ts\u00001", 1, "x")], [
    1,
    2,
    3,
  ]);
  assertEquals(m3.has("a.ts", 2, "x"), false);
  const m2 = new Memo2<string, string, number | undefined>();
  m2.set("id", "f", undefined);
  assertEquals([m2.has("id", "f"), m2.get("id", "f"), m2.has("id", "g")], [true, undefined, false]);
  m2.clear();
  m3.clear();
  assertEquals([m2.has("id", "f"), m3.get("a.ts", 1, "x")], [false, undefined]);
});

Deno.test("index --full's early start finds the path its arguments name", () => {
  assertEquals(indexPath(["--full"]), ".");
  assertEquals(indexPath(["repo", "--full"]), "repo");
  assertEquals(indexPath(["--project", "p", "--full", "--branch", "b", "src/x"]), "src/x");
  assertEquals(indexPath(["--json", "--wait", "5", "--max-graphs", "3"]), ".");
});

Deno.test("the census is the run's walk: same root, once, while recent", async () => {
  const dir = await Deno.makeTempDir();
  const before = Deno.env.get("CGRAPH_WORKERS");
  Deno.env.set("CGRAPH_WORKERS", "0"); // no parse worker: this test is about the walk
  try {
    await Deno.mkdir(join(dir, "src"));
    await Deno.writeTextFile(join(dir, "src", "a.py"), "def a():\n    pass\n");
    await Deno.writeTextFile(join(dir, "b.go"), "package b\n");
    const paths = (w?: WalkResult) => w?.files.map((f) => [f.path, f.abs]);
    const expected = [["b.go", join(dir, "b.go")], ["src/a.py", join(dir, "src", "a.py")]];

    await prestartFullIndex(["--full", dir]);
    assertEquals(paths(await takeCensus(join(dir, "src", ".."))), expected);
    assertEquals(await takeCensus(dir), undefined, "taken once");

    await prestartFullIndex([dir]);
    assertEquals(await takeCensus(join(dir, "src")), undefined, "another root walks again");
    assertEquals(await takeCensus(dir), undefined, "and the census is gone with it");

    await prestartFullIndex([dir]);
    const later = () => performance.now() + 60_000;
    assertEquals(await takeCensus(dir, later), undefined, "an old census is not the tree now");

    // Relative to where the command runs: the walk's paths are absolute all the same.
    const cwd = Deno.cwd();
    Deno.chdir(dir);
    try {
      await prestartFullIndex(["--full"]);
      assertEquals(paths(await takeCensus(dir)), expected);
    } finally {
      Deno.chdir(cwd);
    }
  } finally {
    if (before === undefined) Deno.env.delete("CGRAPH_WORKERS");
    else Deno.env.set("CGRAPH_WORKERS", before);
    releaseWorkers();
    await Deno.remove(dir, { recursive: true });
  }
});
