/**
 * get_schema, query_graph and ask in-process, against a real FalkorDB and the indexed Python
 * fixture, with the model played by a local OpenAI-compatible server (tests/helpers/fake_llm.ts)
 * reached through the real provider library: the read-only guard (tokens, writes, procedures,
 * statements), schema validation (labels, types, properties, directions), LIMIT, the worked
 * examples, timeouts, the row cap, the ask loop (happy path, retries with the error fed back,
 * hostile outputs refused with the graph unchanged, empty results), sampling, no model, a hung model.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { extractCypher } from "../src/ask/ask.ts";
import { serverModel } from "../src/ask/llm.ts";
import { EXAMPLES } from "../src/ask/ontology.ts";
import { runReadOnly } from "../src/ask/run.ts";
import { guardReadOnly, knownSchema, validateCypher } from "../src/ask/validate.ts";
import type { Db } from "../src/db/client.ts";
import { CgraphError, describeError } from "../src/errors.ts";
import { keysFor } from "../src/project/names.ts";
import { type CallOptions, Session } from "../src/query/session.ts";
import { execute } from "../src/tools/execute.ts";
import { toolByName } from "../src/tools/registry.ts";
import { testDb } from "./helpers/db.ts";
import { cypherReply, fakeLlm, textOf, wantsCypher } from "./helpers/fake_llm.ts";
import { dropProject, indexAs, uniqueName } from "./helpers/graph.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const PY = join(ROOT, "fixtures/python");
const opts = { sanitizeOps: false, sanitizeResources: false };
type Json = Record<string, unknown>;

const MODEL_VARS = [
  "MODEL_NAME",
  "LLM_API_KEY",
  "LLM_BASE_URL",
  "OPENAI_API_KEY",
  "CGRAPH_LLM_TIMEOUT_MS",
  "CGRAPH_QUERY_TIMEOUT_MS",
];

/** Runs `fn` with these model variables set (and every other one of MODEL_VARS unset). */
async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const saved = new Map(MODEL_VARS.map((k) => [k, Deno.env.get(k)]));
  for (const k of MODEL_VARS) Deno.env.delete(k);
  for (const [k, v] of Object.entries(vars)) Deno.env.set(k, v);
  try {
    return await fn();
  } finally {
    for (const [k, v] of saved) v === undefined ? Deno.env.delete(k) : Deno.env.set(k, v);
  }
}

/** An indexed Python fixture and a session on it, for the duration of `fn`. */
async function withProject(fn: (s: Session, db: Db, graph: string) => Promise<void>) {
  const db = await testDb();
  const project = uniqueName("t-ask");
  await indexAs(db, PY, project);
  const s = new Session({ defaultPath: PY, project, branch: "test", connect: testDb, cacheMs: 0 });
  try {
    await fn(s, db, keysFor(project, "test").graph);
  } finally {
    await dropProject(db, project);
  }
}

async function run(s: Session, tool: string, args: Json, call: CallOptions = {}) {
  return await execute(toolByName(tool)!, s, args, call);
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    assert(err instanceof CgraphError, `expected a CgraphError, got ${err}`);
    return describeError(err);
  }
  throw new Error("did not fail");
}

/** Everything that could change: node and edge counts per label / type, and the indexes. */
async function fingerprint(db: Db, graph: string): Promise<string> {
  const ro = { readOnly: true };
  const nodes = await db.query(graph, "MATCH (n) RETURN labels(n) AS l, count(n) AS c", {}, ro);
  const edges = await db.query(
    graph,
    "MATCH ()-[e]->() RETURN type(e) AS t, count(e) AS c",
    {},
    ro,
  );
  const idx = await db.query(graph, "CALL db.indexes() YIELD label, properties RETURN *", {}, ro);
  const props = await db.query(
    graph,
    "MATCH (s:Symbol) RETURN s.qualified_name AS q, s.line AS l ORDER BY q, l",
    {},
    ro,
  );
  const sort = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).sort();
  return JSON.stringify([sort(nodes), sort(edges), sort(idx), props]);
}

// ---- the guard and the validator (no database) ------------------------------------------------

const SCHEMA = knownSchema();

