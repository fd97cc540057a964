/**
 * Answers an agent can act on (issue #13), on fixtures/traps (a git copy): overload stubs as one
 * symbol, a receiver no resolver types (the header counts the unresolved call site), callers in
 * tests and examples (production first, the rest counted), import cycles that exist only through
 * type-only or deferred imports (left out by default), a module named like a standard-library one,
 * and diff_impact on a working-tree diff and on base..HEAD. Every question is asked through a real
 * `cgraph mcp` (the SDK's client) and through the CLI twin, which must print the same text.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { runCgraph, testDb } from "./helpers/db.ts";
import { dropProject, indexAs, uniqueName } from "./helpers/graph.ts";
import { childEnv, connectMcp, dbUrl, type McpSession, ROOT, textOf } from "./helpers/mcp.ts";
import { byFile, nodeLine, sitesByFile } from "../src/query/format.ts";
import type { NodeRef } from "../src/query/graph.ts";
import { roleOf } from "../src/query/role.ts";
import { tokens } from "./helpers/tokens.ts";

const TRAPS = join(ROOT, "fixtures/traps");
const opts = { sanitizeOps: false, sanitizeResources: false };

async function git(dir: string, ...args: string[]): Promise<void> {
  const out = await new Deno.Command("git", {
    args: ["-C", dir, "-c", "user.name=t", "-c", "user.email=t@t", ...args],
    stdout: "null",
    stderr: "piped",
  }).output();
  assert(out.success, `git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

/** fixtures/traps copied into a fresh git repository (one commit on main). */
async function trapsRepo(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-traps-" });
  await new Deno.Command("cp", { args: ["-r", `${TRAPS}/.`, dir] }).output();
  await git(dir, "init", "-q", "-b", "main");
  await git(dir, "add", ".");
  await git(dir, "commit", "-qm", "traps");
  return dir;
}

interface Asker {
  /** The tool's text over MCP, checked equal to the CLI twin's stdout. */
  both(tool: string, args: Record<string, unknown>, argv: string[]): Promise<string>;
  mcp: McpSession;
}

