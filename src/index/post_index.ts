/**
 * Steps that run after each index run, inside it: features built on the graph register one (the
 * tool registry registers memory's decision sync), so the indexer knows nothing of them. A step
 * writes into `graph`, which during a full run is the staging graph renamed over the live one
 * afterwards: what it writes appears with the code, never before or apart from it.
 */
import type { Db } from "../db/client.ts";
import type { FileFacts } from "../graph/facts.ts";

export interface PostIndexContext {
  db: Db;
  /** The graph being written (the staging graph of a full run). */
  graph: string;
  /** The repository root. */
  root: string;
  /** Every file of the graph as it is after this run. */
  facts: Iterable<FileFacts>;
  /** No code file changed in this run. */
  codeUnchanged: boolean;
}

export type PostIndexStep = (ctx: PostIndexContext) => Promise<unknown>;

const steps = new Map<string, PostIndexStep>();

/** Registers a step under a name (registering a name again replaces it). */
export function registerPostIndexStep(name: string, step: PostIndexStep): void {
  steps.set(name, step);
}

export async function runPostIndexSteps(ctx: PostIndexContext): Promise<void> {
  for (const step of steps.values()) await step(ctx);
}
