/**
 * What every tool definition shares (src/query/tools.ts, src/ask/tools.ts, src/memory/tools.ts):
 * the common arguments and the annotation sets. Kept apart from the tool table so the modules that
 * contribute tools to it can import these without an import cycle.
 */
import { z } from "zod";

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