async function withTraps(run: (a: Asker, dir: string) => Promise<void>): Promise<void> {
  const db = await testDb();
  const project = uniqueName("t-traps");
  const dir = await trapsRepo();
  // Unwatched, as the CLI it is compared with: edits reach the graph through the tools' own runs.
  const env = { FALKORDB_URL: dbUrl(db), CODE_GRAPH_WATCH: "false" };
  await indexAs(db, dir, project);
  const mcp = await connectMcp([dir, "--project", project, "--branch", "test"], childEnv(env));
  const where = ["-C", dir, "--project", project, "--branch", "test"];
  try {
    await run({
      mcp,
      async both(tool, args, argv) {
        const r = await mcp.client.callTool({ name: tool, arguments: args });
        assert(!r.isError, `${tool}: ${textOf(r)}`);
        const cli = await runCgraph([...argv, ...where], env);
        assertEquals(cli.code, 0, `cgraph ${argv.join(" ")}: ${cli.stderr}`);
        assertEquals(cli.stdout, textOf(r) + "\n", `cgraph ${argv.join(" ")}`);
        return textOf(r);
      },
    }, dir);
    assertEquals(mcp.errors, []);
  } finally {
    await mcp.close();
    await dropProject(db, project);
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({ name: "answers: callers are honest about what they miss", ...opts }, async () => {
  await withTraps(async (a) => {
    // Overload stubs and their implementation are one symbol; a receiver the resolver cannot
    // type (ctx = get_current_context()) leaves a call site the header points at.
    const invoke = await a.both("get_callers", { symbol: "Context.invoke" }, [
      "callers",
      "Context.invoke",
    ]);
    assertEquals(invoke.split("\n"), [
      "callers (depth 1) of clikit.core.Context.invoke (method, clikit/core.py:19): 1 caller; " +
      "+1 unresolved call site named invoke (clikit/cli.py:14)",
      "clikit/cli.py:6 | Command.main | method | at 8",
    ]);
    // Two methods named invoke: narrowing names the exact values, and each says what it misses.
    const both = await a.both("get_callers", { symbol: "invoke" }, ["callers", "invoke"]);
    assert(
      both.startsWith(
        "callers (depth 1) of 'invoke': 2 definitions match; narrow with " +
          "symbol='clikit.core.Context.invoke' or 'clikit.group.Group.invoke'",
      ),
      both,
    );
    assert(both.includes("# clikit/group.py:2 | Group.invoke | method: 0 callers; +1 unresolved"));
    // impact_analysis says it too.
    const impact = await a.both("impact_analysis", { symbol: "clikit.core.Context.invoke" }, [
      "impact",
      "clikit.core.Context.invoke",
    ]);
    assert(
      impact.split("\n")[0].endsWith("+1 unresolved call site named invoke (clikit/cli.py:14)"),
      impact,
    );
    // A resolved call leaves nothing to say.
    const main = await a.both("get_callers", { symbol: "clikit.cli.Command.main" }, [
      "callers",
      "clikit.cli.Command.main",
    ]);
    assert(!main.includes("unresolved"), main);
  });
});

Deno.test({ name: "answers: an overload set is one symbol", ...opts }, async () => {
  await withTraps(async (a) => {
    // Java overloads are two definitions of one qualified name in one file: asked by name, by
    // qualified name or with its file, the answer speaks of one symbol with the callers of both
    // (one overload calls the other), and offers no narrowing that cannot narrow.
    const expected = [
      "callers (depth 1) of jvm.Printer.format (method, jvm/Printer.java:4): 3 callers; " +
      "2 overloads, merged",
      "jvm/Printer.java:8 | format | method | at 9",
      "jvm/Report.java:",
      "4 | title | method | at 5",
      "8 | page | method | at 9",
    ];
    for (
      const [args, argv] of [
        [{ symbol: "jvm.Printer.format" }, ["callers", "jvm.Printer.format"]],
        [{ symbol: "format", file: "jvm/Printer.java" }, [
          "callers",
          "format",
          "--file",
          "jvm/Printer.java",
        ]],
      ] as const
    ) {
      const text = await a.both("get_callers", args, [...argv]);
      assertEquals(text.split("\n"), expected);
    }
    const callees = await a.both("get_callees", { symbol: "jvm.Printer.format" }, [
      "callees",
      "jvm.Printer.format",
    ]);
    assert(callees.split("\n")[0].includes("2 overloads, merged"), callees);
    assert(!callees.includes("narrow"), callees);
  });
});

Deno.test(
  { name: "answers: production callers first, tests and examples counted", ...opts },
  async () => {
    await withTraps(async (a) => {
      const echo = await a.both("get_callers", { symbol: "clikit.core.echo" }, [
        "callers",
        "clikit.core.echo",
      ]);
      assertEquals(echo.split("\n"), [
        "callers (depth 1) of clikit.core.echo (function, clikit/core.py:27): 2 callers; " +
        "+4 in tests/examples (include_tests=true)",
        "clikit/cli.py:",
        "6 | Command.main | method | at 9",
        "17 | launch | function | at 19",
      ]);
      const all =
        (await a.both("get_callers", { symbol: "clikit.core.echo", include_tests: true }, [
          "callers",
          "clikit.core.echo",
          "--include-tests",
        ])).split("\n");
      // Production first; lines of one file under one `path:` line.
      assertEquals(all.slice(1), [
        "clikit/cli.py:",
        "6 | Command.main | method | at 9",
        "17 | launch | function | at 19",
        "examples/demo.py:",
        "4 | demo_one | function | at 5",
        "8 | demo_two | function | at 9",
        "12 | demo_three | function | at 13",
        "tests/test_cli.py:5 | test_echo | function | at 6 (x3)",
      ]);
      const page = await a.both(
        "get_callers",
        { symbol: "clikit.core.echo", include_tests: true, limit: 2 },
        ["callers", "clikit.core.echo", "--include-tests", "--limit", "2"],
      );
      assert(page.split("\n")[0].includes("truncated: 4 more (offset=2)"), page);
    });
  },
);

Deno.test({ name: "answers: a module named like a standard-library one", ...opts }, async () => {
  await withTraps(async (a) => {
    // clikit/util.py's `import logging` is the standard library, not clikit/logging.py.
    const info = await a.both("get_callers", { symbol: "clikit.logging.info" }, [
      "callers",
      "clikit.logging.info",
    ]);
    const lines = info.split("\n");
    assertEquals(lines.slice(1), ["clikit/logging.py:5 | warn | function | at 6"]);
    const deps = await a.both("get_dependencies", { file: "clikit/util.py" }, [
      "deps",
      "--file",
      "clikit/util.py",
    ]);
    assert(!deps.includes("clikit/logging.py"), deps);
  });
});

Deno.test(
  { name: "answers: cycles leave type-only and deferred imports out", ...opts },
  async () => {
    await withTraps(async (a) => {
      const loaded = await a.both("detect_circular", { relation: "IMPORTS" }, [
        "cycles",
        "--relation",
        "IMPORTS",
      ]);
      assertEquals(loaded.split("\n"), [
        "IMPORTS cycles: 1 strongly connected component (2 files), largest first; counted: imports " +
        "that run when a file loads (4 type-only or deferred left out: include_type_only=true)",
        "# 2 files | web/layout.ts, web/view.ts",
        "2 | web/layout.ts -> web/view.ts -> web/layout.ts",
      ]);
      const every = await a.both("detect_circular", {
        relation: "IMPORTS",
        include_type_only: true,
      }, [
        "cycles",
        "--relation",
        "IMPORTS",
        "--include-type-only",
      ]);
      assertEquals(every.split("\n"), [
        "IMPORTS cycles: 3 strongly connected components (7 files), largest first; counted: every " +
        "import, type-only and deferred ones too",
        "# 3 files | clikit/cli.py, clikit/core.py, clikit/util.py",
        "2 | clikit/cli.py -> clikit/core.py -> clikit/cli.py",
        "2 | clikit/cli.py -> clikit/util.py -> clikit/cli.py",
        "# 2 files | web/app.ts, web/router.ts",
        "2 | web/app.ts -> web/router.ts -> web/app.ts",
        "# 2 files | web/layout.ts, web/view.ts",
        "2 | web/layout.ts -> web/view.ts -> web/layout.ts",
      ]);
      const calls = await a.both("detect_circular", {}, ["cycles"]);
      assertEquals(calls.split("\n"), [
        "CALLS cycles: 1 strongly connected component (2 symbols), largest first",
        "# 2 symbols | web.layout.layout, web.view.render",
        "2 | web.layout.layout -> web.view.render -> web.layout.layout",
      ]);
    });
  },
);

/** The edit diff_impact is asked about: a body changed, a function removed, a file added. */
async function edit(dir: string): Promise<void> {
  const core = join(dir, "clikit/core.py");
  let text = await Deno.readTextFile(core);
  text = text.replace(
    "    def invoke(self, callback):\n        return callback",
    "    def invoke(self, callback):\n        echo('invoking')\n        return callback",
  ).replace("    print(message)", "    print(message, flush=True)");
  await Deno.writeTextFile(core, text);
  const cli = join(dir, "clikit/cli.py");
  const before = await Deno.readTextFile(cli);
  const after = before.replace(/\n\n\ndef launch\(\):\n( {4}.*\n)+/, "\n");
  assert(after !== before);
  await Deno.writeTextFile(cli, after);
  await Deno.writeTextFile(join(dir, "clikit/extra.py"), "def added():\n    return 1\n");
  await Deno.writeTextFile(join(dir, "tests/test_extra.py"), "def test_added():\n    pass\n");
}

const DIFF_LINES = [
  "removed | clikit/cli.py:17 | launch | function | 2 call sites left (clikit/util.py:11, " +
  "tests/test_cli.py:16)",
  "changed | clikit/core.py:28 | echo | function | 2 callers: Command.main, Context.invoke (+4 in " +
  "tests/examples) | 7 affected in 4 files (d3) | tests: tests/test_cli.py",
  "changed | clikit/core.py:19 | Context.invoke | method | 1 caller: Command.main | 2 affected in " +
  "2 files (d3) | tests: tests/test_cli.py",
  "added | clikit/extra.py:1 | added | function | no callers",
];

Deno.test(
  { name: "answers: diff_impact of the working tree and of base..HEAD", ...opts },
  async () => {
    await withTraps(async (a, dir) => {
      const clean = await a.both("diff_impact", {}, ["diff-impact"]);
      assertEquals(
        clean,
        "diff impact (working tree vs HEAD): 0 symbols in 0 files, riskiest first",
      );
      await edit(dir);
      // The first answer after an edit re-indexes (the diff must meet today's definitions).
      const first = await a.mcp.client.callTool({ name: "diff_impact", arguments: {} });
      const firstText = textOf(first);
      assert(!first.isError, firstText);
      assert(firstText.split("\n")[0].includes("re-indexed first (4 files changed)"), firstText);
      const work = await a.both("diff_impact", {}, ["diff-impact"]);
      assertEquals(work.split("\n"), [
        "diff impact (working tree vs HEAD): 4 symbols in 4 files (1 added, 2 changed, 1 removed), " +
        "riskiest first; +1 changed file in tests/examples (include_tests=true)",
        ...DIFF_LINES,
      ]);
      const withTests = await a.both("diff_impact", { include_tests: true }, [
        "diff-impact",
        "--include-tests",
      ]);
      assert(
        withTests.includes("added | tests/test_extra.py:1 | test_added | function"),
        withTests,
      );
      const json = await a.mcp.client.callTool({
        name: "diff_impact",
        arguments: { format: "json" },
      });
      const data = json.structuredContent as { symbols: { change: string; risk: number }[] };
      assertEquals(data.symbols.map((s) => s.change), ["removed", "changed", "changed", "added"]);
      const risks = data.symbols.map((s) => s.risk);
      assertEquals(risks, [...risks].sort((x, y) => y - x), "riskiest first");

      // Committed on a branch: base..HEAD answers the same, also once main has moved on (what
      // main changed since is not this branch's change).
      await git(dir, "checkout", "-qb", "feature");
      await git(dir, "add", ".");
      await git(dir, "commit", "-qm", "change");
      await git(dir, "checkout", "-q", "main");
      await Deno.writeTextFile(
        join(dir, "clikit/group.py"),
        "class Group:\n    def invoke(self, callback):\n        return [callback, callback]\n",
      );
      await git(dir, "commit", "-qam", "main moves on");
      await git(dir, "checkout", "-q", "feature");
      const range = await a.both("diff_impact", { base: "main" }, [
        "diff-impact",
        "--base",
        "main",
      ]);
      assertEquals(range.split("\n"), [
        "diff impact (main..HEAD): 4 symbols in 4 files (1 added, 2 changed, 1 removed), riskiest " +
        "first; +1 changed file in tests/examples (include_tests=true)",
        ...DIFF_LINES,
      ]);
      const bad = await a.mcp.client.callTool({ name: "diff_impact", arguments: { base: "nope" } });
      assert(bad.isError);
      assert(textOf(bad).includes("No commit 'nope'"), textOf(bad));
    });
  },
);

Deno.test("answers: what a file is for, by path conventions", () => {
  const cases: [string, string][] = [
    ["src/app/service.py", "production"],
    ["tests/test_cli.py", "test"],
    ["pkg/cli_test.go", "test"],
    ["web/app.spec.ts", "test"],
    ["fixtures/traps/clikit/core.py", "test"],
    ["examples/demo.py", "example"],
    ["docs/conf.py", "doc"],
    ["vendor/lib/x.go", "vendored"],
    ["api/user.pb.go", "generated"],
  ];
  assertEquals(cases.map(([p]) => [p, roleOf(p)]), cases);
});

Deno.test("answers: lines of one file say its path once, where that saves tokens", () => {
  const node = (path: string, qn: string, line: number, kind = "Function"): NodeRef => ({
    id: `${path}:${line}`,
    name: qn.slice(qn.lastIndexOf(".") + 1),
    qualified_name: qn,
    kind: kind as NodeRef["kind"],
    path,
    line,
  });
  const links = [
    node("src/auth/service.py", "src.auth.service.UserService.login", 12, "Method"),
    node("src/auth/service.py", "src.auth.service.UserService.logout", 80, "Method"),
    node("src/api/routes.py", "src.api.routes.login_route", 7),
    node("src/auth/service.py", "src.auth.service.check", 120),
    node("src/api/routes.py", "src/api/routes.py", 0, "File"),
    node("src/api/routes.py", "src/api/routes.py", 0, "File"),
  ];
  const grouped = byFile(links, (n) => n, (n) => ` | at ${n.line + 1}`);
  // Runs only (the order is the answer's); a file alone, and file nodes, keep their own lines.
  assertEquals(grouped, [
    "src/auth/service.py:",
    "12 | UserService.login | method | at 13",
    "80 | UserService.logout | method | at 81",
    "src/api/routes.py:7 | login_route | function | at 8",
    "src/auth/service.py:120 | check | function | at 121",
    "src/api/routes.py | file | at 1",
    "src/api/routes.py | file | at 1",
  ]);
  const flat = links.map((n) => `${nodeLine(n)} | at ${n.line + 1}`);
  assert(tokens(grouped.join("\n")) < tokens(flat.join("\n")));
  // Even two lines of a short path save.
  const two = [node("a.py", "a.login", 3), node("a.py", "a.logout", 9)];
  assert(
    tokens(byFile(two, (n) => n, () => "").join("\n")) <
      tokens(two.map((n) => nodeLine(n)).join("\n")),
  );
  assertEquals(
    sitesByFile(["clikit/cli.py:14", "clikit/cli.py:20", "clikit/core.py:7", "clikit/cli.py:30"]),
    "clikit/cli.py:14,20, clikit/core.py:7, clikit/cli.py:30",
  );
  assert(
    tokens("clikit/cli.py:14,20, clikit/core.py:7") <
      tokens("clikit/cli.py:14, clikit/cli.py:20, clikit/core.py:7"),
  );
});
