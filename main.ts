/**
 * cgraph: a code graph for AI coding agents, served over MCP and as a CLI.
 * `deno run -A --unstable-raw-imports main.ts --help`
 *
 * In a single-file build (`deno task build`: dist/cgraph.js, and the binaries compiled from it)
 * there is no separate worker module, so this file is its own parse-worker entry: started as a
 * worker it serves parse requests instead of running the CLI.
 *
 * Modules load when first needed: `cgraph --version` loads nothing else, a command loads what it
 * runs.
 */
import { VERSION } from "./src/version.ts";

const scope = globalThis as { WorkerGlobalScope?: abstract new () => unknown };
const inWorker = typeof scope.WorkerGlobalScope === "function" &&
  globalThis instanceof scope.WorkerGlobalScope;
/** Bundled: this module is no longer main.ts but the bundle (or the binary made from it). */
const bundled = !import.meta.url.endsWith("/main.ts");

if (inWorker) {
  (await import("./src/index/worker.ts")).serveParseRequests();
} else if (import.meta.main) {
  const first = Deno.args[0];
  if (first === "--version" || first === "-V" || first === "version") {
    console.log(`cgraph ${VERSION}`);
    Deno.exit(0);
  }
  // `index --full` parses every file: its parse workers start and load the repository's languages
  // before anything else loads (src/index/prestart.ts).
  const full = first === "index" && Deno.args.includes("--full") && !Deno.args.includes("--help");
  if (bundled) (await import("./src/index/pool.ts")).setWorkerEntry(import.meta.url);
  if (full) await (await import("./src/index/prestart.ts")).prestartFullIndex(Deno.args.slice(1));
  const { runCli } = await import("./src/cli/main.ts");
  Deno.exit(await runCli(Deno.args));
}
