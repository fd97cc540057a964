/**
 * Search words of definitions (src/graph/model.ts): `symbolKeys` splits a file's module once and
 * gives each definition exactly the words `wordsOf(name, qualified name)` gives, in the same order.
 */
import assert from "node:assert/strict";
import type { FileFacts } from "../src/graph/facts.ts";
import { qualifiedName, symbolKeys, wordsOf } from "../src/graph/model.ts";

Deno.test("words: identifiers split into lower-case words, each once, in order", () => {
  assert.equal(wordsOf("getHTTPResponse2"), "gethttpresponse2 get http response 2");
  assert.equal(wordsOf("get_user_name", "getUserName"), "get user name getusername");
});

Deno.test("words: a definition's words are those of its name and qualified name", () => {
  const modules = [
    "",
    "a.b",
    "com.bench.svc.Mod103",
    "pkg_",
    "_x.y_",
    "x/y-z",
    "$mod.$x",
    "ñandú.x",
  ];
  const names = ["getUserName", "get_user_name", "$init", "HTTPResponse2", "Foo$Bar", "__init__"];
  for (const module of modules) {
    for (const name of names) {
      for (const local of [name, `Cls.${name}`, `Outer$Inner.${name}`, `_.${name}`]) {
        const f = { path: "p.ts", module, defs: [{ name, local, kind: "Function" }] };
        const [key] = symbolKeys(f as unknown as FileFacts);
        assert.equal(key.words, wordsOf(name, qualifiedName(module, local)), `${module} ${local}`);
      }
    }
  }
});