Deno.test("guard: writes, procedure calls and statements are refused on tokens", () => {
  const refused = [
    "MATCH (n) DETACH DELETE n",
    "MATCH (n) DELETE n",
    "CREATE (:File {path: 'x'})",
    "MERGE (f:File {path: 'x'}) RETURN f",
    "MATCH (s:Symbol) SET s.name = 'x'",
    "MATCH (s:Symbol) REMOVE s.doc",
    "DROP INDEX ON :Symbol(name)",
    "CREATE INDEX FOR (s:Symbol) ON (s.doc)",
    "FOREACH (x IN [1] | CREATE (:File))",
    "LOAD CSV FROM 'file:///etc/passwd' AS r RETURN r",
    "CALL db.idx.fulltext.drop('Symbol')",
    "CALL db.idx.fulltext.createNodeIndex('Symbol', 'doc')",
    "call DB.IDX.FULLTEXT.DROP('Symbol')",
    "MATCH (n) RETURN n; MATCH (m) DELETE m",
    "MATCH (n) RETURN n; MATCH (m) RETURN m",
    "MATCH (n) /* hidden */ DELETE n",
    "MATCH (n) WITH n CALL { WITH n DETACH DELETE n } RETURN 1",
    "MATCH (s:Symbol) WITH s, 'x' AS t set s.name = t",
  ];
  for (const q of refused) {
    const err = (() => {
      try {
        guardReadOnly(q);
      } catch (e) {
        return e;
      }
    })();
    assert(err instanceof CgraphError, `not refused: ${q}`);
    assert(/^Refused: /.test(err.message), `${q}: ${err.message}`);
  }
  const allowed = [
    "MATCH (s:Symbol) WHERE s.name = 'DELETE' RETURN s.name",
    'MATCH (s:Symbol) WHERE s.doc CONTAINS "CREATE (n); DROP" RETURN s.name',
    "MATCH (s:Symbol) // SET s.name = 1\nRETURN s.name",
    "MATCH (s:Symbol) /* DETACH DELETE s */ RETURN s.name",
    "MATCH (s:Symbol) RETURN s.`set`, {delete: 1, create: 2} AS m",
    "MATCH (s:Symbol) RETURN s.name;",
    "CALL db.labels()",
    "CALL db.idx.fulltext.queryNodes('Symbol', 'user') YIELD node RETURN node.name",
    "MATCH (a:Symbol), (b:Symbol) WITH a, b LIMIT 1 CALL { WITH a RETURN a.name AS n } RETURN n",
  ];
  for (const q of allowed) guardReadOnly(q);
  // Unterminated strings or comments are syntax errors, never passed on.
  for (const q of ["MATCH (n) RETURN 'x", "MATCH (n) /* RETURN n", "MATCH (`n) RETURN 1"]) {
    assert.throws(() => guardReadOnly(q), /Invalid query: Unterminated/);
  }
});

