/**
 * The query tools against a real FalkorDB: every fixture with a contract (callers, callees, paths,
 * imports, extends, implements, definitions, decoys) answered through the tools themselves, then
 * the answers' text, ambiguity, suggestions, errors, clamping, staleness, automatic indexing,
 * index_file and cycles.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { basename, join } from "node:path";
import { CgraphError, describeError } from "../src/errors.ts";
import { Session } from "../src/query/session.ts";
import { execute } from "../src/tools/execute.ts";
import { toolByName, TOOLS } from "../src/tools/registry.ts";
import { type Contract, readContract } from "./helpers/contract.ts";
import { testDb } from "./helpers/db.ts";
import { dropProject, indexAs, uniqueName } from "./helpers/graph.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url).pathname;
const opts = { sanitizeOps: false, sanitizeResources: false };

const fixtureDirs = [...Deno.readDirSync(FIXTURES)]
  .filter((e) => e.isDirectory)
  .map((e) => e.name)
  .filter((name) => {
    try {
      return Deno.statSync(join(FIXTURES, name, "expected.yaml")).isFile;
    } catch {
      return false;
    }
  })
  .sort();

type Json = Record<string, unknown>;
type NodeJson = { qualified_name: string; kind: string; path: string; line: number };
type GroupJson = { target: NodeJson; links: { node: NodeJson }[]; total: number };

function session(
  defaultPath: string,
  extra: Partial<ConstructorParameters<typeof Session>[0]> = {},
) {
  // The test database is shared: the session must not close it (it is never closed here).
  return new Session({ defaultPath, connect: testDb, cacheMs: 0, ...extra });
}

async function call(s: Session, tool: string, args: Json): Promise<string> {
  const def = toolByName(tool);
  assert(def, `no tool ${tool}`);
  return (await execute(def, s, args)).text;
}

async function callJson(s: Session, tool: string, args: Json): Promise<Json> {
  const def = toolByName(tool)!;
  const out = await execute(def, s, { ...args, format: "json" });
  assert(out.json, "format json gives a JSON object");
  assertEquals(out.json, JSON.parse(out.text));
  return out.json;
}

async function callError(s: Session, tool: string, args: Json): Promise<string> {
  try {
    await call(s, tool, args);
  } catch (err) {
    assert(err instanceof CgraphError, `expected a CgraphError, got ${err}`);
    return describeError(err);
  }
  throw new Error(`${tool} ${JSON.stringify(args)} did not fail`);
}

/**
 * The groups answering exactly `qualified` (a symbol's qualified name or a file's path), as one:
 * a C++ method declared in a header and defined in a source file is two nodes with one name.
 */
function groupFor(data: Json, qualified: string): GroupJson {
  const groups = (data.groups as GroupJson[]).filter((x) => x.target.qualified_name === qualified);
  assert(groups.length, `no group for ${qualified} in ${JSON.stringify(data).slice(0, 300)}`);
  return {
    target: groups[0].target,
    links: groups.flatMap((g) => g.links),
    total: groups.reduce((n, g) => n + g.total, 0),
  };
}

const sorted = (xs: string[]) => [...new Set(xs)].sort();
const names = (g: GroupJson) => sorted(g.links.map((l) => l.node.qualified_name));

