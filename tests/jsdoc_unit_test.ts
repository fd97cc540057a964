/** JSDoc types and typedef imports as JavaScript's spec reads them (src/lang/javascript/jsdoc.ts). */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { jsdocImports, jsdocTypes } from "../src/lang/javascript/jsdoc.ts";

Deno.test("jsdoc: @param and @returns types, optional and rest parameters, fields skipped", () => {
  const doc = [
    "Runs the suites.",
    "@param {Suite[]} suites - the roots",
    "@param {?Context} [ctx=null] optional",
    "@param {Object<string, Array<Suite>>} byName",
    "@param {string} opts.name a field of opts, not a parameter",
    "@param {...Hook} hooks",
    "@returns {Promise<Runner>} the runner",
  ].join("\n");
  assertEquals(jsdocTypes(doc), {
    params: {
      suites: "Suite[]",
      ctx: "Context",
      byName: "Object<string, Array<Suite>>",
      hooks: "Hook",
    },
    returns: "Promise<Runner>",
  });
  assertEquals(jsdocTypes("No tags here."), undefined);
  assertEquals(jsdocTypes("@return {Mocha}"), { params: {}, returns: "Mocha" });
});

Deno.test("jsdoc: @typedef {import(...)} is a type-only import at its line", () => {
  const comment = "@typedef {import('../mocha.cjs')} Mocha\n" +
    '@typedef {import("../types.d.ts").MochaOptions} MochaOptions\n@typedef {Object} Plain';
  assertEquals(jsdocImports(comment, 10), [
    { source: "../mocha.cjs", alias: "Mocha", typeOnly: true, line: 10 },
    {
      source: "../types.d.ts",
      name: "MochaOptions",
      alias: "MochaOptions",
      typeOnly: true,
      line: 11,
    },
  ]);
});
