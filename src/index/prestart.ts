/**
 * `cgraph index --full [path]` parses every file of the repository: its parse workers start before
 * anything else loads, and a quick census of the tree (the walk a run begins with), done before the
 * CLI loads, tells them which languages to load, so grammars and queries compile while the CLI, the
 * database client and the connection come up. The run itself walks again and takes the workers
 * already loaded.
 */
import { prepareWorkers, prestartWorkers, runsSoFar, workerCount } from "./pool.ts";
import { walkRepository } from "./walk.ts";

/** Options of `cgraph index` that take a value (the rest are flags). */
const VALUED = new Set(["--project", "--branch", "--wait", "--max-graphs"]);

/** The path an `index` command's arguments name (the first positional), or `.`. */
export function indexPath(args: string[]): string {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (VALUED.has(a)) i++;
    else if (!a.startsWith("-")) return a;
  }
  return ".";
}

/**
 * How long the CLI waits for the census before it loads: the census alone takes tens of ms, but
 * several times that beside the CLI's loading, and the languages it finds start the workers'
 * longest step (compiling each language's query). A huge tree is not waited for.
 */
const CENSUS_WAIT_MS = 250;

/**
 * Starts the workers of a full index of the repository `args` name, one per core (those a small
 * repository does not need end when the run starts), and has them load its languages (see above).
 * Resolves when they know the languages, or after CENSUS_WAIT_MS.
 */
export async function prestartFullIndex(args: string[]): Promise<void> {
  prestartWorkers(workerCount(Number.MAX_SAFE_INTEGER));
  const since = runsSoFar();
  const census = walkRepository(indexPath(args)).then(
    (walk) => prepareWorkers(walk.files, since),
    () => {}, // the run reports a path it cannot walk
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([census, new Promise((r) => timer = setTimeout(r, CENSUS_WAIT_MS))]);
  clearTimeout(timer);
}
