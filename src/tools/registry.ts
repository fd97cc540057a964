/**
 * THE tool table: every MCP tool and its CLI twin, gathered from the features that define them
 * (src/query/tools.ts, src/ask/tools.ts, src/memory/tools.ts), and the hints features add to one
 * another's answers. The MCP server registers these; the CLI generates its commands from them and
 * prints exactly the tool's text, so the two cannot drift apart. Features never import each other:
 * what crosses between them meets here.
 */
import { ASK_TOOLS } from "../ask/tools.ts";
import { MEMORY_TOOLS, memoryHint } from "../memory/tools.ts";
import type { NodeRef } from "../query/graph.ts";
import type { Target } from "../query/session.ts";
import type { ToolDef } from "../query/tool_kit.ts";
import { QUERY_TOOLS } from "../query/tools.ts";
// The post-index steps features register (see steps.ts).
import "./steps.ts";

export type { Answer, ToolDef } from "../query/tool_kit.ts";

export const TOOLS: ToolDef[] = [...QUERY_TOOLS, ...ASK_TOOLS, ...MEMORY_TOOLS];

/** The structural tools (everything but ask and memory): the set the tools/list budget is for. */
export const STRUCTURAL_TOOL_NAMES: string[] = QUERY_TOOLS.map((t) => t.name);

export function toolByName(name: string): ToolDef | undefined {
  return TOOLS.find((t) => t.name === name);
}

/**
 * One-line notes added to an answer that lists symbols (Answer.mentions), in this order: memory
 * says when notes or decisions exist for some of them.
 */
export const HINTS: ((target: Target, nodes: NodeRef[]) => Promise<string | undefined>)[] = [
  memoryHint,
];
