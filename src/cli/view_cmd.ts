/** `cgraph view [path]`: the graph in a browser (src/view/). */
import { openBrowser, serveView } from "../view/serve.ts";
import { type Command, parseCommandArgs, pathArgument } from "./command.ts";
import { parsePort } from "./mcp_cmd.ts";

const USAGE = "cgraph view [path] [--port N] [--no-open] [--project P] [--branch B]";

const HELP = `${USAGE}

Serves a read-only page for exploring the code graph of [path] (default: .) on 127.0.0.1:
search a symbol, its callers and callees (click to expand), impact, the module map with import
cycles, notes and decisions; other indexed projects and branches from the picker. The URL printed
carries a random token: the page answers nothing without it.

  --port N     port to listen on (default: a free one)
  --no-open    print the URL only; do not open a browser
The same page is served at /view by 'cgraph mcp --http', behind its token.`;

export const viewCommand: Command = {
  name: "view",
  summary: "explore the graph in a browser (callers, impact, module map, notes)",
  async run(args) {
    const { values, positionals } = parseCommandArgs(args, {
      port: { type: "string" },
      "no-open": { type: "boolean" },
      project: { type: "string" },
      branch: { type: "string" },
      help: { type: "boolean", short: "h" },
    }, USAGE);
    if (values.help) {
      console.log(HELP);
      return 0;
    }
    const path = pathArgument("view", positionals, USAGE);
    if (path === undefined) return 2;
    return await serveView({
      defaultPath: path,
      project: values.project,
      branch: values.branch,
    }, {
      port: parsePort(values.port ?? "0"),
      onListen: (url) => {
        console.log(`cgraph view: ${url}`);
        console.log("(Ctrl-C stops it)");
        if (!values["no-open"]) {
          openBrowser(url).then((ok) => {
            if (!ok) console.error("cgraph view: could not open a browser; open the URL above");
          });
        }
      },
    });
  },
};
