/**
 * ask: a question in words -> one validated read-only Cypher query -> rows -> a short grounded
 * answer. Call 1 gives the model the ontology, this graph's live schema and worked examples; the
 * query is validated (read-only, known labels / types / properties / directions, a LIMIT) and run
 * read-only with a timeout. A validation error, a database error or an empty result goes back to
 * the model (at most 2 retries). Call 2 sees the question, the executed Cypher and the rows only.
 */
import type { Params } from "../db/client.ts";
import { CgraphError, describeError } from "../errors.ts";
import type { Target } from "../query/session.ts";
import type { ChatMessage, Llm } from "./llm.ts";
import { ontologyText } from "./ontology.ts";
import { type ContextNode, contextNodes, type QueryRows, runReadOnly, tableLines } from "./run.ts";
import { type LiveSchema, liveSchemaText } from "./schema.ts";
import { type Checked, knownSchema, validateCypher } from "./validate.ts";

export const MAX_ATTEMPTS = 3;
/** Rows an ask query may return (and the answer call may see). */
export const ASK_ROW_CAP = 100;
const RESULT_CHARS = 12_000;

export interface AskResult {
  type: "ask";
  question: string;
  answer: string;
  cypher_query: string;
  context_nodes: ContextNode[];
  attempts: number;
  rows: number;
  model: string;
}

const CYPHER_RULES = [
  "You translate a question about a code repository into ONE read-only openCypher query for " +
  "FalkorDB, over the code graph described below.",
  "Rules:",
  "- Read only: MATCH, OPTIONAL MATCH, WHERE, WITH, UNWIND, RETURN, ORDER BY, SKIP, LIMIT, " +
  "UNION, and CALL db.idx.fulltext.queryNodes(...). Never CREATE, MERGE, SET, DELETE, REMOVE, " +
  "DROP, FOREACH or LOAD CSV. One statement, no ';'.",
  "- Use only the labels, relationship types, properties and directions listed below.",
  "- Return code locations: path and line, plus qualified_name and kind for symbols, so the " +
  "answer can cite them. Give columns clear aliases.",
  "- Names: `name` is the short name, `qualified_name` the dotted full name; both are " +
  "case-sensitive. Paths are relative to the repository root. `kind` values are capitalised " +
  "('Class', 'Method').",
  "- shortestPath(...) only inside WITH or RETURN; bound variable-length patterns (*1..5).",
  "- End with LIMIT (at most 100).",
  "Reply with the query only, in one ```cypher block.",
].join("\n");

const ANSWER_RULES = [
  "You answer a question about a code repository from the result of a graph query over its " +
  "code graph (definitions, calls, imports, inheritance).",
  "- Be brief: a sentence or two, or a short list.",
  "- Ground every claim in the rows; cite code as path:line with the symbol's qualified name.",
  "- If the rows are empty, say nothing in the graph matches and what was looked for.",
  "- Never invent files, symbols or lines that are not in the rows.",
].join("\n");

/** The query in a model's reply: the first fenced block, else the whole reply. */
export function extractCypher(reply: string): string {
  const fenced = /```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)```/.exec(reply);
  const text = (fenced ? fenced[1] : reply).trim();
  return text.replace(/^(cypher|query)\s*:\s*/i, "").trim();
}

const normalize = (q: string) => q.replace(/\s+/g, " ").replace(/;\s*$/, "").trim();

export async function ask(
  question: string,
  target: Target,
  schema: LiveSchema,
  llm: Llm,
): Promise<AskResult> {
  const known = knownSchema(schema);
  const system = [CYPHER_RULES, "", ontologyText(), "", liveSchemaText(schema)].join("\n");
  const messages: ChatMessage[] = [{ role: "user", text: `Question: ${question}` }];
  let attempts = 0;
  let result: { checked: Checked; rows: QueryRows } | undefined;
  let lastError = "";
  let lastQuery = "";
  let emptyQuery: string | undefined;
  /** The first valid query that returned no rows: the answer when the retries do no better. */
  let empty: { checked: Checked; rows: QueryRows } | undefined;
  while (attempts < MAX_ATTEMPTS) {
    attempts++;
    const reply = await llm.complete({ system, messages, maxTokens: 1024 });
    const cypher = extractCypher(reply);
    lastQuery = cypher;
    messages.push({ role: "assistant", text: reply });
    if (emptyQuery !== undefined && normalize(cypher) === normalize(emptyQuery)) {
      // The model stands by its query: no rows is the answer.
      break;
    }
    let checked: Checked;
    let rows: QueryRows;
    try {
      checked = validateCypher(cypher, known, ASK_ROW_CAP);
      rows = await runReadOnly(
        target.reader.db,
        target.keys.graph,
        checked,
        {} as Params,
        ASK_ROW_CAP,
      );
    } catch (err) {
      if (!(err instanceof CgraphError) || /stopped answering|Cannot reach/.test(err.message)) {
        throw err;
      }
      lastError = describeError(err);
      result = empty;
      messages.push({
        role: "user",
        text:
          `That query failed: ${lastError}\nWrite a corrected query (only the \`\`\`cypher block).`,
      });
      continue;
    }
    result = { checked, rows };
    lastError = "";
    if (rows.rows.length > 0 || attempts >= MAX_ATTEMPTS) break;
    emptyQuery = cypher;
    empty ??= result;
    messages.push({
      role: "user",
      text:
        "That query ran but returned no rows. If the question expects results, a name, label, " +
        "property value or direction is probably wrong (names are case-sensitive; try `name` " +
        "instead of `qualified_name`, CONTAINS instead of =); write a corrected query. If no rows " +
        "is the right answer, repeat the same query unchanged.",
    });
  }
  if (!result) {
    throw new CgraphError(
      `ask: no valid read-only query after ${attempts} attempts. Last query: ${
        normalize(lastQuery)
      }\nLast error: ${lastError}`,
      "Rephrase the question, or write the query yourself: get_schema, then query_graph.",
    );
  }
  const { checked, rows } = result;
  const table = tableLines(rows.columns, rows.raw);
  let shown = "";
  for (const line of table) {
    if (shown.length + line.length > RESULT_CHARS) {
      shown += "(more rows not shown)\n";
      break;
    }
    shown += `${line}\n`;
  }
  const answerPrompt = [
    `Question: ${question}`,
    "",
    "Cypher:",
    checked.cypher,
    "",
    `Result: ${rows.rows.length} rows${rows.capped ? " (capped)" : ""}${
      rows.columns.length ? `, columns ${rows.columns.join(" | ")}` : ""
    }`,
    shown || "(no rows)",
  ].join("\n");
  const answer = (await llm.complete({
    system: ANSWER_RULES,
    messages: [{ role: "user", text: answerPrompt }],
    maxTokens: 1024,
  })).trim();
  return {
    type: "ask",
    question,
    answer: answer || `The query returned ${rows.rows.length} rows (no summary from the model).`,
    cypher_query: checked.cypher,
    context_nodes: contextNodes(rows.raw),
    attempts,
    rows: rows.rows.length,
    model: llm.name,
  };
}
