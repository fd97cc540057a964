/**
 * cgraph: a code graph for AI coding agents, served over MCP and as a CLI.
 * `deno run -A --unstable-raw-imports main.ts --help`
 */
import { runCli } from "./src/cli/main.ts";

if (import.meta.main) {
  Deno.exit(await runCli(Deno.args));
}
