import { indexProject } from "../index/indexer.ts";
import { formatSummary, progressBar, summaryJson } from "../index/report.ts";
import { type Command, parseCommandArgs } from "./command.ts";
import { PROJECT_OPTIONS, projectRef, withDb } from "./project.ts";

const USAGE = "cgraph index [path] [--project P] [--branch B] [--full] [--json]";

export const indexCommand: Command = {
  name: "index",
  summary: "index a repository into its (project, branch) graph; incremental once it exists",
  async run(args) {
    const { values, positionals } = parseCommandArgs(args, {
      ...PROJECT_OPTIONS,
      full: { type: "boolean" },
    }, USAGE);
    if (values.help) {
      console.log(
        `${USAGE}\n\nIndexes [path] (default: .). Incremental when the graph exists; --full rebuilds it.`,
      );
      return 0;
    }
    const ref = await projectRef(positionals[0], values);
    const summary = await withDb((db) =>
      indexProject(db, ref, { full: values.full, onProgress: progressBar() })
    );
    console.log(
      values.json ? JSON.stringify(summaryJson(summary), null, 2) : formatSummary(summary),
    );
    return 0;
  },
};
