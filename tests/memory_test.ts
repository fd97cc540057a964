/**
 * Memory-linked navigation against a real FalkorDB and real git: notes (remember / forget /
 * recall) that survive full and incremental re-indexing, follow moved files, are reported when
 * orphaned and are visible on every branch with their symbol; decisions from ADRs linked to the
 * right symbols and following incremental indexing exactly; git history per symbol with fixes
 * marked; memory_linked_search over MCP; the hints in get_context and impact_analysis; bad input.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import type { Db } from "../src/db/client.ts";
import { CgraphError, describeError } from "../src/errors.ts";
import { isDecisionPath, parseDecision } from "../src/memory/decisions.ts";
import { historyKey, looksLikeFix, mapRange } from "../src/memory/history.ts";
import { notesGraph } from "../src/memory/notes.ts";
import { keysFor } from "../src/project/names.ts";
import { Session } from "../src/query/session.ts";
import { execute } from "../src/tools/execute.ts";
import { toolByName } from "../src/tools/registry.ts";
import { runCgraph, testDb } from "./helpers/db.ts";
import { dropProject, dumpGraph, indexAs, uniqueName } from "./helpers/graph.ts";
import { childEnv, connectMcp, dbUrl, textOf } from "./helpers/mcp.ts";

const opts = { sanitizeOps: false, sanitizeResources: false };
type Json = Record<string, unknown>;

// ---- a repository with a history --------------------------------------------------------------

let clock = Date.parse("2024-01-01T10:00:00Z");

async function git(dir: string, ...args: string[]): Promise<string> {
  clock += 3600_000;
  const date = new Date(clock).toISOString();
  const out = await new Deno.Command("git", {
    args: ["-C", dir, "-c", "user.name=Alice Dev", "-c", "user.email=alice@example.com", ...args],
    env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_CONFIG_NOSYSTEM: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const dec = new TextDecoder();
  if (!out.success) throw new Error(`git ${args.join(" ")}: ${dec.decode(out.stderr)}`);
  return dec.decode(out.stdout).trim();
}

async function write(dir: string, path: string, text: string): Promise<void> {
  await Deno.mkdir(join(dir, path, ".."), { recursive: true });
  await Deno.writeTextFile(join(dir, path), text);
}

const INVOICE_V1 = `def total(items):
    s = 0
    for i in items:
        s += i
    return s


def render(items):
    return "total: %d" % total(items)
`;

const REPORT = `from billing.invoice import total


def render(rows):
    return [total(r) for r in rows]
`;

const MAIN = `from billing.invoice import render


def main():
    print(render([1, 2]))
`;

const ADR = `# 1. Totals are computed in one place

Date: 2024-03-01

## Status

Accepted

## Context

Invoices summed their lines in several places, with different rounding.

## Decision

Every total goes through \`total\` in billing/invoice.py. Never sum inside \`render\`;
\`main.main\` only prints. \`Unknown.thing\` and \`render\` alone are not linked.
`;

interface Repo {
  dir: string;
  commits: Record<string, string>;
}

/** add -> fix (in total) -> ADR -> change render only; returns the commit hashes by step. */
async function makeRepo(): Promise<Repo> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-mem-" });
  clock = Date.parse("2024-01-01T00:00:00Z");
  await git(dir, "init", "-q", "-b", "main");
  const commits: Record<string, string> = {};
  const commit = async (step: string, message: string) => {
    await git(dir, "add", "-A");
    await git(dir, "commit", "-q", "-m", message);
    commits[step] = await git(dir, "rev-parse", "HEAD");
  };
  await write(dir, "billing/__init__.py", "");
  await write(dir, "billing/invoice.py", INVOICE_V1);
  await write(dir, "reports/__init__.py", "");
  await write(dir, "reports/summary.py", REPORT);
  await write(dir, "main.py", MAIN);
  await commit("add", "Add invoice totals and reports");
  await write(dir, "billing/invoice.py", INVOICE_V1.replace("s += i", "s += int(i)"));
  await commit("fix", "Fix rounding bug in total");
  await write(dir, "docs/adr/0001-totals-in-one-place.md", ADR);
  await write(dir, "docs/adr/README.md", "Decision records. See `total`.\n");
  await commit("adr", "Record the totals decision");
  const v3 = (await Deno.readTextFile(join(dir, "billing/invoice.py")))
    .replace('"total: %d"', '"Total: %d"');
  await write(dir, "billing/invoice.py", v3);
  await commit("render", "Capitalise the rendered label");
  return { dir, commits };
}