Deno.test("validate: labels, types, properties and directions against the model", () => {
  const bad: [string, RegExp][] = [
    ["MATCH (s:Symbl) RETURN s", /unknown label :Symbl \(did you mean Symbol\?\)/],
    ["MATCH (s) WHERE s:Klass RETURN s", /unknown label :Klass/],
    ["MATCH (a)-[:CALL]->(b) RETURN a", /unknown relationship type :CALL \(did you mean CALLS\?\)/],
    ["MATCH (s:Symbol) RETURN s.file_path", /unknown property s\.file_path/],
    ["MATCH (f:File {filename: 'x'}) RETURN f", /unknown property f\.filename/],
    ["MATCH (a)-[c:CALLS]->(b) RETURN c.weight", /unknown property c\.weight/],
    ["MATCH (f:File) RETURN f.qualified_name", /unknown property f\.qualified_name/],
    [
      "MATCH (s:Symbol)-[:DEFINES]->(f:File) RETURN f",
      /no \(:Symbol\)-\[:DEFINES\]->\(:File\) edges in this graph \(the direction is reversed\)/,
    ],
    ["MATCH (f:File)<-[:DEFINES]-(s:Symbol) RETURN f", /direction is reversed/],
    ["MATCH (a:File)-[:CALLS]->(b:File) RETURN a", /no \(:File\)-\[:CALLS\]->\(:File\) edges/],
    ["MATCH (a:Class)-[:IMPORTS]->(b) RETURN a", /IMPORTS edges run \(:File\)-\[:IMPORTS\]->/],
    ["MATCH (a:Method)-[:IMPORTS*1..3]->(b) RETURN a", /no \(:Method\)-\[:IMPORTS\]->\(\) edges/],
    // A variable keeps its labels from where it was bound.
    ["MATCH (f:File) MATCH (f)-[:EXTENDS]->(b) RETURN b", /no \(:File\)-\[:EXTENDS\]->\(\)/],
    ["MATCH (f:File) WHERE NOT (f)-[:EXTENDS]->() RETURN f", /no \(:File\)-\[:EXTENDS\]->\(\)/],
    ["MATCH (s:Symbol) RETURN size((s)-[:IMPORTS]->())", /no \(:Symbol\)-\[:IMPORTS\]->\(\)/],
  ];
  for (const [q, re] of bad) {
    const err = (() => {
      try {
        validateCypher(q, SCHEMA, 100);
      } catch (e) {
        return e;
      }
    })();
    assert(err instanceof CgraphError, `accepted: ${q}`);
    assert(re.test(err.message), `${q}: ${err.message}`);
  }
  const good = [
    "MATCH (c:Class)-[:DEFINES]->(m:Method) RETURN m.name",
    "MATCH (f:File)<-[:IMPORTS]-(g:File) RETURN g.path",
    "MATCH (a)-[:CALLS]-(b:Function) RETURN a",
    "MATCH (a:Function)<-[c:CALLS {confidence: 1}]-(b) RETURN c.line, c.count",
    "MATCH (s:Symbol) RETURN s {.name, .path} AS x",
    "WITH {name: 1, other: 2} AS m RETURN m.other",
    "UNWIND [{a: 1}] AS row RETURN row.a",
    "UNWIND [{a: 1}] AS row RETURN count(row), row.a",
    "MATCH (s:Symbol) WHERE exists((s)<-[:CALLS]-()) RETURN s.name",
    "MATCH (a:Symbol), (b:Symbol) WITH shortestPath((a)-[:CALLS*1..3]->(b)) AS p RETURN p",
    "MATCH (s:Symbol) RETURN labels(s), toLower(s.name), size(s.words)",
  ];
  for (const q of good) validateCypher(q, SCHEMA, 100);
});

Deno.test("validate: a LIMIT is added when missing and lowered to the cap", () => {
  const add = validateCypher("MATCH (s:Symbol) RETURN s.name", SCHEMA, 50);
  assertEquals(add.cypher, "MATCH (s:Symbol) RETURN s.name\nLIMIT 50");
  assertEquals(add.cappedAt, 50);
  const lower = validateCypher("MATCH (s:Symbol) RETURN s.name LIMIT 9999;", SCHEMA, 50);
  assertEquals(lower.cypher, "MATCH (s:Symbol) RETURN s.name LIMIT 50");
  assertEquals(lower.notes, ["LIMIT 9999 lowered to the row cap 50"]);
  const keep = validateCypher("MATCH (s:Symbol) RETURN s.name LIMIT 5 // five", SCHEMA, 50);
  assertEquals(keep.cypher, "MATCH (s:Symbol) RETURN s.name LIMIT 5");
  assertEquals(keep.cappedAt, undefined);
  // A LIMIT inside a subquery is not the final RETURN's.
  const sub = validateCypher(
    "CALL { MATCH (s:Symbol) RETURN s LIMIT 3 } RETURN s.name",
    SCHEMA,
    10,
  );
  assert(sub.cypher.endsWith("RETURN s.name\nLIMIT 10"), sub.cypher);
});

Deno.test("extractCypher takes the fenced block, else the reply", () => {
  assertEquals(extractCypher(cypherReply("MATCH (n) RETURN n")), "MATCH (n) RETURN n");
  assertEquals(extractCypher("```\nMATCH (n) RETURN n\n```"), "MATCH (n) RETURN n");
  assertEquals(extractCypher("  MATCH (n) RETURN n  "), "MATCH (n) RETURN n");
});

