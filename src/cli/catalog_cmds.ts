/** `cgraph list`, `cgraph delete`, `cgraph migrate`: the graphs on the server. */
import { deleteGraphs, listCatalog, migrateNames } from "../project/catalog.ts";
import { dropStale, findGarbage, formatGarbage } from "../project/gc.ts";
import { displayName, sanitizeName } from "../project/names.ts";
import { CgraphError } from "../errors.ts";
import { type Command, parseCommandArgs } from "./command.ts";
import { withDb } from "./project.ts";

function age(iso: unknown): string {
  const t = Date.parse(String(iso ?? ""));
  if (!Number.isFinite(t)) return "never indexed";
  const s = Math.max(0, Math.round((Date.now() - t) / 1000));
  if (s < 120) return `${s}s ago`;
  if (s < 7200) return `${Math.round(s / 60)}m ago`;
  if (s < 172800) return `${Math.round(s / 3600)}h ago`;
  return `${Math.round(s / 86400)}d ago`;
}

export const listCommand: Command = {
  name: "list",
  summary: "list every (project, branch) graph with its counts and age",
  async run(args) {
    const usage = "cgraph list [--json]";
    const { values } = parseCommandArgs(args, {
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    }, usage);
    if (values.help) return (console.log(usage), 0);
    const { graphs, unreachable } = await withDb(listCatalog);
    if (unreachable.length) {
      console.error(
        `warning: FalkorDB cluster nodes not answering: ${
          unreachable.join(", ")
        } (their projects are not listed)`,
      );
    }
    if (values.json) {
      console.log(
        JSON.stringify(
          graphs.map((g) => ({
            ...g,
            project: displayName(g.project),
            branch: displayName(g.branch),
          })),
          null,
          2,
        ),
      );
      return 0;
    }
    console.log(`projects: ${graphs.length} graph(s)`);
    for (const g of graphs) {
      console.log(
        `${displayName(g.project)} | ${displayName(g.branch)} | files ${g.files ?? "?"} | symbols ${
          g.symbols ?? "?"
        } | edges ${g.edges ?? "?"} | ${age(g.indexed_at)} | ${g.root ?? ""}`,
      );
    }
    return 0;
  },
};

export const deleteCommand: Command = {
  name: "delete",
  summary: "delete a project's graph(s) and metadata: --project P [--branch B]",
  async run(args) {
    const usage = "cgraph delete --project P [--branch B]";
    const { values } = parseCommandArgs(
      args,
      {
        project: { type: "string" },
        branch: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      usage,
    );
    if (values.help) return (console.log(usage), 0);
    if (!values.project) throw new CgraphError("--project is required", `Usage: ${usage}`);
    const project = sanitizeName(values.project);
    const branch = values.branch === undefined ? undefined : sanitizeName(values.branch);
    const removed = await withDb((db) => deleteGraphs(db, project, branch));
    if (!removed.length) {
      throw new CgraphError(
        `No graph for project '${values.project}'${branch ? ` on branch '${values.branch}'` : ""}.`,
        "Run 'cgraph list' to see what is indexed.",
      );
    }
    console.log(`deleted: ${removed.join(", ")}`);
    return 0;
  },
};

export const migrateCommand: Command = {
  name: "migrate",
  summary:
    "rename graphs and keys of earlier naming schemes to today's (idempotent; also done on connect)",
  async run(args) {
    const usage = "cgraph migrate";
    const { values } = parseCommandArgs(args, { help: { type: "boolean", short: "h" } }, usage);
    if (values.help) return (console.log(usage), 0);
    const moved = await withDb(migrateNames);
    console.log(moved.length ? `migrated: ${moved.join(", ")}` : "migrated: nothing to do");
    return 0;
  },
};

export const gcCommand: Command = {
  name: "gc",
  summary:
    "list graphs of branches that no longer exist (--yes drops them) and projects whose folder is gone",
  async run(args) {
    const usage = "cgraph gc [--project P] [--yes] [--json]";
    const { values } = parseCommandArgs(args, {
      project: { type: "string" },
      yes: { type: "boolean" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    }, usage);
    if (values.help) {
      console.log(
        `${usage}\n\nA dry run by default: lists the graphs of branches their repository no longer has, ` +
          `and projects whose folder is gone.\n--yes drops those graphs. A project whose folder is gone ` +
          `is only reported (drop it with 'cgraph delete --project P').`,
      );
      return 0;
    }
    const project = values.project === undefined ? undefined : sanitizeName(values.project);
    const { report, done } = await withDb(async (db) => {
      const report = await findGarbage(db, project);
      const done = values.yes ? await dropStale(db, report.stale) : undefined;
      return { report, done };
    });
    if (values.json) {
      const name = (x: { project: string; branch?: string }) => ({
        ...x,
        project: displayName(x.project),
        ...(x.branch === undefined ? {} : { branch: displayName(x.branch) }),
      });
      console.log(JSON.stringify(
        {
          graphs: report.graphs,
          stale: report.stale.map(name),
          missing: report.missing.map(name),
          dropped: done?.dropped ?? [],
          busy: done?.busy ?? [],
          dry_run: !values.yes,
        },
        null,
        2,
      ));
      return 0;
    }
    console.log(formatGarbage(report, done));
    return 0;
  },
};
