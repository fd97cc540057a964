/**
 * The guidance `cgraph init-agent` writes into a repository: when to use which cgraph tool. One
 * body for every client (AGENTS.md, CLAUDE.md, a Cursor rule), kept between marker comments so a
 * later run replaces exactly this section and nothing the user wrote around it.
 *
 * Tools of the table (src/tools/registry.ts) that the curated list does not mention are appended by
 * name, so the guidance never misses a tool.
 */
import { TOOLS } from "../tools/registry.ts";

export const BEGIN_MARKER =
  "<!-- cgraph:begin (written by `cgraph init-agent`; edits inside are replaced) -->";
export const END_MARKER = "<!-- cgraph:end -->";

/** When to use which tool: [tool names, when]. */
const WHEN: [string[], string][] = [
  [["impact_analysis"], "before changing a function, class or file: what breaks, by file"],
  [["get_callers", "get_callees"], "who calls X / what X calls (depth 1-10)"],
  [["get_context"], "understand a symbol or file in one call: definition, callers, callees"],
  [["find_symbol", "find_references"], "where X is defined / every use of X"],
  [["search_code"], "find code by words of its names or docs when you do not know the name"],
  [["get_dependencies"], "imports, base classes, implementations of a symbol or file"],
  [["find_path"], "how A reaches B (call chains)"],
  [["detect_circular"], "call or import cycles"],
  [["get_stats", "list_projects"], "what is indexed, how big, how fresh"],
  [["index_file"], "after you edit a file (cheap, incremental)"],
  [["index_repo"], "when an answer's header says 'stale', or after large changes"],
];

/** The guidance body (markdown, without markers). */
export function guidanceBody(): string {
  const known = new Set(TOOLS.map((t) => t.name));
  const lines = WHEN
    .map(([names, when]) => [names.filter((n) => known.has(n)), when] as const)
    .filter(([names]) => names.length > 0)
    .map(([names, when]) => `- ${names.map((n) => `\`${n}\``).join(", ")}: ${when}.`);
  const mentioned = new Set(WHEN.flatMap(([names]) => names));
  const others = TOOLS.filter((t) => !mentioned.has(t.name));
  for (const t of others) {
    const first = t.description.split(/(?<=\.)\s/)[0].replace(/\.$/, "");
    lines.push(`- \`${t.name}\`: ${first[0].toLowerCase()}${first.slice(1)}.`);
  }
  return [
    "## Code graph (cgraph)",
    "",
    "This repository is indexed by cgraph, an MCP server (`cgraph`) that answers structural " +
    "questions from a graph of the code. For questions about relationships (who calls, what " +
    "depends on, what breaks) ask cgraph before grepping; read the files it points to before " +
    "editing them.",
    "",
    ...lines,
    "",
    "Symbols are names, qualified names or dotted tails (`Class.method`); when several match, " +
    "narrow with `file`. Answers are compact: a header line, then one `path:line | name | kind` " +
    "result per line. The same queries run in a shell: `cgraph --help`.",
  ].join("\n");
}

/** The guidance between its markers. */
export function markedGuidance(): string {
  return `${BEGIN_MARKER}\n${guidanceBody()}\n${END_MARKER}\n`;
}

/** A new Cursor rule file: front matter, then the marked guidance. */
export function cursorRule(): string {
  return [
    "---",
    "description: When to use the cgraph code-graph tools (callers, impact, references, search)",
    "alwaysApply: true",
    "---",
    "",
    markedGuidance(),
  ].join("\n");
}