async function checkContractThroughTools(s: Session, base: Json, c: Contract): Promise<string[]> {
  const problems: string[] = [];
  const same = (what: string, expected: string[], actual: string[]) => {
    const exp = sorted(expected);
    if (JSON.stringify(exp) !== JSON.stringify(actual)) {
      problems.push(`${what}: expected [${exp.join(", ")}], got [${actual.join(", ")}]`);
    }
  };
  for (const [q, d] of Object.entries(c.definitions ?? {})) {
    const data = await callJson(s, "find_symbol", { ...base, name: q });
    const found = data.matches as NodeJson[];
    if (
      !found.some((n) => n.kind === d.kind && n.path === d.path && (!d.line || n.line === d.line))
    ) {
      problems.push(`find_symbol ${q}: got ${JSON.stringify(found)}`);
    }
  }
  for (const [from, list] of Object.entries(c.callees ?? {})) {
    const data = await callJson(s, "get_callees", { ...base, symbol: from, limit: 500 });
    same(`get_callees ${from}`, list, names(groupFor(data, from)));
  }
  for (const [to, list] of Object.entries(c.callers ?? {})) {
    const data = await callJson(s, "get_callers", { ...base, symbol: to, limit: 500 });
    same(`get_callers ${to}`, list, names(groupFor(data, to)));
  }
  for (const [from, to] of c.absent ?? []) {
    const data = await callJson(s, "get_callees", { ...base, symbol: from, limit: 500 });
    if (names(groupFor(data, from)).includes(to)) problems.push(`decoy ${from} -> ${to} present`);
  }
  for (
    const [rel, entries] of [
      ["IMPORTS", c.imports],
      ["EXTENDS", c.extends],
      ["IMPLEMENTS", c.implements],
    ] as const
  ) {
    for (const [from, list] of Object.entries(entries ?? {})) {
      const arg = rel === "IMPORTS" ? { file: from } : { symbol: from };
      const data = await callJson(s, "get_dependencies", {
        ...base,
        ...arg,
        relations: [rel],
        direction: "OUT",
        limit: 500,
      });
      same(`get_dependencies ${rel} ${from}`, list, names(groupFor(data, from)));
    }
  }
  for (const p of c.paths ?? []) {
    const data = await callJson(s, "find_path", { ...base, from: p.from, to: p.to, limit: 20 });
    const paths = (data.paths as { length: number; hops: { node: NodeJson }[] }[]).map((x) =>
      x.hops.map((h) => h.node.qualified_name)
    );
    if (!paths.length) problems.push(`find_path ${p.from} -> ${p.to}: no path`);
    else if (paths[0].length !== p.path.length) {
      problems.push(`find_path ${p.from} -> ${p.to}: shortest ${paths[0].join(" -> ")}`);
    } else if (!paths.some((x) => x.join(" ") === p.path.join(" "))) {
      problems.push(`find_path ${p.from} -> ${p.to}: ${p.path.join(" -> ")} not among ${paths}`);
    }
  }
  return problems;
}

for (const lang of fixtureDirs) {
  Deno.test({ name: `tools answer the ${lang} fixture contract`, ...opts }, async () => {
    const db = await testDb();
    const project = uniqueName(`t-${lang}`);
    const dir = join(FIXTURES, lang);
    try {
      await indexAs(db, dir, project);
      const s = session(dir);
      const problems = await checkContractThroughTools(
        s,
        { project, branch: "test" },
        await readContract(dir),
      );
      assertEquals(problems, [], `${lang}:\n${problems.join("\n")}`);
    } finally {
      await dropProject(db, project);
    }
  });
}

// ---- the Python fixture in detail --------------------------------------------------------------

const PY = join(FIXTURES, "python");

async function withPython(fn: (s: Session, base: Json, project: string) => Promise<void>) {
  const db = await testDb();
  const project = uniqueName("t-py");
  try {
    await indexAs(db, PY, project);
    await fn(session(PY), { project, branch: "test" }, project);
  } finally {
    await dropProject(db, project);
  }
}

