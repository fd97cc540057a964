/**
 * cgraph: a code graph for AI coding agents, served over MCP and as a CLI.
 * `deno run -A --unstable-raw-imports main.ts --help`
 *
 * In a single-file build (`deno task build`: dist/cgraph.js, and the binaries compiled from it)
 * there is no separate worker module, so this file is its own parse-worker entry: started as a
 * worker it serves parse requests instead of running the CLI.
 */
import { runCli } from "./src/cli/main.ts";
import { setWorkerEntry } from "./src/index/pool.ts";
import { serveParseRequests } from "./src/index/worker.ts";

const scope = globalThis as { WorkerGlobalScope?: abstract new () => unknown };
const inWorker = typeof scope.WorkerGlobalScope === "function" &&
  globalThis instanceof scope.WorkerGlobalScope;
/** Bundled: this module is no longer main.ts but the bundle (or the binary made from it). */
const bundled = !import.meta.url.endsWith("/main.ts");

if (inWorker) {
  serveParseRequests();
} else if (import.meta.main) {
  if (bundled) setWorkerEntry(import.meta.url);
  Deno.exit(await runCli(Deno.args));
}
