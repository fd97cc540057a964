/** `cgraph mcp [path]`: the MCP server over stdio (see src/mcp/server.ts). */
import { resolve } from "node:path";
import { serveStdio } from "../mcp/server.ts";
import { type Command, parseCommandArgs } from "./command.ts";

const USAGE = "cgraph mcp [path] [--project P] [--branch B]";

export const mcpCommand: Command = {
  name: "mcp",
  summary: "serve the code graph tools over MCP (stdio); [path] is the default project",
  async run(args) {
    const { values, positionals } = parseCommandArgs(args, {
      project: { type: "string" },
      branch: { type: "string" },
      help: { type: "boolean", short: "h" },
    }, USAGE);
    if (values.help) {
      console.log(
        `${USAGE}\n\nServes cgraph's tools over MCP on stdin/stdout. [path] (default: .) is the ` +
          "project tools answer for when a call names none; it is indexed on first use unless " +
          "CODE_GRAPH_AUTO_INDEX=false. --project / --branch name its graph.",
      );
      return 0;
    }
    if (positionals.length > 1) {
      console.error(`cgraph mcp: one path at most\nUsage: ${USAGE}`);
      return 2;
    }
    return await serveStdio({
      defaultPath: resolve(positionals[0] ?? "."),
      project: values.project,
      branch: values.branch,
    });
  },
};
