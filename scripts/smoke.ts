/**
 * Smoke test of a built cgraph: `deno run -A scripts/smoke.ts <command> [args...]`, e.g.
 *   deno run -A scripts/smoke.ts ./dist/cgraph-x86_64-unknown-linux-gnu
 *   deno run -A scripts/smoke.ts deno run -A --no-config dist/cgraph.js
 *
 * Against the FalkorDB cgraph finds (FALKORDB_URL in CI's service container): prints the version,
 * indexes fixtures/python under a throwaway project, asks the CLI for callers, then starts
 * `<command> mcp` over stdio with the MCP SDK client, lists the tools and calls get_callers. The
 * MCP answer must equal the CLI's. Deletes its graph at the end; exits 1 on any failure.
 * SMOKE_OFFLINE=1 runs the command with an empty DENO_DIR and no way to download anything.
 */
// @ts-types="@modelcontextprotocol/sdk/client"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { VERSION } from "../src/version.ts";

const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
const FIXTURE = join(ROOT, "fixtures/python");
const EXPECTED_CALLERS = ["shop.models.User.save", "shop.service.UserService._audit"];

function fail(message: string): never {
  console.error(`smoke: FAILED: ${message}`);
  Deno.exit(1);
}

let ENV: Record<string, string> = {};

async function run(cmd: string[], args: string[]): Promise<string> {
  const out = await new Deno.Command(cmd[0], {
    args: [...cmd.slice(1), ...args],
    env: ENV,
    clearEnv: true,
    stdin: "null",
    stderr: "inherit",
  }).output();
  const stdout = new TextDecoder().decode(out.stdout);
  if (!out.success) fail(`'${[...cmd, ...args].join(" ")}' exited ${out.code}\n${stdout}`);
  return stdout;
}

function callerNames(text: string): string[] {
  return text.split("\n").slice(1).filter(Boolean).map((l) => l.split(" | ")[1]).sort();
}

/**
 * The environment for the command under test. With SMOKE_OFFLINE=1 it gets an empty DENO_DIR and
 * every proxy variable pointing at a closed local port: a single-file build must not download.
 */
async function childEnv(): Promise<Record<string, string>> {
  const env = Deno.env.toObject();
  if (env.SMOKE_OFFLINE !== "1") return env;
  const closed = "http://127.0.0.1:9";
  for (const k of ["HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"]) env[k] = closed;
  env.NPM_CONFIG_REGISTRY = closed;
  delete env.NO_PROXY;
  delete env.no_proxy;
  env.DENO_DIR = await Deno.makeTempDir({ prefix: "cgraph-smoke-deno-dir-" });
  return env;
}

if (import.meta.main) {
  const cmd = [...Deno.args];
  if (cmd.length === 0) fail("usage: scripts/smoke.ts <command> [args...]");
  if (cmd[0].includes("/")) cmd[0] = resolve(cmd[0]);
  ENV = await childEnv();
  const project = `smoke-${crypto.randomUUID().slice(0, 8)}`;
  const scope = ["--project", project, "--branch", "smoke"];

  const version = (await run(cmd, ["--version"])).trim();
  if (version !== `cgraph ${VERSION}`) fail(`--version printed '${version}'`);
  console.error(`smoke: ${version}`);

  try {
    const summary = await run(cmd, ["index", FIXTURE, ...scope]);
    if (!/files: scanned 7, added 7\b/.test(summary)) fail(`unexpected summary:\n${summary}`);
    console.error(`smoke: indexed ${FIXTURE}`);

    const cli = await run(cmd, ["callers", "shop.db.store", ...scope]);
    // Qualified names, or their tails where the path already says the module.
    const names = callerNames(cli);
    if (
      names.length !== 2 ||
      !EXPECTED_CALLERS.every((e, i) => e === names[i] || e.endsWith(`.${names[i]}`))
    ) {
      fail(`CLI callers of shop.db.store:\n${cli}`);
    }

    const transport = new StdioClientTransport({
      command: cmd[0],
      args: [...cmd.slice(1), "mcp", FIXTURE, ...scope],
      // The whole environment (the SDK passes only a few variables by default): FALKORDB_URL.
      env: ENV,
      stderr: "inherit",
    });
    const client = new Client({ name: "cgraph-smoke", version: VERSION });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      if (!tools.some((t) => t.name === "get_callers")) fail("tools/list lacks get_callers");
      const r = await client.callTool({
        name: "get_callers",
        arguments: { symbol: "shop.db.store" },
      });
      const content = r.content as { type: string; text?: string }[];
      const text = content.find((c) => c.type === "text")?.text ?? "";
      if (r.isError) fail(`get_callers over MCP: ${text}`);
      if (text.trimEnd() !== cli.trimEnd()) fail(`MCP and CLI differ:\n${text}\n---\n${cli}`);
      console.error(`smoke: MCP stdio ok (${tools.length} tools; get_callers as the CLI)`);
    } finally {
      await client.close();
    }
  } finally {
    // Best effort: the graph of a failed run is left for inspection only if this fails too.
    await new Deno.Command(cmd[0], {
      args: [...cmd.slice(1), "delete", "--project", project],
      env: ENV,
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output().catch(() => {});
    if (Deno.env.get("SMOKE_OFFLINE") === "1") {
      await Deno.remove(ENV.DENO_DIR, { recursive: true }).catch(() => {});
    }
  }
  console.error("smoke: ok");
}
