/** `cgraph init-agent`: agent guidance files and registration instructions (src/agent/init.ts). */
import { type Client, CLIENTS, initAgent } from "../agent/init.ts";
import { CgraphError } from "../errors.ts";
import { type Command, parseCommandArgs, pathArgument } from "./command.ts";

const USAGE = "cgraph init-agent [path] [--claude] [--cursor] [--codex] [--vscode] " +
  "[--url URL] [--command CMD] [--dry-run]";

const HELP = `${USAGE}

Sets a repository up for coding agents: writes when-to-use-which-tool guidance for cgraph, and
prints how to register the MCP server with each client. No client flag means all of them.

  --claude   CLAUDE.md section; prints 'claude mcp add ...' and the Claude Desktop JSON
  --codex    AGENTS.md section; prints 'codex mcp add ...' / ~/.codex/config.toml
  --cursor   .cursor/rules/cgraph.mdc; prints .cursor/mcp.json
  --vscode   AGENTS.md section; prints .vscode/mcp.json

The guidance sits between '<!-- cgraph:begin ... -->' and '<!-- cgraph:end -->': running again
replaces only that section (nothing changes when it is current); your own text is kept.
[path] (default: .) is any directory of the repository; files go to its top level.
  --url URL      register a shared server ('cgraph mcp --http') instead of a local one
  --command CMD  the command clients run (default: how this cgraph was started)
  --dry-run      say what would change, write nothing`;

export const initAgentCommand: Command = {
  name: "init-agent",
  summary: "write agent guidance (AGENTS.md, CLAUDE.md, Cursor rule) and print MCP registration",
  async run(args) {
    const { values, positionals } = parseCommandArgs(args, {
      claude: { type: "boolean" },
      cursor: { type: "boolean" },
      codex: { type: "boolean" },
      vscode: { type: "boolean" },
      url: { type: "string" },
      command: { type: "string" },
      "dry-run": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    }, USAGE);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const path = pathArgument("init-agent", positionals, USAGE);
    if (path === undefined) return 2;
    if (values.url !== undefined && !/^https?:\/\/[^/]/.test(values.url)) {
      throw new CgraphError(
        `not an http(s) URL: ${values.url}`,
        "Pass the server's endpoint, e.g. --url http://codegraph.internal:3000/mcp",
      );
    }
    const clients = CLIENTS.filter((c) => values[c]) as Client[];
    const result = await initAgent({
      path,
      clients,
      url: values.url,
      launch: values.command ? { command: values.command, args: [] } : undefined,
      dryRun: values["dry-run"],
    });
    const verb = values["dry-run"] ? " (dry run: nothing written)" : "";
    console.log(`guidance in ${result.root}${verb}:`);
    for (const f of result.files) console.log(`  ${f.path}: ${f.action}`);
    console.log(`\nRegister the MCP server:\n\n${result.registration}`);
    return 0;
  },
};
