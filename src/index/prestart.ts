/**
 * `cgraph index --full [path]` parses every file of the repository: its parse workers start before
 * anything else loads, and a quick census of the tree (the walk a run begins with), done before the
 * CLI loads, tells them which languages to load, so grammars and queries compile while the CLI, the
 * database client and the connection come up. The run takes the workers already loaded, and the
 * census as its walk when it is of the same root and recent (`takeCensus`).
 */
import { resolve } from "node:path";
import { prepareWorkers, prestartWorkers, runsSoFar, workerCount } from "./pool.ts";
import { walkRepository, type WalkResult } from "./walk.ts";

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
 * A census is the run's walk when the run starts within this long of its end: the tree as it was
 * a moment after the command started. A run that comes later (a database that took long to
 * start) walks again.
 */
const CENSUS_FRESH_MS = 1500;

/** The census of this process, until a run takes it. */
let census: { root: string; walk: Promise<WalkResult | undefined>; done?: number } | undefined;

/**
 * The census walk of `root`, if one was taken for it and ended less than CENSUS_FRESH_MS ago;
 * once only (a later run walks again). Undefined otherwise, or if the census failed.
 */
export async function takeCensus(
  root: string,
  now = () => performance.now(),
): Promise<WalkResult | undefined> {
  const taken = census;
  census = undefined;
  if (!taken || taken.root !== resolve(root)) return undefined;
  const walk = await taken.walk;
  const done = taken.done;
  return walk && done !== undefined && now() - done < CENSUS_FRESH_MS ? walk : undefined;
}

/**
 * Starts the workers of a full index of the repository `args` name, one per core (those a small
 * repository does not need end when the run starts), and has them load its languages (see above).
 * Resolves when they know the languages, or after CENSUS_WAIT_MS.
 */
export async function prestartFullIndex(args: string[]): Promise<void> {
  prestartWorkers(workerCount(Number.MAX_SAFE_INTEGER));
  const since = runsSoFar();
  const root = resolve(indexPath(args));
  const taken: NonNullable<typeof census> = {
    root,
    walk: walkRepository(root).then(
      (walk) => {
        taken.done = performance.now();
        prepareWorkers(walk.files, since);
        return walk;
      },
      () => undefined, // the run reports a path it cannot walk
    ),
  };
  census = taken;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([taken.walk, new Promise((r) => timer = setTimeout(r, CENSUS_WAIT_MS))]);
  clearTimeout(timer);
}
