/**
 * The command line: a table of commands, each in its own module. Every command returns an exit
 * code; output for people goes to stdout, diagnostics to stderr.
 */
import { describeError } from "../errors.ts";
import { VERSION } from "../version.ts";
import type { Command } from "./command.ts";
import { dbCommand } from "./db.ts";
import { indexCommand } from "./index_cmd.ts";
import { deleteCommand, gcCommand, migrateCommand } from "./catalog_cmds.ts";
import { mcpCommand } from "./mcp_cmd.ts";
import { initAgentCommand } from "./init_agent_cmd.ts";
import { queryCommands } from "./query_cmds.ts";
import { viewCommand } from "./view_cmd.ts";
import { watchCommand } from "./watch_cmd.ts";

const COMMANDS: Command[] = [
  indexCommand,
  mcpCommand,
  watchCommand,
  viewCommand,
  // The CLI twins of the MCP tools (`list` is list_projects' twin).
  ...queryCommands,
  deleteCommand,
  gcCommand,
  migrateCommand,
  dbCommand,
  initAgentCommand,
];

function usage(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `cgraph ${VERSION}: a code graph for AI coding agents (MCP server and CLI)`,
    "",
    "Usage: cgraph <command> [options]",
    "",
    "Commands:",
    ...lines,
    "",
    "Run 'cgraph <command> --help' for a command's options.",
  ].join("\n");
}

export async function runCli(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    console.log(`cgraph ${VERSION}`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    console.error(`cgraph: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    console.error(`cgraph ${name}: ${describeError(err)}`);
    return 1;
  }
}
