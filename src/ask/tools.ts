/**
 * The tools of this module, gathered into THE tool table (src/tools/registry.ts): get_schema,
 * query_graph and ask, with their CLI twins `cgraph schema`, `cgraph cypher`, `cgraph ask`.
 */
import { z } from "zod";
import { CgraphError } from "../errors.ts";
import { displayName } from "../project/names.ts";
import * as F from "../query/format.ts";
import type { CallOptions } from "../query/session.ts";
import { clamp, projectArgs, READ, tool, type ToolDef } from "../query/tool_kit.ts";
import { ask, type AskResult } from "./ask.ts";
import { type Llm, noModelError, samplingLlm, serverModel } from "./llm.ts";
import { contextLine, type ContextNode, queryTimeoutMs, runReadOnly, tableLines } from "./run.ts";
import { formatSchema, liveSchema, schemaResult } from "./schema.ts";
import { knownSchema, validateCypher } from "./validate.ts";

export interface QueryResult {
  type: "query";
  cypher: string;
  columns: string[];
  /** One array of values per row, in the order of `columns`. */
  rows: unknown[][];
  total: number;
  row_cap: number;
  capped: boolean;
}

export function formatQuery(r: QueryResult, raw: Record<string, unknown>[], notes: string[]) {
  const cap = r.capped ? `row cap ${r.row_cap} reached: more rows may exist, narrow the query` : "";
  const cols = r.columns.length ? `columns: ${r.columns.join(" | ")}` : "";
  return [
    F.header(`query_graph: ${F.plural(r.total, "row")}`, [cols, cap, ...notes]),
    ...tableLines(r.columns, raw),
  ].join("\n");
}

function parseParams(v: unknown): Record<string, unknown> {
  if (v === undefined || v === null || v === "") return {};
  if (typeof v === "string") {
    try {
      const p = JSON.parse(v);
      if (p && typeof p === "object" && !Array.isArray(p)) return p;
    } catch {
      // reported below
    }
    throw new CgraphError('params: expected a JSON object such as {"name": "save"}.');
  }
  return v as Record<string, unknown>;
}

export function formatAsk(r: AskResult, notes: string[]): string {
  return [
    r.answer,
    `--- cypher (${F.plural(r.rows, "row")}; ${F.plural(r.attempts, "attempt")}; ${r.model}${
      notes.length ? `; ${notes.join("; ")}` : ""
    }) ---`,
    r.cypher_query,
    `--- context (${r.context_nodes.length}) ---`,
    ...r.context_nodes.map((c: ContextNode) => contextLine(c)),
  ].join("\n");
}

/** The model for ask: the server's (environment), else the client's through sampling. */
export function modelFor(call: CallOptions): Llm {
  const server = serverModel();
  if (server.llm) return server.llm;
  if (call.sample) return samplingLlm(call.sample);
  throw noModelError(server.problem);
}

export const ASK_TOOLS: ToolDef[] = [
  tool({
    name: "get_schema",
    description: "Graph schema: labels, relationship types, properties (with counts) and " +
      "example Cypher for query_graph.",
    shape: {},
    annotations: READ,
    cli: { command: "schema", positionals: [], summary: "labels, relationships, properties" },
    async run(session, a, call) {
      const t = await session.target(projectArgs(a), call);
      const s = await liveSchema(t.reader.db, t.info, queryTimeoutMs());
      const r = schemaResult(s, displayName(t.project), displayName(t.branch));
      return { data: { ...r }, text: (n) => formatSchema(r, n), notes: t.notes };
    },
  }),
  tool({
    name: "query_graph",
    description: "Run one read-only Cypher query (see get_schema); a compact table. Writes are " +
      "refused; timeout and row cap apply.",
    shape: {
      cypher: z.string(),
      params: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
      limit: z.number().default(200),
    },
    annotations: READ,
    cli: {
      command: "cypher",
      positionals: ["cypher"],
      rest: true,
      summary: "run read-only Cypher",
    },
    async run(session, a, call) {
      const notes: string[] = [];
      const cap = clamp("limit", a.limit, 1, 5000, notes);
      const params = parseParams(a.params);
      const t = await session.target(projectArgs(a), call);
      const s = await liveSchema(t.reader.db, t.info, queryTimeoutMs());
      const checked = validateCypher(String(a.cypher), knownSchema(s), cap);
      const rows = await runReadOnly(t.reader.db, t.keys.graph, checked, params, cap);
      const r: QueryResult = {
        type: "query",
        cypher: checked.cypher,
        columns: rows.columns,
        rows: rows.rows.map((r) => rows.columns.map((c) => r[c])),
        total: rows.rows.length,
        row_cap: cap,
        capped: rows.capped,
      };
      return {
        data: { ...r },
        text: (n) => formatQuery(r, rows.raw, n),
        notes: [...notes, ...checked.notes, ...t.notes],
      };
    },
  }),
  tool({
    name: "ask",
    description: "Ask about the code in plain words: a model writes read-only Cypher, it runs, " +
      "the answer cites path:line. Returns the Cypher.",
    shape: { question: z.string() },
    annotations: { ...READ, openWorldHint: true },
    cli: { command: "ask", positionals: ["question"], rest: true, summary: "ask in plain words" },
    async run(session, a, call) {
      const question = String(a.question).trim();
      if (!question) throw new CgraphError("Give a question.");
      const llm = modelFor(call);
      const t = await session.target(projectArgs(a), call);
      const s = await liveSchema(t.reader.db, t.info, queryTimeoutMs());
      const r = await ask(question, t, s, llm);
      return { data: { ...r }, text: (n) => formatAsk(r, n), notes: t.notes };
    },
  }),
];