Deno.test({ name: "text answers: header line, then one result per line", ...opts }, async () => {
  await withPython(async (s, base) => {
    assertEquals(
      await call(s, "get_callers", { ...base, symbol: "shop.db.store" }),
      [
        "callers (depth 1) of shop.db.store (function, shop/db.py:13): 2 callers",
        "shop/models.py:14 | User.save | method | at 16",
        "shop/service.py:18 | UserService._audit | method | at 19",
      ].join("\n"),
    );
    const callees = (await call(s, "get_callees", { ...base, symbol: "main.main" })).split("\n");
    assertEquals(callees[0], "callees (depth 1) of main.main (function, main.py:6): 5 callees");
    assert(callees.includes("shop/db.py:6 | connect | function | at 10"));

    const sym = await call(s, "find_symbol", { ...base, name: "UserService.register" });
    assertEquals(sym.split("\n"), [
      "UserService.register: 1 definition",
      "shop/service.py:12-16 | UserService.register(self, name) | method",
    ]);

    const path = await call(s, "find_path", {
      ...base,
      from: "main.main",
      to: "shop.db.Database.insert",
      limit: 1,
    });
    assertEquals(path.split("\n"), [
      "call paths main.main -> shop.db.Database.insert (max depth 6): 1 path; truncated: more paths exist (limit 1)",
      "2 | main.main -> shop.service.UserService.register -> shop.db.Database.insert",
    ]);

    const refs = (await call(s, "find_references", { ...base, symbol: "shop.models.User" }))
      .split("\n");
    assertEquals(refs[0], "references to shop.models.User (class, shop/models.py:5): 3 references");
    assert(refs.includes("shop/service.py:13 | call | UserService.register | method"));
    assert(refs.includes("shop/service.py:3 | import | shop/service.py"));
    assert(refs.includes("shop/models.py:19 | extends | Admin | class"));

    const impact = (await call(s, "impact_analysis", { ...base, symbol: "shop.db.store" }))
      .split("\n");
    assertEquals(
      impact[0],
      "impact (IN, depth 3) of shop.db.store (function, shop/db.py:13): 6 symbols in 3 files (d1 2, d2 2, d3 2)",
    );
    // Grouped by file: a file with several lines says its path once, on a `path:` line.
    assertEquals(impact.slice(1), [
      "shop/models.py:",
      "14 | User.save | method | d1",
      "22 | Admin.promote | method | d2",
      "shop/service.py:",
      "18 | UserService._audit | method | d1",
      "12 | UserService.register | method | d2",
      "22 | UserService.promote | method | d3",
      "main.py:6 | main | function | d3",
    ]);

    const subclass = await call(s, "impact_analysis", { ...base, symbol: "User", depth: 1 });
    assert(subclass.includes("shop/models.py:19 | Admin | class | d1 extends"));

    const ctx = (await call(s, "get_context", { ...base, symbol: "shop.models.User.save" }))
      .split("\n");
    assertEquals(ctx[0], "context of shop.models.User.save (method, shop/models.py:14)");
    for (const section of ["definition", "callers (2)", "callees (2)"]) {
      assert(ctx.includes(`--- ${section} ---`), section);
    }
    assert(ctx.some((l) => l.startsWith("--- parents/children")));
    assert(ctx.some((l) => l.startsWith("--- imports")));
    assert(ctx.includes("doc: Store the user."));
    assert(ctx.includes("defined in | shop/models.py:5 | User | class"));

    const search = (await call(s, "search_code", { ...base, query: "user" })).split("\n");
    assert(search[0].startsWith("search 'user': "));
    assertEquals(search[1], "shop/models.py:5 | User | class | exact");
    assertEquals(search[2], "shop/service.py:6 | UserService | class | prefix");
    const camel = (await call(s, "search_code", { ...base, query: "name display" })).split("\n");
    assertEquals(
      camel[1],
      "shop/models.py:11 | User.display_name | method | name words",
    );
    const doc = await call(s, "search_code", { ...base, query: "rights" });
    assert(doc.includes("Admin | class | doc"));
    const kinds = await callJson(s, "search_code", { ...base, query: "promote", kind: "method" });
    assertEquals(
      (kinds.hits as { node: NodeJson }[]).map((h) => h.node.qualified_name).sort(),
      ["shop.models.Admin.promote", "shop.service.UserService.promote"],
    );

    const stats = (await call(s, "get_stats", base)).split("\n");
    assert(
      /: 7 files, 21 symbols, 54 edges; indexed \d+s ago( at [0-9a-f]{10})?$/.test(stats[0]),
      stats[0],
    );
    assertEquals(stats.slice(1), [
      "files | python 7",
      "symbols | Method 10, Function 7, Class 4",
      "edges | DEFINES 21, CALLS 20, IMPORTS 7, INSTANTIATES 5, EXTENDS 1",
    ]);

    const list = await call(s, "list_projects", { project: base.project });
    assertEquals(list.split("\n")[0], "indexed projects: 1 graph");
    assert(list.includes(`${base.project} | test | 7 files | 21 symbols`));

    assertEquals(await call(s, "detect_circular", base), "CALLS cycles: none");
  });
});