Deno.test("serverModel: providers, keys, base URLs", () => {
  assertEquals(serverModel({}).llm, undefined);
  assert(serverModel({ MODEL_NAME: "openai/gpt-4o-mini", LLM_API_KEY: "k" }).llm);
  assert(serverModel({ MODEL_NAME: "anthropic/claude-x", ANTHROPIC_API_KEY: "k" }).llm);
  assert(serverModel({ MODEL_NAME: "gemini/gemini-x", LLM_API_KEY: "k" }).llm);
  assert(serverModel({ MODEL_NAME: "openrouter/meta/llama", LLM_API_KEY: "k" }).llm);
  assert(serverModel({ MODEL_NAME: "ollama/qwen2.5-coder" }).llm, "ollama needs no key");
  assert(serverModel({ MODEL_NAME: "openai/local", LLM_BASE_URL: "http://127.0.0.1:1/v1" }).llm);
  assert(serverModel({ MODEL_NAME: "mystral-7b", LLM_BASE_URL: "http://127.0.0.1:1/v1" }).llm);
  assert.match(serverModel({ MODEL_NAME: "openai/gpt" }).problem!, /needs an API key: set LLM_API/);
  assert.match(serverModel({ MODEL_NAME: "acme/x", LLM_API_KEY: "k" }).problem!, /no known/);
});

// ---- against the database ---------------------------------------------------------------------

Deno.test(
  { name: "get_schema: labels, relationships, properties with counts", ...opts },
  async () => {
    await withProject(async (s) => {
      const json = (await run(s, "get_schema", { format: "json" })).json as Json;
      const labels = json.labels as { label: string; count: number; properties: string[] }[];
      const count = (l: string) => labels.find((x) => x.label === l)?.count;
      assertEquals([count("File"), count("Symbol"), count("Method"), count("Class")], [
        7,
        21,
        10,
        4,
      ]);
      assert(labels.find((x) => x.label === "Symbol")!.properties.includes("qualified_name"));
      const rels = json.relationships as {
        from: string;
        type: string;
        to: string;
        count: number;
      }[];
      const rel = (f: string, t: string, to: string) =>
        rels.find((r) => r.from === f && r.type === t && r.to === to)?.count;
      assertEquals(rel("File", "IMPORTS", "File"), 7);
      assertEquals(rel("Symbol", "EXTENDS", "Symbol"), 1);
      assertEquals(rel("File", "CALLS", "Symbol"), 1);
      assertEquals(rel("Symbol", "INSTANTIATES", "Symbol"), 5);
      const text = (await run(s, "get_schema", {})).text;
      const lines = text.split("\n");
      assert(lines[0].includes(": 28 nodes, 54 edges"), lines[0]);
      assert(lines.includes(
        "(:File)-[:IMPORTS]->(:File) 7 | " +
          "a file imports another file of the repository (external packages are not nodes)",
      ));
      const props = json.properties as Record<string, string>;
      assert(lines.includes(`Symbol.qualified_name | ${props["Symbol.qualified_name"]}`), text);
      const examples = lines.indexOf("--- examples: question | Cypher ---");
      assert(examples > 0, text);
      assertEquals(lines.length - examples - 1, (json.examples as unknown[]).length);
      assert(lines.slice(examples + 1).every((l) => / \| MATCH /.test(l)), text);
    });
  },
);

Deno.test({ name: "the worked examples validate and run", ...opts }, async () => {
  await withProject(async (s) => {
    for (const e of EXAMPLES) {
      const out = await run(s, "query_graph", { cypher: e.cypher, format: "json" });
      assert(out.json, e.question);
    }
    const chain = EXAMPLES.find((e) => e.cypher.includes("shortestPath"))!;
    const found = await run(s, "query_graph", { cypher: chain.cypher });
    assertEquals(found.text.split("\n")[1], "[main.main, shop.db.connect] | main.py | 6");
    const callers = await run(s, "query_graph", { cypher: EXAMPLES[0].cypher });
    const lines = callers.text.split("\n");
    assertEquals(lines[0], "query_graph: 3 rows; columns: caller | path | line | callee");
    assert(
      lines.includes("shop.models.User.save | shop/models.py | 16 | shop.db.store"),
      callers.text,
    );
  });
});

