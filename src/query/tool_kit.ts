/**
 * What every tool definition shares (src/query/tools.ts, src/ask/tools.ts, src/memory/tools.ts):
 * the common arguments and the annotation sets. Kept apart from the tool table so the modules that
 * contribute tools to it can import these without an import cycle.
 */
import { z } from "zod";
import type { ProjectArgs } from "./session.ts";

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
