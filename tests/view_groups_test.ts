/**
 * The module map's `auto` grouping (src/view/groups.ts): at most `max` groups, every file in
 * exactly one, directories first, a large flat directory split by name prefix.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { groupFiles } from "../src/view/groups.ts";

function check(paths: string[], max: number) {
  const groups = groupFiles(paths, max);
  assert(groups.length <= max, `${groups.length} groups > ${max}`);
  const seen = groups.flatMap((g) => g.files).sort();
  assertEquals(seen, [...paths].sort(), "every file in exactly one group");
  for (const g of groups) {
    for (const f of g.files) {
      const stem = g.path.endsWith("*") ? g.path.slice(0, -1) : g.path === "." ? "" : g.path;
      assert(g.kind === "file" ? f === g.path : f.startsWith(stem), `${f} in ${g.path}`);
    }
  }
  return groups;
}

Deno.test("groups: few files stay files; directories before prefixes", () => {
  const paths = ["a/x.py", "a/y.py", "b/c/z.py", "b/c/w.py", "top.py"];
  assertEquals(check(paths, 10).map((g) => g.path), [
    "a/x.py",
    "a/y.py",
    "b/c/w.py",
    "b/c/z.py",
    "top.py",
  ]);
  assertEquals(check(paths, 3).map((g) => `${g.kind} ${g.path}`), [
    "dir a",
    "dir b/c",
    "file top.py",
  ]);
});

Deno.test("groups: the bench's repository (four flat directories) gets a readable map", () => {
  const paths: string[] = ["pkg/__init__.py"];
  for (let i = 0; i < 10_000; i++) {
    paths.push(
      [`pkg/mod${i}.py`, `web/mod${i}.ts`, `svc/file${i}.go`, `java/com/bench/Mod${i}.java`][i % 4],
    );
  }
  const groups = check(paths, 300);
  // pkg, web, svc and java/com/bench, each by the digit after `mod` / `file` / `Mod`.
  assert(groups.length >= 30, `${groups.length} groups: too coarse`);
  const names = groups.map((g) => g.path);
  assert(names.includes("pkg/__init__.py"), names.join(" "));
  assert(names.some((n) => n.startsWith("java/com/bench/Mod1")), names.join(" "));
  assert(groups.every((g) => g.files.length <= 300), "every large directory is split");
});

Deno.test("groups: a directory too wide to split stays whole, the others are split", () => {
  const paths: string[] = [];
  for (let v = 0; v < 500; v++) paths.push(`vendor/p${v}/index.js`, `vendor/p${v}/util.js`);
  for (let a = 0; a < 6; a++) for (let f = 0; f < 20; f++) paths.push(`src/m${a}/f${f}.ts`);
  const groups = check(paths, 50);
  assertEquals(groups.map((g) => g.path).filter((p) => !p.startsWith("src/m")), ["vendor"]);
  assertEquals(groups.length, 7);
});

Deno.test("groups: a deep tree is cut at the depth that fits", () => {
  const paths: string[] = [];
  for (let a = 0; a < 5; a++) {
    for (let b = 0; b < 8; b++) for (let f = 0; f < 30; f++) paths.push(`src/m${a}/s${b}/f${f}.ts`);
  }
  const groups = check(paths, 50);
  assertEquals(groups.length, 40);
  assert(groups.every((g) => g.kind === "dir" && /^src\/m\d\/s\d$/.test(g.path)));
});