Deno.test(
  { name: "query_graph: reads, params, writes refused, cap, timeout", ...opts },
  async () => {
    await withProject(async (s, db, graph) => {
      const before = await fingerprint(db, graph);
      const read = await run(s, "query_graph", {
        cypher: "MATCH (c:Class)-[:DEFINES]->(m:Method) WHERE c.name = $cls " +
          "RETURN m ORDER BY m.line",
        params: { cls: "User" },
      });
      assertEquals(read.text.split("\n"), [
        "query_graph: 3 rows; columns: m; LIMIT 200 added",
        "shop.models.User.__init__ (method, shop/models.py:8)",
        "shop.models.User.display_name (method, shop/models.py:11)",
        "shop.models.User.save (method, shop/models.py:14)",
      ]);
      // params as JSON text (the CLI's form), and JSON output with plain values.
      const json = (await run(s, "query_graph", {
        cypher: "MATCH (f:File {path: $p})-[i:IMPORTS]->(g) " +
          "RETURN g, i, g.id AS id ORDER BY g.path",
        params: '{"p": "main.py"}',
        format: "json",
      })).json as Json;
      assertEquals(json.total, 2);
      assertEquals(json.columns, ["g", "i", "id"]);
      const [g, i, id] = (json.rows as [Json, Json, string][])[0];
      assertEquals(g.path, "shop/db.py");
      assertEquals(g.labels, ["File"]);
      assertEquals(i.type, "IMPORTS");
      assert(!("hash" in g));
      // Values are kept even in a column named like an internal field.
      assertEquals(typeof id, "string");
      assert(id.length > 10);

      for (
        const cypher of [
          "MATCH (n) DETACH DELETE n",
          "CREATE (:File {path: 'evil.py'})",
          "MATCH (s:Symbol) SET s.name = 'pwned'",
          "CALL db.idx.fulltext.drop('Symbol')",
          "MATCH (n) RETURN count(n); MATCH (n) DETACH DELETE n",
        ]
      ) {
        const msg = await failure(run(s, "query_graph", { cypher }));
        assert(msg.startsWith("Refused: "), `${cypher}: ${msg}`);
      }
      // The second guard: a write that got past the first is refused by the database itself.
      for (const cypher of ["CREATE (:File {path: 'x'})", "MATCH (n) DETACH DELETE n"]) {
        const msg = await failure(runReadOnly(db, graph, { cypher, notes: [] }, {}, 10));
        assert(msg.startsWith("Refused by the database (read-only)"), msg);
      }
      assertEquals(await fingerprint(db, graph), before, "the graph is unchanged");
      assert(
        /unknown label :Funktion/.test(
          await failure(run(s, "query_graph", { cypher: "MATCH (f:Funktion) RETURN f" })),
        ),
      );
      assert(
        /params: expected a JSON object/.test(
          await failure(run(s, "query_graph", { cypher: "RETURN 1", params: "[1]" })),
        ),
      );

      // The row cap: reported in the header when reached.
      const capped = await run(s, "query_graph", {
        cypher: "MATCH (s:Symbol) RETURN s.qualified_name AS q ORDER BY q",
        limit: 5,
      });
      const lines = capped.text.split("\n");
      assertEquals(lines.length, 6);
      assertEquals(
        lines[0],
        "query_graph: 5 rows; columns: q; row cap 5 reached: more rows may exist, narrow the " +
          "query; LIMIT 5 added",
      );
      const lowered = await run(s, "query_graph", {
        cypher: "MATCH (s:Symbol) RETURN s.name LIMIT 1000",
        limit: 3,
      });
      assert(lowered.text.split("\n")[0].includes("LIMIT 1000 lowered to the row cap 3"));
      // Procedures without a RETURN are capped too.
      const procs = await run(s, "query_graph", { cypher: "CALL dbms.procedures()", limit: 4 });
      assert(procs.text.split("\n")[0].includes("row cap 4 reached"), procs.text);
      assertEquals(procs.text.split("\n").length, 5);
      const under = await run(s, "query_graph", {
        cypher: "MATCH (f:File) RETURN f.path AS p",
        limit: 7,
      });
      assert(under.text.split("\n")[0].includes("row cap 7 reached"), "exactly at the cap");
      const free = await run(s, "query_graph", { cypher: "MATCH (f:File) RETURN f.path LIMIT 3" });
      assert(!free.text.includes("row cap"), free.text);

      // The timeout: a deliberately slow read is stopped by the database.
      await withEnv({ CGRAPH_QUERY_TIMEOUT_MS: "200" }, async () => {
        const msg = await failure(run(s, "query_graph", {
          cypher: "UNWIND range(1, 10000) AS x UNWIND range(1, 10000) AS y RETURN count(*) AS n",
        }));
        assert(msg.includes("Query exceeded 200 ms"), msg);
        // One the server's TIMEOUT does not stop in time is abandoned all the same, and said so.
        const t0 = performance.now();
        const long = await failure(run(s, "query_graph", {
          cypher: "UNWIND range(1, 100000000) AS x RETURN count(x) AS n",
        }));
        assert(long.includes("Query exceeded 200 ms"), long);
        assert(!/stopped answering/.test(long), long);
        assert(performance.now() - t0 < 5000, "answered near the limit");
      });
      // ... and the session still answers afterwards.
      const after = await run(s, "query_graph", { cypher: "MATCH (f:File) RETURN count(f) AS n" });
      assertEquals(after.text.split("\n")[1], "7");
    });
  },
);

