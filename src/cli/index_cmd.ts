import { indexProject } from "../index/indexer.ts";
// The post-index steps features register (decisions).
import "../tools/steps.ts";
import { formatSummary, progressBar, summaryJson } from "../index/report.ts";
import { type Command, parseCommandArgs } from "./command.ts";
import { DEFAULT_MAX_GRAPHS, MAX_GRAPHS_ENV, parseMaxGraphs } from "../project/retention.ts";
import { PROJECT_OPTIONS, projectRef, withDb } from "./project.ts";

const USAGE =
  "cgraph index [path] [--project P] [--branch B] [--full] [--wait S] [--max-graphs N] [--json]";

/** How long the CLI waits for another indexer of the same graph, by default (seconds). */
const WAIT_S = 180;

export const indexCommand: Command = {
  name: "index",
  summary: "index a repository into its (project, branch) graph; incremental once it exists",
  async run(args) {
    const { values, positionals } = parseCommandArgs(args, {
      ...PROJECT_OPTIONS,
      full: { type: "boolean" },
      wait: { type: "string" },
      "max-graphs": { type: "string" },
    }, USAGE);
    if (values.help) {
      console.log(
        `${USAGE}\n\nIndexes [path] (default: .). Incremental when the graph exists; --full rebuilds it.\n` +
          `Another indexer of the same graph is waited for up to --wait seconds (default ${WAIT_S}).\n` +
          `A new branch starts from a copy of the closest indexed graph of its project.\n` +
          `--max-graphs N: graphs the project keeps, least recently used dropped first ` +
          `(default ${MAX_GRAPHS_ENV} or ${DEFAULT_MAX_GRAPHS}; 0: no cap).`,
      );
      return 0;
    }
    const ref = await projectRef(positionals[0], values);
    const wait = values.wait === undefined ? WAIT_S : Number(values.wait);
    if (!Number.isFinite(wait) || wait < 0) {
      console.error(`cgraph index: --wait takes seconds (a number >= 0), not '${values.wait}'`);
      return 2;
    }
    const maxGraphs = values["max-graphs"] === undefined
      ? undefined
      : parseMaxGraphs(values["max-graphs"], "--max-graphs");
    const summary = await withDb((db) =>
      indexProject(db, ref, {
        full: values.full,
        onProgress: progressBar(),
        waitMs: wait * 1000,
        maxGraphs,
        onLock: (message) => console.error(`cgraph: ${message}`),
      })
    );
    console.log(
      values.json ? JSON.stringify(summaryJson(summary), null, 2) : formatSummary(summary),
    );
    return 0;
  },
};
