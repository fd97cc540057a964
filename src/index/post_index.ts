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
  /**
   * Every file of the graph as it is after this run; on a no-op run, possibly a loader (the facts
   * are read from the database only if a step needs them).
   */
  facts: FactsSource;
  /** No code file changed in this run. */
  codeUnchanged: boolean;
  /** Every path the run's walk listed (ignored ones left out), when known: spares listing again. */
  paths?: readonly string[];
}

export type FactsSource = Iterable<FileFacts> | (() => Promise<Iterable<FileFacts>>);

/** The facts of a FactsSource, loaded if need be. */
export async function factsOf(source: FactsSource): Promise<FileFacts[]> {
  return typeof source === "function" ? [...await source()] : [...source];
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
