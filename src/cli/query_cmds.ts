/**
 * The CLI twins of the MCP tools, generated from the tool table (src/tools/registry.ts): the same
 * arguments (positionals for the main ones, `--kebab-case` options for the rest, `-C`/`--path`,
 * `--project`, `--branch`, `--json`), and exactly the tool's text on stdout. (`delete` and
 * `migrate` manage graphs and have no tool: see catalog_cmds.ts.)
 */
import type { ParseArgsConfig } from "node:util";
import { z } from "zod";
import { CgraphError } from "../errors.ts";
import { progressBar } from "../index/report.ts";
import { Session } from "../query/session.ts";
import { execute } from "../tools/execute.ts";
import { type ToolDef, TOOLS } from "../tools/registry.ts";
import { type Command, parseCommandArgs } from "./command.ts";

type Options = NonNullable<ParseArgsConfig["options"]>;
type JsonType = "string" | "integer" | "number" | "boolean" | "array";

interface Param {
  name: string;
  flag: string;
  type: JsonType;
  required: boolean;
  description?: string;
  choices?: string[];
}

const COMMON = new Set(["project", "branch", "path", "format"]);

/** Each argument of a tool, from its JSON schema (types, enums, required, descriptions). */
export function paramsOf(def: ToolDef): Param[] {
  const schema = z.toJSONSchema(z.object(def.shape), { io: "input" }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, p]) => {
    const items = p.items as Record<string, unknown> | undefined;
    const choices = (p.enum ?? items?.enum) as string[] | undefined;
    return {
      name,
      flag: name.replaceAll("_", "-"),
      type: (p.type as JsonType) ?? "string",
      required: (schema.required ?? []).includes(name) && p.default === undefined,
      description: p.description as string | undefined,
      ...(choices ? { choices } : {}),
    };
  });
}

function usageOf(def: ToolDef): string {
  const cli = def.cli!;
  const params = paramsOf(def).filter((p) => !COMMON.has(p.name));
  const pos = cli.positionals.map((n, i) => {
    const p = params.find((x) => x.name === n);
    const more = cli.rest && i === cli.positionals.length - 1 ? "..." : "";
    return p?.required ? `<${n}${more}>` : `[${n}${more}]`;
  });
  const opts = params.filter((p) => !cli.positionals.includes(p.name)).map((p) =>
    p.type === "boolean"
      ? `[--${p.flag}]`
      : `[--${p.flag} ${p.choices ? p.choices.join("|") : p.type === "array" ? "A,B" : "X"}]`
  );
  return [`cgraph ${cli.command}`, ...pos, ...opts, "[-C path] [--project P] [--branch B] [--json]"]
    .join(" ");
}

function helpOf(def: ToolDef): string {
  const params = paramsOf(def).filter((p) => !COMMON.has(p.name) && p.description);
  return [
    `Usage: ${usageOf(def)}`,
    "",
    `${def.description} (MCP tool: ${def.name})`,
    ...(params.length ? ["", ...params.map((p) => `  ${p.flag}: ${p.description}`)] : []),
    "",
    "  -C, --path   repository root (default: .); the project and branch derive from it",
    "  --project, --branch   another indexed project / branch",
    "  --json       the same answer as JSON",
  ].join("\n");
}

/** argv -> the tool's arguments (strings converted by the schema's types; zod validates). */
export function cliArgs(def: ToolDef, argv: string[]): Record<string, unknown> | "help" {
  const params = paramsOf(def);
  const options: Options = {
    help: { type: "boolean", short: "h" },
    json: { type: "boolean" },
    path: { type: "string", short: "C" },
  };
  for (const p of params) {
    if (p.name === "path") continue;
    options[p.flag] = p.type === "boolean"
      ? { type: "boolean" }
      : p.type === "array"
      ? { type: "string", multiple: true }
      : { type: "string" };
  }
  const usage = usageOf(def);
  const { values, positionals } = parseCommandArgs(argv, options, usage);
  if (values.help) return "help";
  const cli = def.cli!;
  if (cli.rest && positionals.length > cli.positionals.length && cli.positionals.length) {
    const n = cli.positionals.length - 1;
    positionals.splice(n, positionals.length - n, positionals.slice(n).join(" "));
  }
  if (positionals.length > cli.positionals.length) {
    throw new CgraphError(
      `Unexpected argument '${positionals[cli.positionals.length]}'.`,
      `Usage: ${usage}`,
    );
  }
  const out: Record<string, unknown> = {};
  const put = (p: Param, raw: unknown) => {
    if (p.type === "integer" || p.type === "number") {
      const n = Number(raw);
      out[p.name] = typeof raw === "string" && raw.trim() !== "" && Number.isFinite(n) ? n : raw;
    } else if (p.type === "array") {
      out[p.name] = (raw as string[]).flatMap((s) => s.split(",")).map((s) => s.trim())
        .filter(Boolean);
    } else out[p.name] = raw;
  };
  for (const p of params) {
    const v = (values as Record<string, unknown>)[p.flag];
    if (v !== undefined) put(p, v);
  }
  cli.positionals.forEach((name, i) => {
    const p = params.find((x) => x.name === name)!;
    if (positionals[i] === undefined) return;
    if (out[name] !== undefined) {
      throw new CgraphError(`'${name}' given twice (as an argument and as --${p.flag}).`);
    }
    put(p, positionals[i]);
  });
  if (values.json) out.format = "json";
  for (const p of params) {
    if (p.required && out[p.name] === undefined) {
      throw new CgraphError(`Missing ${p.name}.`, `Usage: ${usage}`);
    }
  }
  return out;
}

function twin(def: ToolDef): Command {
  const cli = def.cli!;
  return {
    name: cli.command,
    summary: `${cli.summary} (MCP: ${def.name})`,
    async run(argv) {
      const args = cliArgs(def, argv);
      if (args === "help") {
        console.log(helpOf(def));
        return 0;
      }
      // The arguments go to the tool as they are (-C is its `path`), so the answer is the same.
      const session = new Session({ defaultPath: ".", cacheMs: 0 });
      try {
        const out = await execute(def, session, args, { onProgress: progressBar() });
        console.log(out.text);
        return 0;
      } finally {
        await session.close();
      }
    },
  };
}

export const queryCommands: Command[] = TOOLS.filter((t) => t.cli).map(twin);