Deno.test(
  { name: "several definitions: answered for all, grouped, with how to narrow", ...opts },
  async () => {
    await withPython(async (s, base) => {
      const text = (await call(s, "get_callers", { ...base, symbol: "store" })).split("\n");
      assertEquals(text, [
        "callers (depth 1) of 'store': 2 definitions match; narrow with symbol='shop.db.store' or 'shop.decoy.store'",
        "# shop/db.py:13 | store | function: 2 callers",
        "shop/models.py:14 | User.save | method | at 16",
        "shop/service.py:18 | UserService._audit | method | at 19",
        "# shop/decoy.py:4 | store | function: 1 caller",
        "shop/decoy.py:8 | register | function | at 9",
      ]);
      // Narrowed by file (a tail of the path) or by kind.
      const narrowed = await call(s, "get_callers", { ...base, symbol: "store", file: "decoy.py" });
      assertEquals(
        narrowed.split("\n")[0],
        "callers (depth 1) of shop.decoy.store (function, shop/decoy.py:4): 1 caller",
      );
      const err = await callError(s, "find_symbol", { ...base, name: "store", kind: "Class" });
      assert(err.includes("'store' exists, but not of kind Class"), err);
      assert(err.includes("shop.db.store (Function, shop/db.py:13)"), err);
    });
  },
);

Deno.test({ name: "errors say what to do next", ...opts }, async () => {
  await withPython(async (s, base, project) => {
    // Unknown symbol: close matches.
    const typo = await callError(s, "get_callers", { ...base, symbol: "regster" });
    assert(typo.startsWith("No symbol 'regster' in the graph.\ndid you mean: "), typo);
    assert(typo.includes("shop.service.UserService.register"), typo);
    const tail = await callError(s, "find_symbol", { ...base, name: "UserSrvice.register" });
    assert(tail.includes("did you mean: shop.service.UserService.register"), tail);
    const none = await callError(s, "find_symbol", { ...base, name: "qqqqqqqq" });
    assert(none.includes("search_code"), none);

    // Unknown project / branch: what is indexed.
    const unknown = await callError(s, "get_stats", { project: `${project}-nope` });
    assert(unknown.includes(`Project '${project}-nope' is not indexed. Indexed: `), unknown);
    assert(unknown.includes(`${project} (test)`), unknown);
    const branch = await callError(s, "get_stats", { project, branch: "nope" });
    assert(branch.includes("(branch nope) is not indexed"), branch);
    assert(branch.includes(`${project} (test)`), branch);

    // Bad arguments.
    const badDepth = await callError(s, "get_callers", { ...base, symbol: "main", depth: "x" });
    assert(badDepth.startsWith("Invalid arguments for get_callers: depth:"), badDepth);
    const extra = await callError(s, "get_callers", { ...base, symbol: "main", bogus: 1 });
    assert(extra.includes("bogus"), extra);
    const rel = await callError(s, "get_dependencies", {
      ...base,
      symbol: "main",
      relations: ["X"],
    });
    assert(rel.startsWith("Invalid arguments for get_dependencies: relations"), rel);
    const kind = await callError(s, "search_code", { ...base, query: "user", kind: "Bogus" });
    assert(kind.includes("Use one of: Function, Method"), kind);
    const empty = await callError(s, "search_code", { ...base, query: "__" });
    assert(empty.includes("Nothing to search for"), empty);
    const missing = await callError(s, "get_callers", base);
    assert(missing.startsWith("Invalid arguments for get_callers: symbol"), missing);
  });
});

