/**
 * Running a tool of the table: arguments checked (strings first, then the tool's schema), the
 * runner called, the hints of src/tools/registry.ts added, and the answer rendered as text or JSON.
 * The MCP server and the CLI both call `execute`, so their answers are the same.
 */
import { z } from "zod";
import { CgraphError } from "../errors.ts";
import type { CallOptions, Session } from "../query/session.ts";
import type { Answer, ToolDef } from "../query/tool_kit.ts";
import { HINTS } from "./registry.ts";

/**
 * JSON answers leave out internal ids (they mean nothing outside the database), and nodes met on
 * the way (neighbours, hops, referrers, cycle members) carry only what locates them.
 */
function jsonReplacer(key: string, value: unknown): unknown {
  if (key === "id" || key === "via") return undefined;
  if ((key === "node" || key === "from") && isNode(value)) return slim(value);
  if (key === "nodes" && Array.isArray(value)) return value.map((v) => (isNode(v) ? slim(v) : v));
  return value;
}

function isNode(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && "qualified_name" in v && "kind" in v;
}

function slim(n: Record<string, unknown>): Record<string, unknown> {
  return { qualified_name: n.qualified_name, kind: n.kind, path: n.path, line: n.line };
}

export interface Executed {
  text: string;
  /** The JSON object (format json), also sent as MCP structuredContent. */
  json?: Record<string, unknown>;
}

/**
 * Validates arguments, runs a tool, and renders its answer as text or JSON. Errors are thrown
 * (CgraphError for anything the caller can fix); the MCP server and the CLI render them.
 */
export async function execute(
  def: ToolDef,
  session: Session,
  rawArgs: Record<string, unknown>,
  call: CallOptions = {},
): Promise<Executed> {
  const bad = badStrings(rawArgs);
  if (bad) throw new CgraphError(`Invalid arguments for ${def.name}: ${bad}`);
  const parsed = z.object(def.shape).strict().safeParse(rawArgs);
  if (!parsed.success) throw new CgraphError(argumentError(def, parsed.error));
  const args = parsed.data as Record<string, unknown>;
  let result: Answer;
  try {
    result = await def.run(session, args, call);
    result = await withHints(result);
  } catch (err) {
    await session.noteError(err);
    throw err;
  }
  if (args.format === "json") {
    const notes = result.notes.length ? { notes: result.notes } : {};
    const text = JSON.stringify({ ...result.data, ...notes }, jsonReplacer);
    return { text, json: JSON.parse(text) };
  }
  return { text: result.text(result.notes) };
}

/** The answer with the registry's hints about the symbols it lists added to its notes. */
async function withHints(result: Answer): Promise<Answer> {
  const m = result.mentions;
  if (!m?.nodes.length) return result;
  const notes = [...result.notes];
  for (const hint of HINTS) {
    const line = await hint(m.target, m.nodes);
    if (line) notes.push(line);
  }
  return { ...result, notes };
}

/** Longest string an argument may be, by name (default 1,000 characters). */
const STRING_CAPS: Record<string, number> = {
  text: 65_536,
  cypher: 20_000,
  question: 4000,
  query: 500,
};

/**
 * Strings no tool takes: control characters (NUL cuts a parameter short in the database) and
 * bidirectional overrides (text that reads differently than it is), and strings past their cap.
 */
export function badStrings(args: Record<string, unknown>): string | undefined {
  // deno-lint-ignore no-control-regex
  const control = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/;
  const check = (name: string, v: unknown): string | undefined => {
    if (typeof v === "string") {
      const cap = STRING_CAPS[name] ?? 1000;
      if (v.length > cap) return `${name}: at most ${cap} characters (got ${v.length})`;
      const m = v.match(control);
      if (m) {
        const code = m[0].charCodeAt(0).toString(16).padStart(4, "0");
        return `${name}: control or direction character U+${code} is not allowed`;
      }
    } else if (Array.isArray(v)) {
      for (const x of v) {
        const problem = check(name, x);
        if (problem) return problem;
      }
    }
    return undefined;
  };
  for (const [name, v] of Object.entries(args ?? {})) {
    const problem = check(name, v);
    if (problem) return problem;
  }
  return undefined;
}

/** One line per problem: `depth: expected number, received string`. */
export function argumentError(def: ToolDef, error: z.ZodError): string {
  const problems = error.issues.map((i) => {
    const where = i.path.length ? i.path.join(".") : "arguments";
    return `${where}: ${i.message}`;
  });
  return `Invalid arguments for ${def.name}: ${problems.join("; ")}`;
}
