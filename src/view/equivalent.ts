/**
 * The command line and the MCP call that give the same answer as what the page shows, built from
 * the tool table (src/tools/registry.ts), so the names and flags are the real ones.
 */
import { toolByName } from "../tools/registry.ts";

/** Quotes a word for a POSIX shell when it needs it. */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

export interface Equivalent {
  cli: string;
  mcp: string;
}

/**
 * `cgraph <command> <positionals> --flag value ... [--project P --branch B]` and
 * `{"name": tool, "arguments": {...}}` for one tool call. Arguments left undefined are dropped.
 */
export function equivalent(
  name: string,
  args: Record<string, unknown>,
  project?: { project?: string; branch?: string },
): Equivalent {
  const def = toolByName(name);
  const clean: Record<string, unknown> = {};
  for (const [k, v] of Object.entries({ ...args, ...project })) {
    if (v !== undefined && v !== "") clean[k] = v;
  }
  const mcp = JSON.stringify({ name, arguments: clean });
  if (!def?.cli) return { cli: "", mcp };
  const words = ["cgraph", def.cli.command];
  for (const p of def.cli.positionals) {
    if (clean[p] !== undefined) words.push(shellWord(String(clean[p])));
  }
  for (const [k, v] of Object.entries(clean)) {
    if (def.cli.positionals.includes(k)) continue;
    const flag = `--${k.replaceAll("_", "-")}`;
    if (v === true) words.push(flag);
    else if (v === false) continue;
    else if (Array.isArray(v)) words.push(flag, shellWord(v.join(",")));
    else words.push(flag, shellWord(String(v)));
  }
  return { cli: words.join(" "), mcp };
}
