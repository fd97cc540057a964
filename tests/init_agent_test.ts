/**
 * `cgraph init-agent` on temporary git repositories, run as the real CLI: guidance files per
 * client, idempotence (a second run changes no byte), the user's own content around the marked
 * section kept, updates replacing only the section, broken markers refused, dry runs, and the
 * registration text for every client (JSON that parses, TOML and commands that name the server).
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { join } from "node:path";
import { upsertSection } from "../src/agent/init.ts";
import { BEGIN_MARKER, END_MARKER, guidanceBody, markedGuidance } from "../src/agent/templates.ts";
import { TOOLS } from "../src/tools/registry.ts";
import { childEnv, ROOT } from "./helpers/mcp.ts";

async function gitRepo(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-init-" });
  const out = await new Deno.Command("git", { args: ["init", "-q", dir] }).output();
  assert(out.success, "git init");
  return dir;
}

async function initAgent(args: string[], cwd: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--unstable-raw-imports", join(ROOT, "main.ts"), "init-agent", ...args],
    cwd,
    env: childEnv({}),
    stdin: "null",
  }).output();
  const dec = new TextDecoder();
  return { code: out.code, stdout: dec.decode(out.stdout), stderr: dec.decode(out.stderr) };
}

/** Every file under `dir` (except .git) with its content. */
async function snapshot(dir: string, sub = ""): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of Deno.readDir(join(dir, sub))) {
    const rel = sub ? `${sub}/${e.name}` : e.name;
    if (rel === ".git") continue;
    if (e.isDirectory) Object.assign(out, await snapshot(dir, rel));
    else out[rel] = await Deno.readTextFile(join(dir, rel));
  }
  return out;
}

/** The file actions a run reported: { path: action }. */
function actions(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of stdout.matchAll(/^ {2}(\S+): (created|updated|unchanged)$/gm)) out[m[1]] = m[2];
  return out;
}

/** The indented JSON block following the line that starts with `title`. */
function jsonAfter(stdout: string, title: string): unknown {
  const lines = stdout.split("\n");
  const start = lines.findIndex((l) => l.startsWith(title));
  assert(start >= 0, `'${title}' in output`);
  const body: string[] = [];
  for (const l of lines.slice(start + 1)) {
    if (!l.startsWith("  ") || l.startsWith("  or")) break;
    body.push(l);
  }
  return JSON.parse(body.join("\n"));
}

Deno.test("init-agent: the guidance names every tool of the table, and only those", () => {
  const body = guidanceBody();
  const named = new Set([...body.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]));
  for (const t of TOOLS) assert(named.has(t.name), `guidance mentions ${t.name}`);
  const toolNames = new Set(TOOLS.map((t) => t.name));
  const bullets = body.split("\n").filter((l) => l.startsWith("- "));
  for (const b of bullets) {
    for (const m of b.split(":")[0].matchAll(/`([a-z_]+)`/g)) {
      assert(toolNames.has(m[1]), `${m[1]} is a tool`);
    }
  }
  assert(body.length / 4 < 700, `guidance stays brief (~${Math.round(body.length / 4)} tokens)`);
});

Deno.test("init-agent: upsertSection appends once, replaces in place, refuses broken markers", () => {
  const section = markedGuidance();
  assertEquals(upsertSection(undefined, section), section);
  assertEquals(upsertSection("", section), section);
  assertEquals(upsertSection("# Mine", section), `# Mine\n\n${section}`);
  assertEquals(upsertSection("# Mine\n", section), `# Mine\n\n${section}`);
  assertEquals(upsertSection("# Mine\n\n", section), `# Mine\n\n${section}`);
  const once = upsertSection("# Mine\n", section);
  assertEquals(upsertSection(once, section), once);
  const old = `before\n${BEGIN_MARKER}\nold text\n${END_MARKER}\nafter\n`;
  assertEquals(upsertSection(old, section), `before\n${section}after\n`);
  const crlf = `before\r\n${BEGIN_MARKER}\r\nold\r\n${END_MARKER}\r\nafter\r\n`;
  assertEquals(upsertSection(crlf, section), `before\r\n${section}after\r\n`);
  for (
    const broken of [
      `${BEGIN_MARKER}\nno end\n`,
      `no begin\n${END_MARKER}\n`,
      `${END_MARKER}\n${BEGIN_MARKER}\n`,
      `${section}${section}`,
    ]
  ) {
    assert.throws(() => upsertSection(broken, section), /marker comments are broken/);
  }
});