const STORE_CALLERS =
  "MATCH (caller:Symbol)-[c:CALLS]->(s:Symbol {qualified_name: 'shop.db.store'})\n" +
  "RETURN caller.qualified_name AS caller, caller.path AS path, c.line AS line ORDER BY caller LIMIT 20";
const CANNED = "shop.db.store is called by shop.models.User.save (shop/models.py:16) and " +
  "shop.service.UserService._audit (shop/service.py:19).";

Deno.test({ name: "ask: question -> Cypher -> real rows -> answer", ...opts }, async () => {
  const fake = fakeLlm((req) => wantsCypher(req) ? cypherReply(STORE_CALLERS) : CANNED);
  try {
    await withProject(async (s) => {
      await withEnv(
        { MODEL_NAME: "openai/fake-model", LLM_API_KEY: "test-key", LLM_BASE_URL: fake.url },
        async () => {
          const out = await run(s, "ask", { question: "Who calls store?", format: "json" });
          const r = out.json as Json;
          assertEquals(r.answer, CANNED);
          assertEquals(r.cypher_query, STORE_CALLERS);
          assertEquals(r.attempts, 1);
          assertEquals(r.rows, 2);
          // Context nodes come from the database rows, never from the model.
          assertEquals(r.context_nodes, [
            { path: "shop/models.py", line: 16, qualified_name: "shop.models.User.save" },
            {
              path: "shop/service.py",
              line: 19,
              qualified_name: "shop.service.UserService._audit",
            },
          ]);
          assertEquals(fake.requests.length, 2);
          const [first, second] = fake.requests;
          assertEquals(first.model, "fake-model");
          const system = first.messages[0].content;
          for (
            const piece of ["(:File)-[:IMPORTS]->(:File)", "qualified_name", "Worked examples"]
          ) {
            assert(system.includes(piece), `prompt 1 has ${piece}`);
          }
          assert(system.includes(":File 7"), "prompt 1 has the live counts");
          assert(first.messages.at(-1)!.content.includes("Who calls store?"));
          // Call 2 sees the executed Cypher and the rows, not the graph.
          const t2 = textOf(second);
          assert(t2.includes(STORE_CALLERS));
          assert(t2.includes("shop.service.UserService._audit | shop/service.py | 19"), t2);
          assert(!t2.includes("shop.decoy"), "only the rows go to the model");

          const text = await run(s, "ask", { question: "Who calls store?" });
          const lines = text.text.split("\n");
          assertEquals(lines[0], CANNED);
          assertEquals(lines[1], "--- cypher (2 rows; 1 attempt; openai/fake-model) ---");
          assertEquals(lines.slice(2, 4), STORE_CALLERS.split("\n"));
          assertEquals(lines.slice(4), [
            "--- context (2) ---",
            "shop/models.py:16 | shop.models.User.save | symbol",
            "shop/service.py:19 | shop.service.UserService._audit | symbol",
          ]);
        },
      );
    });
  } finally {
    await fake.close();
  }
});