Deno.test({ name: "depths and limits are clamped, and the header says so", ...opts }, async () => {
  await withPython(async (s, base) => {
    const deep = await callJson(s, "impact_analysis", {
      ...base,
      symbol: "shop.db.connect",
      depth: 50,
    });
    assertEquals(deep.depth, 10);
    assertEquals(deep.notes, ["depth 50 clamped to 10"]);
    const text = await call(s, "get_callers", { ...base, symbol: "shop.db.connect", depth: 0 });
    assert(text.split("\n")[0].endsWith("; depth 0 clamped to 1"), text);
    const limited = (await call(s, "get_callers", {
      ...base,
      symbol: "shop.db.connect",
      depth: 10,
      limit: 2,
    })).split("\n");
    assertEquals(limited.length, 3);
    assert(/: \d+ callers; truncated: \d+ more \(offset=2\)$/.test(limited[0]), limited[0]);
    const paths = await callJson(s, "find_path", {
      ...base,
      from: "main.py",
      to: "shop.db.connect",
      max_depth: 99,
    });
    assertEquals(paths.max_depth, 10);
  });
});

Deno.test({ name: "JSON answers carry the same data, without internal ids", ...opts }, async () => {
  await withPython(async (s, base) => {
    // ask needs a model (tests/ask_test.ts plays one).
    for (const def of TOOLS.filter((t) => t.annotations.readOnlyHint && t.name !== "ask")) {
      const args: Json = { ...base };
      if ("cypher" in def.shape) args.cypher = "MATCH (s:Symbol {name: 'save'}) RETURN s, s.id";
      if ("symbol" in def.shape) args.symbol = "shop.models.User.save";
      if ("name" in def.shape) args.name = "save";
      if ("query" in def.shape) args.query = "save";
      if ("from" in def.shape) Object.assign(args, { from: "main.main", to: "shop.db.store" });
      const data = await callJson(s, def.name, args);
      assert(typeof data.type === "string", def.name);
      assert(!JSON.stringify(data).includes('"id":'), `${def.name} leaks ids`);
    }
  });
});

// ---- a writable copy: staleness, auto-index, index_file, cycles -------------------------------

async function tempCopy(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-query-" });
  for (
    const f of [
      "main.py",
      "broken.py",
      "shop/__init__.py",
      "shop/db.py",
      "shop/decoy.py",
      "shop/models.py",
      "shop/service.py",
    ]
  ) {
    await Deno.mkdir(join(dir, f, ".."), { recursive: true });
    await Deno.copyFile(join(PY, f), join(dir, f));
  }
  return dir;
}

