/**
 * `cgraph watch [path]`: keeps a repository's graph current from the command line (indexed first,
 * then updated as files change, following checkouts), one line per update, until interrupted.
 */
import { log } from "../log.ts";
import { displayName } from "../project/names.ts";
import { Session } from "../query/session.ts";
// The post-index steps features register (decisions).
import "../tools/steps.ts";
import { ProjectWatcher, type WatchUpdate } from "../watch/project.ts";
import { type Command, parseCommandArgs, pathArgument } from "./command.ts";

const USAGE = "cgraph watch [path] [--project P] [--branch B]";

const HELP = `${USAGE}

Indexes [path] (default: .), then keeps its graph current: files are watched (the ignore list
and .gitignore respected), changes are indexed incrementally a moment after they stop, and a
checkout switches to (or builds) that branch's graph. One line per update; Ctrl-C stops.
CGRAPH_WATCH_DEBOUNCE_MS sets the quiet time before an update (default 30).`;

export const watchCommand: Command = {
  name: "watch",
  summary: "keep a repository's graph current as files change, one line per update",
  async run(args) {
    const { values, positionals } = parseCommandArgs(args, {
      project: { type: "string" },
      branch: { type: "string" },
      help: { type: "boolean", short: "h" },
    }, USAGE);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const path = pathArgument("watch", positionals, USAGE);
    if (path === undefined) return 2;
    const session = new Session({
      defaultPath: path,
      project: values.project,
      branch: values.branch,
      resident: true,
    });
    const ref = await session.defaultRef();
    await session.db();
    const watcher = new ProjectWatcher(session, ref, {
      create: true,
      project: values.project,
      branch: values.branch,
      onUpdate: (u) => console.log(updateLine(u)),
    });
    const stopped = new Promise<void>((resolve) => {
      const stop = () => resolve();
      Deno.addSignalListener("SIGINT", stop);
      Deno.addSignalListener("SIGTERM", stop);
    });
    console.log(
      `watching ${ref.root} (${displayName(ref.project)}, branch ${displayName(ref.branch)})`,
    );
    await watcher.start();
    await stopped;
    log.debug("watch: stopping");
    await watcher.close();
    await session.close();
    return 0;
  },
};

/** One line per update: time, graph, what changed, how long it took. */
export function updateLine(u: WatchUpdate, now = new Date()): string {
  const time = now.toISOString().slice(11, 19);
  const graph = `${displayName(u.ref.project)}:${displayName(u.ref.branch)}`;
  if (u.kind === "branch") {
    return `${time} ${graph}: HEAD moved from ${displayName(u.from)}, now on this branch`;
  }
  if (u.kind === "error") return `${time} ${graph}: update failed: ${u.message}`;
  const s = u.summary;
  const f = s.files;
  const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
  const what = s.mode === "full"
    ? `full index of ${f.scanned} files`
    : u.changed === 0
    ? "no change"
    : `${f.added.length} added, ${f.modified.length} modified, ${f.deleted.length} deleted`;
  return `${time} ${graph}: ${what} -> ${sum(s.symbols)} symbols, ${
    sum(s.edges)
  } edges (${s.durationMs} ms)`;
}