Deno.test(
  { name: "ask: an invalid query goes back to the model with its error", ...opts },
  async () => {
    const replies = [
      "MATCH (f:Funktion {name: 'store'}) RETURN f.path AS path",
      "MATCH (s:Symbol {name: 'store'}) RETURN s.path AS path, s.line AS line, s.kind AS kind " +
      "ORDER BY path",
    ];
    let n = 0;
    const fake = fakeLlm((req) => wantsCypher(req) ? cypherReply(replies[n++]) : "Two stores.");
    try {
      await withProject(async (s) => {
        await withEnv(
          { MODEL_NAME: "openai/fake", LLM_API_KEY: "k", LLM_BASE_URL: fake.url },
          async () => {
            const r = (await run(s, "ask", { question: "Where is store?", format: "json" }))
              .json as Json;
            assertEquals(r.attempts, 2);
            assertEquals(r.cypher_query, `${replies[1]}\nLIMIT 100`);
            assertEquals(r.context_nodes, [
              { path: "shop/db.py", line: 13, kind: "Function" },
              { path: "shop/decoy.py", line: 4, kind: "Function" },
            ]);
            assertEquals(fake.requests.length, 3);
            const retry = fake.requests[1];
            assertEquals(retry.messages.at(-2)!.role, "assistant");
            assert(retry.messages.at(-2)!.content.includes("Funktion"));
            const fed = retry.messages.at(-1)!.content;
            assert(fed.includes("unknown label :Funktion"), fed);
            assert(fed.includes("corrected query"), fed);
          },
        );
      });
    } finally {
      await fake.close();
    }
  },
);

Deno.test({ name: "ask: database errors and empty results are retried", ...opts }, async () => {
  const replies = [
    "MATCH (s:Symbol {name: 'store'}) RETURN s.path AS path ORDER BY",
    "MATCH (s:Symbol {name: 'Store'}) RETURN s.path AS path",
    "MATCH (s:Symbol {name: 'Store'}) RETURN s.path AS path",
  ];
  let n = 0;
  const fake = fakeLlm((req) => wantsCypher(req) ? cypherReply(replies[n++]) : "Nothing.");
  try {
    await withProject(async (s) => {
      await withEnv(
        { MODEL_NAME: "openai/fake", LLM_API_KEY: "k", LLM_BASE_URL: fake.url },
        async () => {
          const r = (await run(s, "ask", { question: "Where is Store?", format: "json" }))
            .json as Json;
          // 1: a syntax error from the database; 2: no rows; 3: the model stands by it.
          assertEquals(r.attempts, 3);
          assertEquals(r.rows, 0);
          assertEquals(r.cypher_query, `${replies[1]}\nLIMIT 100`);
          assertEquals(r.context_nodes, []);
          assert(
            /Cypher syntax error at line \d+, column \d+/.test(textOf(fake.requests[1])),
            textOf(fake.requests[1]),
          );
          assert(textOf(fake.requests[2]).includes("returned no rows"));
          assert(textOf(fake.requests[3]).includes("(no rows)"));
          assertEquals(r.answer, "Nothing.");
        },
      );
    });
  } finally {
    await fake.close();
  }
});

const HOSTILE = [
  "MATCH (n) DETACH DELETE n",
  "CREATE (:File {path: 'evil.py'})",
  "MATCH (s:Symbol) SET s.name = 'pwned' RETURN s",
  "CALL db.idx.fulltext.drop('Symbol')",
  "MATCH (n) RETURN n LIMIT 1; MATCH (n) DETACH DELETE n",
];

