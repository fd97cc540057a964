/**
 * The command line: a table of commands, each in its own module. Every command returns an exit
 * code; output for people goes to stdout, diagnostics to stderr.
 */
import { describeError } from "../errors.ts";
import { VERSION } from "../version.ts";
import type { Command } from "./command.ts";

/**
 * The commands by module, in the order `--help` lists them. A command loads only its own module
 * (and what that imports) when it runs: `cgraph db status` loads no tool, `cgraph callers` no
 * indexer, MCP server or browser view. `names` are the commands each module defines (checked by
 * tests/cli_parity_test.ts); the tools' CLI twins are the module without names, tried last.
 */
export const COMMAND_MODULES: { names?: string[]; load(): Promise<Command[]> }[] = [
  { names: ["index"], load: async () => [(await import("./index_cmd.ts")).indexCommand] },
  { names: ["mcp"], load: async () => [(await import("./mcp_cmd.ts")).mcpCommand] },
  { names: ["watch"], load: async () => [(await import("./watch_cmd.ts")).watchCommand] },
  { names: ["view"], load: async () => [(await import("./view_cmd.ts")).viewCommand] },
  // The CLI twins of the MCP tools (`list` is list_projects' twin).
  { load: async () => (await import("./query_cmds.ts")).queryCommands },
  {
    names: ["delete", "gc", "migrate"],
    load: async () => {
      const m = await import("./catalog_cmds.ts");
      return [m.deleteCommand, m.gcCommand, m.migrateCommand];
    },
  },
  { names: ["db"], load: async () => [(await import("./db.ts")).dbCommand] },
  {
    names: ["init-agent"],
    load: async () => [(await import("./init_agent_cmd.ts")).initAgentCommand],
  },
];

/** Every command, loaded (for `--help` and an unknown name). */
async function allCommands(): Promise<Command[]> {
  return (await Promise.all(COMMAND_MODULES.map((m) => m.load()))).flat();
}

/** The command named `name`, loading only the module that defines it; undefined if none does. */
async function findCommand(name: string): Promise<Command | undefined> {
  const module = COMMAND_MODULES.find((m) => m.names?.includes(name)) ??
    COMMAND_MODULES.find((m) => !m.names)!;
  return (await module.load()).find((c) => c.name === name);
}

function usage(commands: Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
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
    console.log(usage(await allCommands()));
    return name === undefined ? 2 : 0;
  }
  if (name === "--version" || name === "-V" || name === "version") {
    console.log(`cgraph ${VERSION}`);
    return 0;
  }
  const command = await findCommand(name);
  if (!command) {
    console.error(`cgraph: unknown command '${name}'\n\n${usage(await allCommands())}`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    console.error(`cgraph ${name}: ${describeError(err)}`);
    return 1;
  }
}
