/**
 * The stored facts (src/index/facts_store.ts) and their encoding (src/graph/packed.ts): any value
 * JSON takes reads back as JSON would give it; every fixture file's facts read back equal, their
 * lazy parts included; a name search over stored facts never misses a file that mentions the name;
 * and segments written run after run, with files added, changed and removed at random, always load
 * back exactly the facts of the files as they are, in a bounded number of segments.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { FileFacts } from "../src/graph/facts.ts";
import { PackedReader, Packer } from "../src/graph/packed.ts";
import {
  loadFacts,
  mayMention,
  packSegment,
  unpackSegment,
  writeAll,
  writeChanged,
} from "../src/index/facts_store.ts";
import { analyzeParallel } from "../src/index/pool.ts";
import { bareArgNames } from "../src/index/resolve/structure.ts";
import { readCandidates } from "../src/index/scan.ts";
import { walkRepository } from "../src/index/walk.ts";
import { copyFixture, prng } from "./helpers/edits.ts";
import { testDb } from "./helpers/db.ts";
import { uniqueName } from "./helpers/graph.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };

/** What JSON keeps of a value. */
const json = (v: unknown) => JSON.parse(JSON.stringify(v));

function packOne(v: unknown): unknown {
  const p = new Packer();
  p.add({ before: 1 });
  const at = p.offset();
  p.add(v);
  p.add(["after"]);
  return new PackedReader(p.pack()).at(at);
}