Deno.test(
  { name: "ask: hostile model output is refused, the graph unchanged", ...opts },
  async () => {
    await withProject(async (s, db, graph) => {
      const before = await fingerprint(db, graph);
      for (const hostile of HOSTILE) {
        const fake = fakeLlm(() => cypherReply(hostile));
        try {
          await withEnv(
            { MODEL_NAME: "openai/fake", LLM_API_KEY: "k", LLM_BASE_URL: fake.url },
            async () => {
              const msg = await failure(run(s, "ask", { question: "Clean up the graph" }));
              assert(msg.includes("no valid read-only query after 3 attempts"), msg);
              assert(msg.includes("Refused: "), msg);
              assertEquals(fake.requests.length, 3, "2 retries, then the error");
              assert(textOf(fake.requests[1]).includes("Refused: "), "the refusal went back");
            },
          );
        } finally {
          await fake.close();
        }
        assertEquals(await fingerprint(db, graph), before, `unchanged after ${hostile}`);
      }
      // The full-text index survived: search still works.
      const found = await run(s, "search_code", { query: "user" });
      assert(found.text.includes("shop/models.py:5 | User | class"), found.text);
    });
  },
);

Deno.test(
  { name: "ask: sampling when no key is set; a clear error with no model", ...opts },
  async () => {
    await withProject(async (s) => {
      await withEnv({}, async () => {
        const seen: string[] = [];
        const sample: CallOptions["sample"] = (req) => {
          seen.push(req.system);
          return Promise.resolve(
            req.system.includes("openCypher")
              ? cypherReply("MATCH (c:Class) RETURN c ORDER BY c.qualified_name")
              : "Four classes.",
          );
        };
        const r = (await run(s, "ask", { question: "Which classes?", format: "json" }, { sample }))
          .json as Json;
        assertEquals(r.answer, "Four classes.");
        assertEquals(r.model, "the MCP client's model (sampling)");
        assertEquals(
          (r.context_nodes as Json[]).map((c) => c.qualified_name),
          ["shop.db.Database", "shop.models.Admin", "shop.models.User", "shop.service.UserService"],
        );
        assertEquals((r.context_nodes as Json[])[0].kind, "Class");
        assertEquals(seen.length, 2);

        const msg = await failure(run(s, "ask", { question: "Which classes?" }));
        assert(msg.startsWith("ask needs a language model and has none."), msg);
        for (const piece of ["MODEL_NAME", "LLM_API_KEY", "ollama/", "sampling", "query_graph"]) {
          assert(msg.includes(piece), `${piece} in: ${msg}`);
        }
      });
      await withEnv({ MODEL_NAME: "openai/gpt-4o-mini" }, async () => {
        const msg = await failure(run(s, "ask", { question: "Which classes?" }));
        assert(msg.includes("needs an API key"), msg);
      });
    });
  },
);

Deno.test({ name: "ask: a hung model is cut off by the timeout", ...opts }, async () => {
  const fake = fakeLlm(() => fake.hang());
  try {
    await withProject(async (s) => {
      await withEnv({
        MODEL_NAME: "openai/slow",
        LLM_API_KEY: "k",
        LLM_BASE_URL: fake.url,
        CGRAPH_LLM_TIMEOUT_MS: "300",
      }, async () => {
        const msg = await failure(run(s, "ask", { question: "Anything?" }));
        assert(msg.includes("did not answer within 300 ms"), msg);
      });
    });
  } finally {
    await fake.close();
  }
});

Deno.test({
  name:
    "query_graph: a pattern predicate on a two-label node is refused (it crashes FalkorDB 4.16)",
  ...opts,
}, async () => {
  await withProject(async (s) => {
    for (
      const q of [
        "MATCH (s:Symbol:Function) WHERE NOT ()-[:CALLS]->(s) RETURN count(s)",
        "MATCH (s:Symbol) WHERE s:Function AND (s)<-[:CALLS]-() RETURN count(s)",
      ]
    ) {
      const why = await failure(run(s, "query_graph", { cypher: q }));
      assert(/two labels/.test(why), why);
    }
    // The rewrite the refusal suggests runs, and the server is still there.
    const ok = (await run(s, "query_graph", {
      cypher: "MATCH (s:Function) WHERE NOT ()-[:CALLS]->(s) RETURN count(s) AS n",
    })).text;
    assert(/1 row/.test(ok), ok);
    assertEquals(await (await testDb()).command(["PING"]), "PONG");
  });
});