Deno.test({ name: "first use indexes automatically; stale graphs say so", ...opts }, async () => {
  const db = await testDb();
  const project = uniqueName("t-auto");
  const dir = await tempCopy();
  try {
    const s = session(dir, { project });
    const first = await call(s, "get_callers", { symbol: "shop.db.connect" });
    assert(first.split("\n")[0].endsWith("; indexed now (first use): 7 files"), first);
    const fresh = await call(s, "get_callers", { symbol: "shop.db.connect" });
    assert(!fresh.includes("stale"), fresh);

    await Deno.writeTextFile(join(dir, "shop/db.py"), "\n\ndef vacuum():\n    return connect()\n", {
      append: true,
    });
    // mtime granularity: make sure the edit is later than the indexing time.
    const later = new Date(Date.now() + 5000);
    await Deno.utime(join(dir, "shop/db.py"), later, later);
    const stale = await call(s, "get_callers", { symbol: "shop.db.connect" });
    assert(
      stale.split("\n")[0].endsWith("; stale: 1 file changed since indexing; call index_repo"),
      stale,
    );
    const staleJson = await callJson(s, "get_stats", {});
    assertEquals(staleJson.notes, ["stale: 1 file changed since indexing; call index_repo"]);

    const reindexed = await call(s, "index_file", { file: join(dir, "shop/db.py") });
    assertEquals(
      reindexed.replace(/ in \d+ ms:/, " in N ms:"),
      "index_file shop/db.py: modified; incremental index in N ms: 1 file changed (~shop/db.py) of 7",
    );
    const after = await call(s, "get_callers", { symbol: "shop.db.connect" });
    assert(!after.includes("stale"), after);
    assertEquals(after.split("\n").slice(1), [
      "main.py:6 | main | function | at 10",
      "shop/db.py:",
      "13 | store | function | at 16",
      "31 | vacuum | function | at 32",
    ]);

    const unchanged = await call(s, "index_file", { file: "shop/models.py" });
    assert(unchanged.startsWith("index_file shop/models.py: unchanged"), unchanged);
    const missing = await callError(s, "index_file", { file: "nope.py" });
    assert(missing.includes("No file 'nope.py'"), missing);

    const full = await call(s, "index_repo", { full: true });
    assert(full.includes("| mode full |"), full);
    const inc = await call(s, "index_repo", {});
    assert(inc.includes("| mode incremental |"), inc);
  } finally {
    await dropProject(db, project);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test(
  { name: "with automatic indexing off, an unindexed project is an error", ...opts },
  async () => {
    const db = await testDb();
    const project = uniqueName("t-noauto");
    const dir = await tempCopy();
    try {
      const s = session(dir, { project, autoIndex: false });
      const err = await callError(s, "get_callers", { symbol: "main" });
      assert(err.includes("is not indexed yet (automatic indexing is off)"), err);
      assert(err.includes("Call index_repo"), err);
      assert(!(await db.listGraphs()).some((g) => g.includes(project)));
    } finally {
      await dropProject(db, project);
      await Deno.remove(dir, { recursive: true });
    }
  },
);

Deno.test(
  {
    name: "cycles: components, the shortest cycle through each member, the edge to break",
    ...opts,
  },
  async () => {
    const db = await testDb();
    const project = uniqueName("t-cycles");
    const dir = await Deno.makeTempDir({ prefix: "cgraph-cycles-" });
    try {
      await Deno.writeTextFile(
        join(dir, "a.py"),
        "from b import beta\n\n\ndef alpha(n):\n    return beta(n)\n",
      );
      await Deno.writeTextFile(
        join(dir, "b.py"),
        "from a import alpha\nfrom c import gamma\n\n\ndef beta(n):\n    return alpha(n) + gamma(n)\n",
      );
      await Deno.writeTextFile(
        join(dir, "c.py"),
        "from a import alpha\n\n\ndef gamma(n):\n    return delta(n)\n\n\ndef delta(n):\n    return alpha(n)\n",
      );
      await indexAs(db, dir, project);
      const s = session(dir);
      const base = { project, branch: "test" };
      const calls = (await call(s, "detect_circular", base)).split("\n");
      assertEquals(calls, [
        "CALLS cycles: 1 strongly connected component (4 symbols), largest first",
        "# 4 symbols | a.alpha, b.beta, c.delta, c.gamma",
        "2 | a.alpha -> b.beta -> a.alpha",
        "4 | a.alpha -> b.beta -> c.gamma -> c.delta -> a.alpha",
        "break first | a.alpha -> b.beta (in 2 of 2 cycles)",
      ]);
      const imports = (await call(s, "detect_circular", { ...base, relation: "IMPORTS" })).split(
        "\n",
      );
      assertEquals(imports, [
        "IMPORTS cycles: 1 strongly connected component (3 files), largest first; " +
        "counted: imports that run when a file loads",
        "# 3 files | a.py, b.py, c.py",
        "2 | a.py -> b.py -> a.py",
        "3 | a.py -> b.py -> c.py -> a.py",
        "break first | a.py -> b.py (in 2 of 2 cycles)",
      ]);
    } finally {
      await dropProject(db, project);
      await Deno.remove(dir, { recursive: true });
    }
  },
);

// ---- traversals against an independent breadth-first search ------------------------------------

/** A deterministic pseudo-random generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

for (const seed of [1, 2, 3]) {
  Deno.test(
    { name: `paths, impact and callers match a plain BFS (seed ${seed})`, ...opts },
    async () => {
      const db = await testDb();
      const project = uniqueName("t-bfs");
      const dir = await Deno.makeTempDir({ prefix: "cgraph-bfs-" });
      try {
        const rand = rng(seed);
        const n = 40;
        const edges = new Map<number, Set<number>>();
        let src = "";
        for (let i = 0; i < n; i++) {
          const out = new Set<number>();
          const k = Math.floor(rand() * 4);
          while (out.size < k) {
            const j = Math.floor(rand() * n);
            if (j !== i) out.add(j);
          }
          edges.set(i, out);
          const body = [...out].map((j) => `    f${j}()\n`).join("") || "    return 0\n";
          src += `def f${i}():\n${body}\n\n`;
        }
        await Deno.writeTextFile(join(dir, "m.py"), src);
        await indexAs(db, dir, project);
        const s = session(dir);
        const base = { project, branch: "test" };
        const dist = (from: number, reverse: boolean): Map<number, number> => {
          const d = new Map([[from, 0]]);
          let frontier = [from];
          while (frontier.length) {
            const next: number[] = [];
            for (const a of frontier) {
              const outs = reverse
                ? [...edges].filter(([, o]) => o.has(a)).map(([b]) => b)
                : [...edges.get(a)!];
              for (const b of outs) if (!d.has(b)) (d.set(b, d.get(a)! + 1), next.push(b));
            }
            frontier = next;
          }
          return d;
        };
        let connected = 0;
        for (let t = 0; t < 12; t++) {
          const a = Math.floor(rand() * n);
          const forward = dist(a, false);
          // Half the pairs connected (when anything is reachable), half at random.
          const reachable = [...forward.keys()].filter((x) => x !== a);
          const b = t % 2 === 0 && reachable.length
            ? reachable[Math.floor(rand() * reachable.length)]
            : Math.floor(rand() * n);
          if (forward.has(b) && b !== a) connected++;
          const data = await callJson(s, "find_path", {
            ...base,
            from: `m.f${a}`,
            to: `m.f${b}`,
            max_depth: 10,
            limit: 5,
          });
          const paths = data.paths as { length: number; hops: { node: NodeJson }[] }[];
          const expected = a === b ? undefined : forward.get(b);
          if (expected === undefined || expected > 10) {
            assertEquals(paths.length, 0, `f${a} -> f${b}`);
          } else {
            assertEquals(paths[0]?.length, expected, `shortest f${a} -> f${b}`);
            let last = 0;
            for (const p of paths) {
              const ids = p.hops.map((h) => Number(h.node.qualified_name.slice(3)));
              assertEquals(new Set(ids).size, ids.length, "simple path");
              assertEquals(ids[0], a);
              assertEquals(ids[ids.length - 1], b);
              for (let i = 1; i < ids.length; i++) assert(edges.get(ids[i - 1])!.has(ids[i]));
              assert(p.length >= last, "shortest first");
              last = p.length;
            }
          }
          for (const depth of [1, 3]) {
            const into = dist(b, true);
            const want = [...into].filter(([x, d]) => x !== b && d <= depth).map(([x, d]) =>
              `m.f${x}@${d}`
            )
              .sort();
            const impact = await callJson(s, "impact_analysis", {
              ...base,
              symbol: `m.f${b}`,
              depth,
            });
            const got =
              ((impact.groups as { files: { links: { node: NodeJson; depth: number }[] }[] }[])[0]
                .files.flatMap((f) => f.links))
                .filter((l) => l.node.kind !== "File")
                .map((l) => `${l.node.qualified_name}@${l.depth}`).sort();
            assertEquals(got, want, `impact of f${b} depth ${depth}`);
            const callers = await callJson(s, "get_callers", { ...base, symbol: `m.f${b}`, depth });
            const names = (callers.groups as GroupJson[])[0].links
              .filter((l) => l.node.kind !== "File").map((l) => l.node.qualified_name).sort();
            assertEquals(names, want.map((x) => x.split("@")[0]).sort());
          }
        }
        assert(connected >= 3, `only ${connected} connected pairs`);
      } finally {
        await dropProject(db, project);
        await Deno.remove(dir, { recursive: true });
      }
    },
  );
}

Deno.test(
  { name: "string arguments: NUL, direction overrides and huge strings refused", ...opts },
  async () => {
    await withPython(async (s, base) => {
      const nul = await callError(s, "get_callers", { ...base, symbol: "a\u0000b" });
      assert(nul.includes("symbol: control or direction character U+0000"), nul);
      const bidi = await callError(s, "search_code", { ...base, query: "store\u202e" });
      assert(bidi.includes("U+202e"), bidi);
      const huge = await callError(s, "get_callers", { ...base, symbol: "x".repeat(1_000_000) });
      assert(huge.includes("symbol: at most 1000 characters"), huge);
      assert(huge.length < 300, "the input is not echoed");
      const long = await callError(s, "get_callers", { ...base, symbol: "y".repeat(900) });
      assert(long.length < 600, `a missing name is quoted short: ${long.length}`);
    });
  },
);

Deno.test({ name: "a branch argument must name one the repository has", ...opts }, async () => {
  const db = await testDb();
  const dir = await Deno.makeTempDir({ prefix: "cgraph-branches-" });
  const run = (...args: string[]) =>
    new Deno.Command("git", { args: ["-C", dir, ...args], stdout: "null", stderr: "null" })
      .output();
  try {
    await Deno.writeTextFile(`${dir}/a.py`, "def f():\n    return 1\n");
    await run("init", "-q", "-b", "main");
    await run("-c", "user.name=t", "-c", "user.email=t@t", "add", ".");
    await run("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "one");
    await run("branch", "feature");
    const s = new Session({ defaultPath: dir, connect: testDb, cacheMs: 0 });
    const before = (await db.listGraphs()).length;
    for (const junk of ["junk1", "junk2", "--all"]) {
      const msg = await callError(s, "get_stats", { branch: junk });
      assert(msg.includes(`No branch, tag or commit '${junk}'`), msg);
    }
    assertEquals((await db.listGraphs()).length, before, "no graph was built for junk");
    const ok = await call(s, "get_stats", { branch: "feature" });
    assert(ok.includes("feature"), ok);
    await dropProject(db, basename(dir));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({ name: "callers of an overload set: one symbol, callers merged", ...opts }, async () => {
  const db = await testDb();
  const project = uniqueName("q-overloads");
  await indexAs(db, join(FIXTURES, "annotated/java"), project);
  try {
    const s = session(join(FIXTURES, "annotated/java"));
    const text = await call(s, "get_callers", {
      project,
      branch: "test",
      symbol: "shop.r3.Printer.print",
    });
    const head = text.split("\n")[0];
    assert(/^callers \(depth 1\) of shop\.r3\.Printer\.print \(method, /.test(head), head);
    assert(/overloads, merged/.test(head), head);
    assert(!/definitions match/.test(text), text);
  } finally {
    await dropProject(db, project);
  }
});