Deno.test("init-agent: writes each client's guidance; a second run changes nothing", async () => {
  const repo = await gitRepo();
  try {
    const mine = "# Project rules\n\nUse tabs. Run `make test` before committing.\n";
    await Deno.writeTextFile(join(repo, "AGENTS.md"), mine);
    await Deno.mkdir(join(repo, "src/deep"), { recursive: true });

    // From a subdirectory: files go to the repository's top level.
    const first = await initAgent([], join(repo, "src/deep"));
    assertEquals(first.code, 0, first.stderr);
    assertEquals(actions(first.stdout), {
      "CLAUDE.md": "created",
      "AGENTS.md": "updated",
      ".cursor/rules/cgraph.mdc": "created",
    });
    const after1 = await snapshot(repo);
    assertEquals(Object.keys(after1).sort(), [
      ".cursor/rules/cgraph.mdc",
      "AGENTS.md",
      "CLAUDE.md",
    ]);
    assert(after1["AGENTS.md"].startsWith(mine), "the user's content is kept, first");
    assertEquals(after1["AGENTS.md"], `${mine}\n${markedGuidance()}`);
    assertEquals(after1["CLAUDE.md"], markedGuidance());
    const mdc = after1[".cursor/rules/cgraph.mdc"];
    assert(mdc.startsWith("---\ndescription: "), mdc);
    assert(mdc.includes("\nalwaysApply: true\n---\n"), mdc);
    assert(mdc.endsWith(markedGuidance()));

    const second = await initAgent([], repo);
    assertEquals(second.code, 0, second.stderr);
    assertEquals(Object.values(actions(second.stdout)), ["unchanged", "unchanged", "unchanged"]);
    assertEquals(await snapshot(repo), after1, "a second run changes no byte");

    // The user edits around the section and inside it; a run restores only the section.
    const edited = after1["AGENTS.md"].replace("## Code graph (cgraph)", "## stale guidance") +
      "\n## More rules\n\nNo force pushes.\n";
    await Deno.writeTextFile(join(repo, "AGENTS.md"), edited);
    const third = await initAgent(["--codex"], repo);
    assertEquals(actions(third.stdout), { "AGENTS.md": "updated" });
    assertEquals(
      await Deno.readTextFile(join(repo, "AGENTS.md")),
      `${mine}\n${markedGuidance()}\n## More rules\n\nNo force pushes.\n`,
    );
    const fourth = await initAgent(["--codex"], repo);
    assertEquals(actions(fourth.stdout), { "AGENTS.md": "unchanged" });

    // A Cursor rule the user extended below the section keeps its own front matter and text.
    const rule = mdc.replace("alwaysApply: true", "alwaysApply: false") + "\nTeam note.\n";
    await Deno.writeTextFile(join(repo, ".cursor/rules/cgraph.mdc"), rule);
    const fifth = await initAgent(["--cursor"], repo);
    assertEquals(actions(fifth.stdout), { ".cursor/rules/cgraph.mdc": "unchanged" });
    assertEquals(await Deno.readTextFile(join(repo, ".cursor/rules/cgraph.mdc")), rule);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("init-agent: client flags, dry run, broken markers", async () => {
  const repo = await gitRepo();
  try {
    const dry = await initAgent(["--claude", "--dry-run"], repo);
    assertEquals(dry.code, 0, dry.stderr);
    assertEquals(actions(dry.stdout), { "CLAUDE.md": "created" });
    assert(dry.stdout.includes("dry run"));
    assertEquals(await snapshot(repo), {}, "a dry run writes nothing");

    const cursor = await initAgent(["--cursor"], repo);
    assertEquals(Object.keys(await snapshot(repo)), [".cursor/rules/cgraph.mdc"]);
    assert(!cursor.stdout.includes("Claude Code"));

    const vscode = await initAgent(["--vscode"], repo);
    assertEquals(actions(vscode.stdout), { "AGENTS.md": "created" });

    await Deno.writeTextFile(join(repo, "CLAUDE.md"), `mine\n${BEGIN_MARKER}\nhalf a section\n`);
    const broken = await initAgent(["--claude"], repo);
    assertEquals(broken.code, 1);
    assert.match(broken.stderr, /marker comments are broken/);
    assertEquals(
      await Deno.readTextFile(join(repo, "CLAUDE.md")),
      `mine\n${BEGIN_MARKER}\nhalf a section\n`,
    );

    const notDir = await initAgent([join(repo, "nope")], repo);
    assertEquals(notDir.code, 1);
    assert.match(notDir.stderr, /no such directory/);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("init-agent: registration for every client, local and shared server", async () => {
  const repo = await gitRepo();
  try {
    const local = await initAgent(["--command", "cgraph", "--dry-run"], repo);
    assertEquals(local.code, 0, local.stderr);
    const out = local.stdout;
    assert(out.includes("  claude mcp add cgraph -- cgraph mcp\n"), out);
    assert(out.includes("  claude mcp add --scope project cgraph -- cgraph mcp\n"), out);
    assert(out.includes("Codex: codex mcp add cgraph -- cgraph mcp\n"), out);
    assert(out.includes('  [mcp_servers.cgraph]\n  command = "cgraph"\n  args = ["mcp"]'), out);
    assertEquals(jsonAfter(out, "Cursor:"), {
      mcpServers: { cgraph: { command: "cgraph", args: ["mcp"] } },
    });
    assertEquals(jsonAfter(out, "VS Code:"), {
      servers: { cgraph: { type: "stdio", command: "cgraph", args: ["mcp"] } },
    });
    const desktop = jsonAfter(out, "Claude Desktop:") as {
      mcpServers: { cgraph: { args: string[] } };
    };
    // Claude Desktop has no project directory: the repository is the server's argument.
    assertEquals(desktop.mcpServers.cgraph.args, ["mcp", await Deno.realPath(repo)]);

    const url = "http://codegraph.internal:3000/mcp";
    const shared = await initAgent(["--url", url, "--dry-run"], repo);
    assertEquals(shared.code, 0, shared.stderr);
    const s = shared.stdout;
    assert(s.includes(`claude mcp add --transport http cgraph ${url} --header`), s);
    assertEquals(jsonAfter(s, "Cursor:"), {
      mcpServers: { cgraph: { url, headers: { Authorization: "Bearer <CGRAPH_TOKEN>" } } },
    });
    assertEquals(jsonAfter(s, "VS Code:"), {
      servers: {
        cgraph: { type: "http", url, headers: { Authorization: "Bearer <CGRAPH_TOKEN>" } },
      },
    });
    assert(s.includes(`  url = "${url}"\n  bearer_token_env_var = "CGRAPH_TOKEN"`), s);
    assert(!s.includes("args = ["), "no stdio Codex entry for a shared server");

    // Without --command, clients are told to start this very cgraph (here: deno run main.ts).
    const auto = await initAgent(["--claude", "--dry-run"], repo);
    assert(
      auto.stdout.includes(`--unstable-raw-imports ${join(ROOT, "main.ts")} mcp`),
      auto.stdout,
    );

    const bad = await initAgent(["--url", "ftp://x"], repo);
    assertEquals(bad.code, 1);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});
