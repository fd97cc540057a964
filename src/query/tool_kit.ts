/**
 * What every tool definition shares (the query, ask and memory features' tools.ts): the
 * definition's shape, the one `tool()` helper, the common arguments and the annotation sets.
 * Each feature builds its tools from these; src/tools/registry.ts gathers them into the table, so
 * no feature imports another.
 */
import { z } from "zod";
import type { NodeRef } from "./graph.ts";
import type { CallOptions, ProjectArgs, Session, Target } from "./session.ts";

/** Annotations as MCP defines them (all four on every tool). */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The arguments every tool takes: which project/branch (or a path to derive them from), and format. */
export const COMMON = {
  project: z.string().optional(),
  branch: z.string().optional(),
  path: z.string().optional(),
  format: z.enum(["text", "json"]).optional(),
};

export const READ: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

export const WRITE: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** Clamps a number into [lo, hi]; a note says so when it had to. */
export function clamp(name: string, v: number, lo: number, hi: number, notes: string[]): number {
  const c = Math.min(hi, Math.max(lo, Math.trunc(v)));
  if (c !== v) notes.push(`${name} ${v} clamped to ${c}`);
  return c;
}

/** Just the arguments that pick a project (a tool's own arguments left out). */
export const projectArgs = (a: ProjectArgs): ProjectArgs => ({
  project: a.project,
  branch: a.branch,
  path: a.path,
});

export interface CliSpec {
  /** `cgraph <command>` */
  command: string;
  /** Arguments taken positionally, in order (the rest are --options). */
  positionals: string[];
  /** The last positional takes every remaining word (`cgraph search parse url`). */
  rest?: boolean;
  summary: string;
}

export interface ToolDef {
  name: string;
  description: string;
  shape: z.ZodRawShape;
  annotations: ToolAnnotations;
  /** The CLI twin; absent when an existing command plays that part (index_repo: `cgraph index`). */
  cli?: CliSpec;
  run(session: Session, args: Record<string, unknown>, call: CallOptions): Promise<Answer>;
}

/** A runner's answer: data, its text rendering (without notes), and header notes. */
export interface Answer {
  data: Record<string, unknown>;
  text: (notes: string[]) => string;
  notes: string[];
  /**
   * The symbols the answer lists, for hints other features add to its notes (memory: notes or
   * decisions exist for some of them); see HINTS in src/tools/registry.ts.
   */
  mentions?: { target: Target; nodes: NodeRef[] };
}

/** A tool definition whose runner sees its arguments typed by its shape (plus COMMON). */
export function tool<S extends z.ZodRawShape>(def: {
  name: string;
  description: string;
  shape: S;
  annotations: ToolAnnotations;
  cli?: CliSpec;
  run(
    session: Session,
    args: z.output<z.ZodObject<S & typeof COMMON>>,
    call: CallOptions,
  ): Promise<Answer>;
}): ToolDef {
  return { ...def, shape: { ...def.shape, ...COMMON }, run: def.run as ToolDef["run"] };
}

export function answer(
  data: { type: string } & object,
  render: (notes: string[]) => string,
  notes: string[],
  mentions?: Answer["mentions"],
): Answer {
  return { data: data as Record<string, unknown>, text: render, notes, mentions };
}
