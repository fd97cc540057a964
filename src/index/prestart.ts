/**
 * `cgraph index --full [path]` parses every file of the repository: its parse workers start before
 * anything else loads, and a quick census of the tree (the walk a run begins with) tells them which
 * languages to load, so grammars and queries compile while the CLI, the database client and the
 * connection come up. The run itself walks again and takes the workers already loaded.
 */
import { prepareWorkers, prestartWorkers, runsSoFar } from "./pool.ts";
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

/** Starts and warms the workers of a full index of the repository `args` name (see above). */
export function prestartFullIndex(args: string[]): void {
  prestartWorkers(1);
  const since = runsSoFar();
  walkRepository(indexPath(args)).then(
    (walk) => prepareWorkers(walk.files, since),
    () => {}, // the run reports a path it cannot walk
  );
}
