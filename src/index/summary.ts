/** What an index run reports: its summary and its progress (indexer.ts runs it). */
import type { Skipped } from "./walk.ts";

export type IndexMode = "full" | "incremental";

export interface Progress {
  phase: "scan" | "parse" | "resolve" | "write" | "done";
  done: number;
  total: number;
}

export interface IndexSummary {
  project: string;
  branch: string;
  graph: string;
  root: string;
  commit?: string;
  mode: IndexMode;
  /** A new branch's first run: the branch whose graph it started from (copied, then updated). */
  seededFrom?: string;
  /** Branches of the project whose graphs were dropped to keep it within its cap (LRU). */
  evicted?: string[];
  files: {
    scanned: number;
    added: string[];
    modified: string[];
    deleted: string[];
    unchanged: number;
    /** Files read and hashed (the rest the stat cache vouched for). */
    hashed: number;
    skipped: Skipped[];
    unsupported: number;
    parseErrors: number;
    /** Files with syntax errors and the lines the largest errors swallowed (`a.ts:12-80`). */
    syntaxErrors: string[];
    /** Files whose syntax errors cost definitions outside the erroneous lines (`a.ts (3)`). */
    lostDefinitions?: string[];
  };
  symbols: Record<string, number>;
  edges: Record<string, number>;
  durationMs: number;
  filesPerSecond: number;
  /** Milliseconds per phase (scan, load, parse, resolve, write, meta). */
  timings: Record<string, number>;
  warnings: string[];
}