Deno.test("packed: values read back as JSON gives them", () => {
  const odd = {
    a: undefined,
    b: () => 1,
    c: [undefined, () => 2, Symbol("s"), NaN, -0, Infinity],
    d: { toJSON: () => ({ e: 1 }) },
    ["__proto__"]: { polluted: true },
    "0": "index-like key",
    "": "empty key",
    'a b\n"': "quoted key",
    big: 2 ** 53 - 1,
    huge: 1e300,
    neg: -123456789012,
    frac: 0.1 + 0.2,
    text: 'héllo \u{1F980} \u0000 \ud800 \n\t\\ "',
    empty: [[], {}, ""],
    flags: [true, false, null],
  };
  const back = packOne(odd) as Record<string, unknown>;
  assertEquals(back, json(odd));
  assertEquals(Object.getPrototypeOf(back), Object.prototype);
  assertEquals(Object.keys(back), Object.keys(json(odd)));
  const rnd = prng(7);
  const random = (depth: number): unknown => {
    const r = rnd();
    if (depth > 3 || r < 0.3) {
      return [
        Math.floor(rnd() * 2 ** (rnd() * 45)) * (rnd() < 0.3 ? -1 : 1),
        rnd() * 1000,
        String.fromCharCode(...Array.from({ length: Math.floor(rnd() * 30) }, () => rnd() * 70000)),
        rnd() < 0.5,
        null,
      ][Math.floor(rnd() * 5)];
    }
    if (r < 0.6) return Array.from({ length: Math.floor(rnd() * 6) }, () => random(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = Math.floor(rnd() * 6); i > 0; i--) {
      o[`k${Math.floor(rnd() * 9)}`] = random(depth + 1);
    }
    return o;
  };
  for (let i = 0; i < 300; i++) {
    const v = random(0);
    assertEquals(packOne(v), json(v));
  }
});

async function fixtureFacts(): Promise<{ dir: string; facts: FileFacts[] }> {
  const dir = await copyFixture(
    "python",
    "typescript",
    "go",
    "java",
    "cpp",
    "rust",
    "kotlin",
    "ruby",
  );
  const walk = await walkRepository(dir);
  const read = await readCandidates(walk.files, []);
  return { dir, facts: await analyzeParallel(read, []) };
}

Deno.test("facts store: stored facts read back equal, lazy parts and names included", async () => {
  const { dir, facts } = await fixtureFacts();
  try {
    assert(facts.length > 20);
    const back = unpackSegment(packSegment(facts));
    assertEquals(back.map((f) => f.path), facts.map((f) => f.path));
    for (const [i, f] of back.entries()) {
      // The head at once, the lazy parts when read, the names the structure needs beside them.
      const { calls, imports, inherits, hints, ...head } = json(facts[i]) as FileFacts;
      assertEquals({ ...f }, head);
      assertEquals(bareArgNames(f), bareArgNames(facts[i]));
      assertEquals([f.calls, f.imports, f.inherits, f.hints], [calls, imports, inherits, hints]);
      assertEquals(json(f), json(facts[i]));
    }
    // Packed again once read (as a rewritten segment is), the same.
    assertEquals(json(unpackSegment(packSegment(back))), json(facts));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("facts store: the name search never misses a file that mentions a name", async () => {
  const { dir, facts } = await fixtureFacts();
  try {
    const stored = unpackSegment(packSegment(facts));
    const words = new Set<string>();
    const mentioned = (f: FileFacts) => {
      const out = new Set<string>();
      const add = (t?: string) => t?.split(/[^\p{L}\p{N}_$@!?]+/u).forEach((w) => w && out.add(w));
      for (const c of f.calls) [c.name, c.receiver, ...(c.argTypes ?? [])].forEach(add);
      for (const h of f.hints) [h.type, h.expr, h.variable].forEach(add);
      for (const i of f.inherits) [i.name, i.ownerName].forEach(add);
      for (const i of f.imports) [i.name, i.alias, i.source].forEach(add);
      for (const d of f.defs) add(d.owner);
      return out;
    };
    const byFile = facts.map(mentioned);
    byFile.forEach((m) => m.forEach((w) => words.add(w)));
    const sample = [...words].filter((w, i) => i % 7 === 0 || /[^\w]/.test(w));
    assert(sample.length > 20 && sample.some((w) => /[?!@$]/.test(w)), sample.join(" "));
    // One name at a time, and all of them at once (a search tests many names in one pass).
    for (const names of [...sample.map((n) => [n]), sample]) {
      const set = new Set(names);
      for (const [i, f] of stored.entries()) {
        const hit = names.find((n) => byFile[i].has(n));
        if (hit) assert(mayMention(f, set), `${f.path} mentions ${hit}`);
      }
    }
    // A name no file has is found nowhere, and fresh facts are not answered for.
    const none = new Set(["zz_no_such_name_zz"]);
    assert(stored.every((f) => mayMention(f, none) === false));
    assertEquals(mayMention(facts[0], none), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "facts store: segments written run after run load back the facts as they are",
  ...opts,
}, async () => {
  const db = await testDb();
  const key = `${uniqueName("facts-store")}_facts`;
  const { dir, facts } = await fixtureFacts();
  const rnd = prng(3);
  try {
    const pool = facts;
    // Start with half the files; each run adds, changes (a copy with another hash) and removes.
    let current = new Map(pool.slice(0, pool.length >> 1).map((f) => [f.path, f]));
    let layout = await writeAll(db, key, current);
    let serial = 0;
    for (let run = 0; run < 40; run++) {
      const next = new Map(current);
      const changed: string[] = [];
      const gone: string[] = [];
      for (let k = 0; k < 1 + Math.floor(rnd() * 4); k++) {
        const f = pool[Math.floor(rnd() * pool.length)];
        const r = rnd();
        if (r < 0.2 && next.has(f.path)) {
          next.delete(f.path);
          gone.push(f.path);
        } else {
          const copy = { ...json(f), hash: `h${serial++}`, lines: Math.floor(rnd() * 100) };
          next.set(f.path, copy);
          changed.push(f.path);
        }
      }
      layout = await writeChanged(
        db,
        key,
        layout,
        next,
        [...new Set(changed)].filter((p) => next.has(p)),
        gone.filter((p) => !next.has(p)),
      );
      current = next;
      const hashes = new Map([...current].map(([p, f]) => [p, f.hash]));
      const loaded = await loadFacts(db, key, hashes);
      assert(loaded, `run ${run}: facts missing`);
      assertEquals(
        [...loaded.facts.keys()].sort(),
        [...current.keys()].sort(),
        `run ${run}: files`,
      );
      for (const [p, f] of current) assertEquals(json(loaded.facts.get(p)), json(f), p);
      // The layout as loaded is the layout as written.
      assertEquals(
        [...loaded.layout.segmentOf].sort(),
        [...layout.segmentOf].sort(),
        `run ${run}: layout`,
      );
      const segments = Number(await db.command(["HLEN", key]));
      assert(segments <= 12 + Math.ceil(current.size / 125), `run ${run}: ${segments} segments`);
    }
    // Segments whose bare argument names another rule computed (another cgraph wrote them): the
    // names are computed from the calls, and the next write rewrites every segment.
    const fields = await db.hashGetAll(key);
    for (const [field, text] of Object.entries(fields)) {
      await db.hashSet(key, { [field]: text.replace(/^F1 \S+ /, "F1 another ") });
    }
    const hashes = new Map([...current].map(([p, f]) => [p, f.hash]));
    const old = await loadFacts(db, key, hashes);
    assert(old?.layout.stale);
    for (const [p, f] of current) {
      assertEquals(bareArgNames(old.facts.get(p)!), bareArgNames(f), p);
      assertEquals(json(old.facts.get(p)), json(f), p);
    }
    await writeChanged(db, key, old.layout, old.facts, [], []);
    const rewritten = await loadFacts(db, key, hashes);
    assertEquals(rewritten?.layout.stale, undefined);
    for (const [p, f] of current) assertEquals(json(rewritten!.facts.get(p)), json(f), p);
    // A file whose stored hash is not its current one is missing: the caller indexes in full.
    const wrong = new Map([...current].map(([p, f]) => [p, f.hash]));
    wrong.set([...wrong.keys()][0], "another");
    assertEquals(await loadFacts(db, key, wrong), undefined);
  } finally {
    await db.command(["DEL", key]);
    await Deno.remove(dir, { recursive: true });
  }
});