function session(dir: string, project: string): Session {
  return new Session({ defaultPath: dir, project, connect: testDb, cacheMs: 0 });
}

async function call(s: Session, tool: string, args: Json = {}, client?: string): Promise<string> {
  const def = toolByName(tool);
  assert(def, `no tool ${tool}`);
  const c = client ? { client: { name: client, version: "9.9" } } : {};
  return (await execute(def, s, args, c)).text;
}

async function callJson(s: Session, tool: string, args: Json = {}): Promise<Json> {
  const out = await execute(toolByName(tool)!, s, { ...args, format: "json" });
  assert(out.json);
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

/** The note id in a `remember` answer. */
function noteId(text: string): string {
  const m = /^remembered (n-[0-9a-f]+) /.exec(text);
  assert(m, text);
  return m[1];
}

/** The lines of one `--- name (...) ---` section of a memory answer. */
function sectionOf(text: string, name: string): string[] {
  const lines = text.split("\n");
  const at = lines.findIndex((l) => l.startsWith(`--- ${name} `));
  assert(at >= 0, `no section ${name} in:\n${text}`);
  const end = lines.findIndex((l, i) => i > at && l.startsWith("--- "));
  return lines.slice(at + 1, end < 0 ? undefined : end);
}

async function cleanup(db: Db, project: string, dir?: string): Promise<void> {
  await dropProject(db, project);
  await db.deleteGraph(notesGraph(project));
  await db.command(["DEL", historyKey(project)]);
  if (dir) await Deno.remove(dir, { recursive: true });
}

async function withRepo(fn: (r: Repo, s: Session, project: string, db: Db) => Promise<void>) {
  const db = await testDb();
  const repo = await makeRepo();
  const project = uniqueName("t-mem");
  const s = session(repo.dir, project);
  try {
    await fn(repo, s, project, db);
  } finally {
    await cleanup(db, project, repo.dir);
  }
}

// ---- pure parts -------------------------------------------------------------------------------

Deno.test("decision files: folders and names", () => {
  assert(isDecisionPath("docs/adr/0001-use-falkordb.md"));
  assert(isDecisionPath("doc/adr/12-x.md"));
  assert(isDecisionPath("services/pay/docs/decisions/0003-retries.md"));
  assert(isDecisionPath("adr/0002-y.markdown"));
  assert(isDecisionPath("notes/ADR-007-kafka.md"));
  assert(!isDecisionPath("docs/adr/README.md"));
  assert(!isDecisionPath("docs/adr/template.md"));
  assert(!isDecisionPath("docs/0001-intro.md"));
  assert(!isDecisionPath("docs/adr/0001-x.txt"));
  assert(isDecisionPath("design/0001-a.md", ["design"]));
});

Deno.test("decision parsing: title, status, date in the usual layouts", () => {
  const adrTools = parseDecision("docs/adr/0001-a.md", ADR);
  assertEquals(
    [adrTools.title, adrTools.status, adrTools.date],
    ["1. Totals are computed in one place", "accepted", "2024-03-01"],
  );
  const madr = parseDecision(
    "docs/decisions/0002-b.md",
    "---\nstatus: proposed\ndate: 2023-11-05\n---\n# Use retries\n\n* Deciders: team\n",
  );
  assertEquals([madr.title, madr.status, madr.date], ["Use retries", "proposed", "2023-11-05"]);
  const inline = parseDecision(
    "adr/ADR-3.md",
    "# ADR 3: Cache\n\n- **Status:** Superseded by ADR-4\n- **Date:** 2022-02-02\n",
  );
  assertEquals([inline.status, inline.date], ["superseded by adr-4", "2022-02-02"]);
  const bare = parseDecision("adr/0009-no-title.md", "Just text about `a.b.c`.\n");
  assertEquals([bare.title, bare.status, bare.date], ["0009-no-title", "", ""]);
  const names = parseDecision("adr/0010.md", ADR).names.map((n) => n.text);
  for (const n of ["total", "render", "main.main", "Unknown.thing", "billing/invoice.py"]) {
    assert(names.includes(n), `${n} in ${names}`);
  }
});

Deno.test("history helpers: fix subjects, line mapping through a diff", () => {
  for (
    const s of [
      "Fix rounding",
      "fixes #12",
      'Revert "x"',
      "hotfix: y",
      "CVE-2024-1234",
      "bug in z",
      "Regression in totals",
    ]
  ) {
    assert(looksLikeFix(s), s);
  }
  for (const s of ["Add prefix option", "Refactor fixture loading", "Debugging aid", "Prefixes"]) {
    assert(!looksLikeFix(s), s);
  }
  // Two lines inserted at the top (new 1-2), one line changed at new 10 (old 8).
  const hunks = [
    { oldStart: 0, oldCount: 0, newStart: 1, newCount: 2 },
    { oldStart: 8, oldCount: 1, newStart: 10, newCount: 1 },
  ];
  assertEquals(mapRange(hunks, 3, 9), [1, 7]);
  assertEquals(mapRange(hunks, 5, 12), [3, 10]);
  assertEquals(mapRange(hunks, 1, 2), undefined);
  assertEquals(mapRange([], 4, 6), [4, 6]);
});

// ---- notes ------------------------------------------------------------------------------------

Deno.test({ name: "notes survive full and incremental re-indexing", ...opts }, async () => {
  await withRepo(async (repo, s) => {
    const id = noteId(
      await call(s, "remember", {
        symbol: "total",
        text: "Totals stay integers; floats broke rounding (#12).",
        kind: "bug",
        tags: ["money", "rounding"],
      }, "agent-x"),
    );
    const fileNote = noteId(
      await call(s, "remember", { file: "billing/invoice.py", text: "Owned by billing." }),
    );
    const check = async () => {
      const mem = await call(s, "memory_linked_search", { symbol: "total" });
      const notes = sectionOf(mem, "notes");
      const own = notes.find((l) => l.startsWith(id));
      assert(own, mem);
      assert(own.includes("| bug | symbol |") && own.includes("agent-x 9.9 main"), own);
      assert(notes.some((l) => l.startsWith(`${fileNote} | note | file |`)), mem);
    };
    await check();
    await call(s, "index_repo", { full: true });
    await check();
    await write(repo.dir, "billing/invoice.py", "# billing\n" + INVOICE_V1);
    const inc = await callJson(s, "index_repo", {});
    assertEquals(inc.mode, "incremental");
    await check();
    // The symbol's line moved with the edit: the answer shows where it is now.
    const data = await callJson(s, "memory_linked_search", { symbol: "total" });
    const g = (data.groups as Json[])[0];
    assertEquals((g.target as Json).line, 2);
    const n = (g.notes as Json[]).find((x) => x.note_id === id)!;
    assertEquals([n.placement, n.kind, n.client, n.tags], ["same", "bug", "agent-x 9.9", [
      "money",
      "rounding",
    ]]);
    assertEquals(n.branch, "main");
    assertEquals(n.commit, repo.commits.render);
  });
});

Deno.test({
  name: "a note follows a moved file; a gone symbol's note is orphaned, not dropped",
  ...opts,
}, async () => {
  await withRepo(async (repo, s) => {
    const id = noteId(
      await call(s, "remember", { symbol: "billing.invoice.total", text: "Hot path." }),
    );
    await git(repo.dir, "mv", "billing", "payments");
    await write(repo.dir, "main.py", MAIN.replace("billing", "payments"));
    await write(repo.dir, "reports/summary.py", REPORT.replace("billing", "payments"));
    await git(repo.dir, "commit", "-q", "-am", "Move billing to payments");
    await call(s, "index_repo", {});
    const mem = await call(s, "memory_linked_search", { symbol: "total" });
    assert(
      mem.startsWith("memory of payments.invoice.total (function, payments/invoice.py:1)"),
      mem,
    );
    const line = sectionOf(mem, "notes").find((l) => l.startsWith(id));
    assert(line?.includes("symbol (moved from billing/invoice.py)"), mem);
    const hit = (await call(s, "recall", { query: "hot path" })).split("\n")[1];
    assert(
      hit.startsWith(
        `${id} | note | payments.invoice.total (function, payments/invoice.py:1), moved from billing/invoice.py`,
      ),
      hit,
    );

    // Renamed away: orphaned, listed as such, and still stored.
    await write(
      repo.dir,
      "payments/invoice.py",
      (await Deno.readTextFile(join(repo.dir, "payments/invoice.py"))).replaceAll(
        "total(",
        "sum_all(",
      ),
    );
    await write(
      repo.dir,
      "reports/summary.py",
      REPORT.replace("billing", "payments").replaceAll("total", "sum_all"),
    );
    await call(s, "index_repo", {});
    const orphans = await call(s, "recall", { orphaned: true });
    assert(orphans.startsWith("recall: 1 orphaned note"), orphans);
    assert(
      orphans.includes(
        `${id} | note | orphaned: was billing.invoice.total (function, billing/invoice.py:1)`,
      ),
      orphans,
    );
    const mem2 = await call(s, "memory_linked_search", { symbol: "sum_all" });
    assertEquals(sectionOf(mem2, "notes"), []);
    assert((await call(s, "recall", { query: "hot path" })).includes("orphaned: was"));
    // Back where it was (a checkout of the old tree): attached again.
    await git(repo.dir, "checkout", "-q", "--", ".");
    await git(repo.dir, "checkout", "-q", repo.commits.render);
    await git(repo.dir, "checkout", "-q", "-b", "old");
    const back = await call(s, "memory_linked_search", { symbol: "total" });
    assert(sectionOf(back, "notes").some((l) => l.startsWith(`${id} | note | symbol |`)), back);
  });
});

Deno.test(
  { name: "notes are visible on every branch where the symbol exists", ...opts },
  async () => {
    await withRepo(async (repo, s) => {
      const onMain = noteId(
        await call(s, "remember", {
          symbol: "render",
          file: "billing/invoice.py",
          text: "Label format is public API.",
        }),
      );
      await git(repo.dir, "checkout", "-q", "-b", "feature/labels");
      await write(repo.dir, "billing/extra.py", "def extra():\n    return 1\n");
      await git(repo.dir, "add", "-A");
      await git(repo.dir, "commit", "-q", "-m", "Add extra");
      // First use on the branch indexes it: the note written on main is there.
      const mem = await call(s, "memory_linked_search", { symbol: "billing.invoice.render" });
      assert(mem.includes("indexed now (first use)"), mem);
      assert(sectionOf(mem, "notes").some((l) => l.startsWith(onMain)), mem);
      const onBranch = noteId(
        await call(s, "remember", { symbol: "extra", text: "Only on the branch." }),
      );
      const orender = noteId(
        await call(s, "remember", {
          symbol: "billing.invoice.render",
          text: "Seen from feature.",
          kind: "todo",
        }),
      );
      await git(repo.dir, "checkout", "-q", "main");
      const back = await call(s, "memory_linked_search", { symbol: "billing.invoice.render" });
      const notes = sectionOf(back, "notes");
      assert(notes.some((l) => l.startsWith(onMain)), back);
      assert(
        notes.some((l) =>
          l.startsWith(`${orender} | todo | symbol |`) && l.includes("feature/labels")
        ),
        back,
      );
      // `extra` does not exist on main: its note is orphaned there.
      const orphans = await call(s, "recall", { orphaned: true });
      assert(orphans.includes(`${onBranch} | note | orphaned: was billing.extra.extra`), orphans);
    });
  },
);

Deno.test(
  { name: "forget deletes one note; recall finds notes and decisions", ...opts },
  async () => {
    await withRepo(async (_repo, s) => {
      const a = noteId(
        await call(s, "remember", {
          symbol: "total",
          text: "Retry the ledger write on timeout.",
          tags: ["ledger"],
        }),
      );
      const b = noteId(
        await call(s, "remember", {
          symbol: "main",
          text: "Prints only; calls rebuild_cache_index.",
          kind: "todo",
        }),
      );
      const r = (await call(s, "recall", { query: "ledger timeout" })).split("\n");
      assertEquals(r[0], "recall 'ledger timeout': 1 hit");
      assert(
        r[1].startsWith(`${a} | note | billing.invoice.total (function, billing/invoice.py:1)`),
        r[1],
      );
      // Identifier words: snake_case and camelCase split on both sides.
      assert((await call(s, "recall", { query: "invoice" })).includes(a));
      const split = await call(s, "recall", { query: "cache index" });
      assert(split.startsWith("recall 'cache index': 1 hit\n") && split.includes(b), split);
      // Decisions come with what they name.
      const d = (await call(s, "recall", { query: "rounding" })).split("\n");
      const dec = d.find((l) => l.startsWith("decision | docs/adr/0001-totals-in-one-place.md"));
      assert(dec, d.join("\n"));
      assert(dec.includes("| 1. Totals are computed in one place | accepted | 2024-03-01 |"), dec);
      assert(
        dec.includes(
          "mentions billing/invoice.py, billing.invoice.total, billing.invoice.render +1 |",
        ),
        dec,
      );
      // kind filters notes (and keeps decisions for kind decision).
      const todos = await call(s, "recall", { query: "prints", kind: "todo" });
      assert(todos.includes(b) && !todos.includes(a), todos);
      // Query syntax is never passed through: punctuation is just a separator.
      const odd = await call(s, "recall", { query: "ledger* | @text:(x) -timeout" });
      assert(odd.includes(a), odd);
      const latest = (await call(s, "recall", {})).split("\n");
      assertEquals(latest[0], "recall: 2 notes; newest first");
      assert(latest[1].startsWith(b) && latest[2].startsWith(a), latest.join("\n"));
      const gone = await call(s, "forget", { note_id: a });
      assert(gone.startsWith(`forgot ${a} (note) on billing.invoice.total`), gone);
      assert(!(await call(s, "recall", {})).includes(a));
      assert((await callError(s, "forget", { note_id: a })).includes(`No note '${a}'`));
      // JSON: note ids kept, internal ids not.
      const j = await callJson(s, "recall", {});
      assertEquals((j.hits as Json[])[0].note_id, b);
      assert(!JSON.stringify(j).includes('"id":'));
    });
  },
);

Deno.test(
  { name: "bad input: unknown symbols suggest, empty and huge notes refused", ...opts },
  async () => {
    await withRepo(async (_repo, s, project, db) => {
      const unknown = await callError(s, "remember", { symbol: "totl", text: "x" });
      assert(
        unknown.includes("No symbol 'totl'") &&
          unknown.includes("did you mean: billing.invoice.total"),
        unknown,
      );
      const mem = await callError(s, "memory_linked_search", { symbol: "rendr" });
      assert(mem.includes("did you mean:") && mem.includes("render"), mem);
      assert(
        (await callError(s, "remember", { symbol: "total", text: "   " })).includes(
          "The note text is empty.",
        ),
      );
      const huge = await callError(s, "remember", {
        symbol: "total",
        text: "x".repeat(1024 * 1024),
      });
      assert(huge.includes("text: at most 65536 characters (got 1048576)"), huge);
      const big = await callError(s, "remember", { symbol: "total", text: "x".repeat(10_000) });
      assert(
        big.includes("The note text is 10000 bytes; the limit is 8192 bytes (8 KiB)."),
        big,
      );
      const ambiguous = await callError(s, "remember", { symbol: "render", text: "which one?" });
      assert(
        ambiguous.includes("'render' has 2 definitions") && ambiguous.includes("narrow with file"),
        ambiguous,
      );
      const kind = await callError(s, "remember", { symbol: "total", text: "x", kind: "idea" });
      assert(kind.includes("Invalid arguments for remember: kind"), kind);
      const tags = await callError(s, "remember", {
        symbol: "total",
        text: "x",
        tags: ["t".repeat(41)],
      });
      assert(tags.includes("the limit is 40"), tags);
      assert((await callError(s, "recall", { query: "!!!" })).includes("Nothing to search for"));
      // Nothing was stored by any of these.
      assert(
        !(await db.listGraphs()).includes(notesGraph(project)) ||
          (await call(s, "recall", {})).startsWith("recall: 0 notes"),
      );
    });
  },
);

// ---- decisions --------------------------------------------------------------------------------

Deno.test({ name: "decisions link to the right symbols and files", ...opts }, async () => {
  await withRepo(async (repo, s, project, db) => {
    await call(s, "index_repo", {});
    const graph = keysFor(project, "main").graph;
    const rows = await db.query(
      graph,
      `MATCH (d:Decision)-[:MENTIONS]->(x)
       RETURN d.path AS d, d.title AS title, d.status AS status, d.date AS date,
         coalesce(x.qualified_name, x.path) AS x ORDER BY x`,
      {},
      { readOnly: true },
    );
    // `total` (unique), main.main (qualified), billing/invoice.py (a file), and `render`: two
    // definitions, narrowed to one by the file the record names. `Unknown.thing` names nothing;
    // docs/adr/README.md is not a record.
    assertEquals(rows.map((r) => r.x), [
      "billing.invoice.render",
      "billing.invoice.total",
      "billing/invoice.py",
      "main.main",
    ]);
    assertEquals(
      [rows[0].d, rows[0].title, rows[0].status, rows[0].date],
      [
        "docs/adr/0001-totals-in-one-place.md",
        "1. Totals are computed in one place",
        "accepted",
        "2024-03-01",
      ],
    );
    const mem = await call(s, "memory_linked_search", { symbol: "total" });
    assertEquals(sectionOf(mem, "decisions"), [
      "docs/adr/0001-totals-in-one-place.md | 1. Totals are computed in one place | accepted | 2024-03-01 | names it",
    ]);
    assertEquals(
      sectionOf(
        await call(s, "memory_linked_search", { symbol: "reports.summary.render" }),
        "decisions",
      ),
      [],
    );
    // An ambiguous name alone links to nothing; a record naming only a file shows as such.
    await write(
      repo.dir,
      "docs/adr/0002-labels.md",
      "# Labels\n\nStatus: proposed\n\n`render` decides.\n",
    );
    await write(repo.dir, "docs/adr/0003-reports.md", "# Reports\n\nreports/summary.py loops.\n");
    const inc = await callJson(s, "index_repo", {});
    assertEquals((inc.files as Json).modified, 0);
    const labels = await db.query(
      graph,
      "MATCH (d:Decision {path: 'docs/adr/0002-labels.md'}) OPTIONAL MATCH (d)-[m:MENTIONS]->() RETURN d.status AS s, count(m) AS n",
      {},
      { readOnly: true },
    );
    assertEquals(labels.map((r) => [r.s, r.n]), [["proposed", 0]]);
    const rep = await call(s, "memory_linked_search", { symbol: "reports.summary.render" });
    assertEquals(sectionOf(rep, "decisions"), [
      "docs/adr/0003-reports.md | Reports | no status | undated | names its file",
    ]);
  });
});

Deno.test(
  { name: "decisions follow incremental indexing exactly (== full)", ...opts },
  async () => {
    const db = await testDb();
    const repo = await makeRepo();
    const inc = uniqueName("t-dinc");
    const full = uniqueName("t-dfull");
    const adr = (n: string) => join(repo.dir, "docs/adr", n);
    const steps: [string, () => Promise<void>][] = [
      [
        "edit a record",
        () =>
          Deno.writeTextFile(
            adr("0001-totals-in-one-place.md"),
            ADR.replace("`main.main` only prints.", "`reports.summary.render` and `main` too."),
          ),
      ],
      [
        "rename a named function",
        () => write(repo.dir, "main.py", MAIN.replace("def main", "def entry")),
      ],
      ["re-create it", () => write(repo.dir, "main.py", MAIN)],
      [
        "edit the named code only",
        () => write(repo.dir, "billing/invoice.py", "\n\n" + INVOICE_V1),
      ],
      [
        "add a record",
        () =>
          write(
            repo.dir,
            "doc/adr/0002-more.md",
            "# More\n\nSee `billing.invoice.render` and reports/summary.py.\n",
          ),
      ],
      [
        "rename a record",
        () => Deno.rename(adr("0001-totals-in-one-place.md"), adr("0003-totals.md")),
      ],
      ["delete the named file", () => Deno.remove(join(repo.dir, "reports/summary.py"))],
      ["delete a record", () => Deno.remove(join(repo.dir, "doc/adr/0002-more.md"))],
      ["no change", async () => {}],
      [
        "an interrupted run (a decision written, its edges not yet)",
        async () => {
          await db.query(
            keysFor(inc, "test").graph,
            "MATCH (d:Decision {path: 'docs/adr/0003-totals.md'}) OPTIONAL MATCH (d)-[m:MENTIONS]->() SET d.hash = '' DELETE m",
          );
        },
      ],
    ];
    try {
      await indexAs(db, repo.dir, inc);
      for (const [what, step] of steps) {
        await step();
        const s = await indexAs(db, repo.dir, inc);
        assertEquals(s.mode, "incremental");
        await indexAs(db, repo.dir, full, { full: true });
        const a = await dumpGraph(db, keysFor(inc, "test").graph);
        const b = await dumpGraph(db, keysFor(full, "test").graph);
        assertEquals(
          { onlyInc: a.filter((x) => !b.includes(x)), onlyFull: b.filter((x) => !a.includes(x)) },
          { onlyInc: [], onlyFull: [] },
          `after: ${what}`,
        );
        assert(a.some((x) => x.startsWith('N ["Decision"]')), what);
        assert(a.some((x) => x.startsWith("E MENTIONS")), what);
      }
    } finally {
      await cleanup(db, inc);
      await cleanup(db, full, repo.dir);
    }
  },
);

// ---- history ----------------------------------------------------------------------------------

Deno.test(
  { name: "history: the commits that touched the symbol's lines, fixes marked", ...opts },
  async () => {
    await withRepo(async (repo, s, project, db) => {
      const short = (step: string) => repo.commits[step].slice(0, 10);
      const total = sectionOf(
        await call(s, "memory_linked_search", { symbol: "total" }),
        "commits",
      );
      assertEquals(total, [
        `${short("fix")} | 2024-01-01 | Alice Dev | Fix rounding bug in total | fix`,
        `${short("add")} | 2024-01-01 | Alice Dev | Add invoice totals and reports`,
      ]);
      // render's lines changed in the last commit, total's did not.
      const render = sectionOf(
        await call(s, "memory_linked_search", { symbol: "billing.invoice.render" }),
        "commits",
      );
      assertEquals(render.map((l) => l.split(" | ")[0]), [short("render"), short("add")]);
      // Cached: the same answer from Redis, keyed by content.
      assert(Number(await db.command(["HLEN", historyKey(project)])) >= 2);
      assertEquals(
        sectionOf(await call(s, "memory_linked_search", { symbol: "total" }), "commits"),
        total,
      );
      // Uncommitted lines above the function: mapped back to HEAD, same history.
      await write(
        repo.dir,
        "billing/invoice.py",
        "import math\n\n\n" + await Deno.readTextFile(join(repo.dir, "billing/invoice.py")),
      );
      await call(s, "index_repo", {});
      const mem = await call(s, "memory_linked_search", { symbol: "total" });
      assert(
        mem.includes(
          "--- commits (2, 1 fix, newest first; uncommitted changes in the file; lines mapped to HEAD) ---",
        ),
        mem,
      );
      assertEquals(sectionOf(mem, "commits"), total);
      // After a move, git follows the lines: the history is kept, the move itself touched no line.
      await git(repo.dir, "add", "-A");
      await git(repo.dir, "commit", "-q", "-m", "Import math");
      await git(repo.dir, "mv", "billing/invoice.py", "billing/invoices.py");
      await git(repo.dir, "commit", "-q", "-m", "Rename invoice module");
      await call(s, "index_repo", {});
      const moved = sectionOf(
        await call(s, "memory_linked_search", { symbol: "total" }),
        "commits",
      );
      assertEquals(moved, total);
      // A whole file: its commits.
      const file = sectionOf(
        await call(s, "memory_linked_search", { file: "billing/invoices.py" }),
        "commits",
      );
      assertEquals(file.length, 5, file.join("\n"));
      assert(file[0].includes("Rename invoice module"));
    });
  },
);

// ---- hints, MCP, CLI --------------------------------------------------------------------------

Deno.test(
  { name: "get_context and impact_analysis say when notes or decisions exist", ...opts },
  async () => {
    await withRepo(async (_repo, s) => {
      const quiet = await call(s, "get_context", { file: "reports/__init__.py" });
      assert(!quiet.split("\n")[0].includes("memory:"), quiet);
      const before = (await call(s, "get_context", { symbol: "reports.summary.render" })).split(
        "\n",
      );
      assert(
        before[0].endsWith(
          "; memory: notes or decisions on billing.invoice.total (1 decision); memory_linked_search billing.invoice.total shows them",
        ),
        before[0],
      );
      await call(s, "remember", {
        symbol: "reports.summary.render",
        text: "Slow for big reports.",
      });
      const ctx = (await call(s, "get_context", { symbol: "reports.summary.render" })).split("\n");
      assert(
        ctx[0].includes(
          "; memory: notes or decisions on reports.summary.render (1 note), billing.invoice.total (1 decision); memory_linked_search reports.summary.render shows them",
        ),
        ctx[0],
      );
      assert(!ctx.slice(1).some((l) => l.includes("memory")));
      const imp = (await call(s, "impact_analysis", { symbol: "total" })).split("\n")[0];
      assert(
        imp.endsWith(
          "; memory: notes or decisions on billing.invoice.total (1 decision), " +
            "reports.summary.render (1 note), billing.invoice.render (1 decision), " +
            "main.main (1 decision); memory_linked_search billing.invoice.total shows them",
        ),
        imp,
      );
      const json = await callJson(s, "get_context", { symbol: "reports.summary.render" });
      assert((json.notes as string[]).some((n) => n.startsWith("memory:")));
    });
  },
);

Deno.test({
  name: "mcp: memory_linked_search returns every section; remember records the client",
  ...opts,
}, async () => {
  const db = await testDb();
  const repo = await makeRepo();
  const project = uniqueName("t-memmcp");
  const mcp = await connectMcp(
    [repo.dir, "--project", project],
    childEnv({ FALKORDB_URL: dbUrl(db) }),
  );
  try {
    const { tools } = await mcp.client.listTools();
    for (const name of ["remember", "forget", "recall", "memory_linked_search"]) {
      assert(tools.some((t) => t.name === name), name);
    }
    const rem = await mcp.client.callTool({
      name: "remember",
      arguments: { symbol: "total", text: "Keep integer math.", kind: "decision" },
    });
    assert(!rem.isError, textOf(rem));
    assert(textOf(rem).includes("client cgraph-test 1.0.0"), textOf(rem));
    await mcp.client.callTool({
      name: "remember",
      arguments: { symbol: "billing.invoice.render", text: "Caller note." },
    });
    const res = await mcp.client.callTool({
      name: "memory_linked_search",
      arguments: { symbol: "total" },
    });
    assert(!res.isError, textOf(res));
    const text = textOf(res);
    const lines = text.split("\n");
    assert(
      lines[0].startsWith(
        "memory of billing.invoice.total (function, billing/invoice.py:1): 2 callers, 0 callees, 2 notes, 1 decision, 2 commits (1 fix)",
      ),
      lines[0],
    );
    assertEquals(
      sectionOf(text, "definition")[0],
      "billing/invoice.py:1-5 | total | function",
    );
    assertEquals(sectionOf(text, "callers").map((l) => l.split(" | ")[0]), [
      "billing/invoice.py:8",
      "reports/summary.py:4",
    ]);
    assertEquals(sectionOf(text, "callees"), []);
    const notes = sectionOf(text, "notes");
    assert(
      notes[0].includes("| decision | symbol |") && notes[0].includes("cgraph-test 1.0.0"),
      notes[0],
    );
    assert(notes[1].includes("| note | caller billing.invoice.render |"), notes[1]);
    assertEquals(sectionOf(text, "decisions").length, 1);
    assertEquals(sectionOf(text, "commits").length, 2);
    assert(sectionOf(text, "commits")[0].endsWith("| fix"));
    const json = await mcp.client.callTool({
      name: "memory_linked_search",
      arguments: { symbol: "total", format: "json" },
    });
    const data = json.structuredContent as Json;
    const g = (data.groups as Json[])[0];
    for (const k of ["target", "callers", "callees", "notes", "decisions", "commits"]) {
      assert(k in g, k);
    }
    assertEquals((g.commits as Json[])[0].fix, true);
    assert(!JSON.stringify(data).includes('"id":'), "no internal ids in JSON");
    const bad = await mcp.client.callTool({
      name: "remember",
      arguments: { symbol: "total", text: "" },
    });
    assert(bad.isError && textOf(bad).includes("empty"), textOf(bad));
    assertEquals(mcp.errors, []);
  } finally {
    await mcp.close();
    await cleanup(db, project, repo.dir);
  }
});

Deno.test({ name: "cli: remember, memory, recall, forget", ...opts }, async () => {
  const db = await testDb();
  const repo = await makeRepo();
  const project = uniqueName("t-memcli");
  const env = { FALKORDB_URL: dbUrl(db) };
  const where = ["-C", repo.dir, "--project", project];
  try {
    const rem = await runCgraph([
      "remember",
      "total",
      "Integer",
      "math",
      "only.",
      "--kind",
      "bug",
      "--tags",
      "money,math",
      ...where,
    ], env);
    assertEquals(rem.code, 0, rem.stderr);
    assert(
      rem.stdout.includes("(bug) on billing.invoice.total") &&
        rem.stdout.includes("client cli; tags money, math"),
      rem.stdout,
    );
    const id = noteId(rem.stdout);
    const mem = await runCgraph(["memory", "total", ...where], env);
    assertEquals(mem.code, 0, mem.stderr);
    assert(sectionOf(mem.stdout, "notes")[0].startsWith(`${id} | bug | symbol |`), mem.stdout);
    assert(sectionOf(mem.stdout, "notes")[0].endsWith("| Integer math only."), mem.stdout);
    const rec = await runCgraph(["recall", "integer", "math", ...where], env);
    assert(rec.stdout.startsWith("recall 'integer math': 1 hit\n"), rec.stdout);
    const fg = await runCgraph(["forget", id, ...where], env);
    assertEquals(fg.code, 0, fg.stderr);
    const again = await runCgraph(["forget", id, ...where], env);
    assertEquals(again.code, 1);
    assert(again.stderr.includes(`No note '${id}'`), again.stderr);
    const empty = await runCgraph(["remember", "total", ...where], env);
    assertEquals(empty.code, 1);
    assert(empty.stderr.includes("Missing text."), empty.stderr);
  } finally {
    await cleanup(db, project, repo.dir);
  }
});
