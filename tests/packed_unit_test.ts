/**
 * The packed encoding's reader (src/graph/packed.ts): a head read into an object shares the short
 * arrays of strings and numbers it repeats (frozen, so no reader can change another's), a value
 * read on its own gets arrays of its own, and the table's text is written again when asked for.
 */
import assert from "node:assert/strict";
import { PackedReader, Packer } from "../src/graph/packed.ts";

function packed(values: unknown[]): { reader: PackedReader; at: number[] } {
  const p = new Packer();
  const at = values.map((v) => {
    const offset = p.offset();
    p.add(v);
    return offset;
  });
  return { reader: new PackedReader(p.pack()), at };
}

const def = (name: string) => ({
  name,
  params: [1, 2],
  paramTypes: ["int", "String"],
  nested: { list: [3, "x"] },
  objects: [{ a: 1 }],
});

Deno.test("packed: heads share equal short arrays of primitives, frozen; they read back equal", () => {
  const values = [def("a"), def("b"), { ...def("c"), params: [0, 0] }];
  const { reader, at } = packed(values);
  const heads = at.map((o) => reader.at(o, {}) as ReturnType<typeof def>);
  heads.forEach((h, i) => assert.deepEqual(h, JSON.parse(JSON.stringify(values[i]))));
  assert.equal(heads[0].params, heads[1].params, "one array for [1, 2]");
  assert.equal(heads[0].paramTypes, heads[2].paramTypes, "one array for the same strings");
  assert.equal(heads[0].nested.list, heads[1].nested.list, "nested short arrays too");
  assert.notEqual(heads[0].params, heads[2].params, "[0, 0] is another array");
  assert.ok(Object.isFrozen(heads[0].params));
  assert.throws(() => (heads[0].params as number[]).push(3), TypeError);
  assert.notEqual(heads[0].objects, heads[1].objects, "arrays holding objects are never shared");
  assert.ok(!Object.isFrozen(heads[0].objects));
});

Deno.test("packed: a value read on its own has arrays of its own, as JSON.parse gives", () => {
  const { reader, at } = packed([def("a"), def("b")]);
  const a = reader.at(at[0]) as ReturnType<typeof def>;
  const b = reader.at(at[1]) as ReturnType<typeof def>;
  assert.deepEqual(a, JSON.parse(JSON.stringify(def("a"))));
  assert.notEqual(a.params, b.params);
  assert.ok(!Object.isFrozen(a.params));
  a.params.push(3); // its own
  assert.deepEqual((reader.at(at[0]) as ReturnType<typeof def>).params, [1, 2]);
});

Deno.test("packed: the table's text is the JSON of every string, written when asked for", () => {
  const { reader } = packed([def("alpha"), 'a "quoted" string', ["ünïcode"]]);
  const table = JSON.parse(reader.tableText) as string[];
  for (const s of ["alpha", "int", "String", 'a "quoted" string', "ünïcode", "params"]) {
    assert.ok(table.includes(s), s);
  }
  assert.equal(reader.tableText, reader.tableText);
  const p = new Packer();
  p.add(["alpha", "beta"]);
  const text = p.pack();
  assert.equal(new PackedReader(text, true).tableText, new PackedReader(text).tableText);
  assert.equal(new PackedReader(text, true).tableText, JSON.stringify(["alpha", "beta"]));
});
