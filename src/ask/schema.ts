/**
 * The live schema of one graph: labels and relationship types with counts, the properties seen on
 * each, and which label pairs each relationship type connects (so directions can be checked).
 * Read with read-only statements and cached per graph until it is re-indexed. (These statements
 * are introspection of any graph, not of the code model: they live here, beside their only user,
 * rather than in src/db/queries.ts.)
 */
import type { Db, Row } from "../db/client.ts";
import type { GraphInfo } from "../project/catalog.ts";
import { EXAMPLES, KIND_LABELS, LABELS, RELATIONS } from "./ontology.ts";
import type { LiveFacts } from "./validate.ts";

export interface LiveSchema extends LiveFacts {
  graph: string;
  nodes: number;
  edges: number;
  labelCounts: Record<string, number>;
  relCounts: Record<string, number>;
  /** Edge counts per (from label, type, to label), kind labels included. */
  tripleCounts: { from: string; type: string; to: string; count: number }[];
}

const SAMPLE = 500;
const cache = new Map<string, { key: string; schema: Promise<LiveSchema> }>();

/** Backtick-quotes a label or type name taken from the database. */
export function quoteName(name: string): string {
  return `\`${name.replaceAll("`", "``")}\``;
}

async function ro(db: Db, graph: string, cypher: string, timeoutMs: number): Promise<Row[]> {
  return await db.query(graph, cypher, {}, { readOnly: true, serverTimeoutMs: timeoutMs });
}

async function readSchema(db: Db, graph: string, timeoutMs: number): Promise<LiveSchema> {
  // db.labels lists every label ever created; db.meta.stats counts (older servers lack it).
  const labels = (await ro(db, graph, "CALL db.labels()", timeoutMs)).map((r) => String(r.label));
  const relTypes = (await ro(db, graph, "CALL db.relationshipTypes()", timeoutMs))
    .map((r) => String(r.relationshipType));
  let stats: Row = {};
  try {
    stats = (await ro(db, graph, "CALL db.meta.stats()", timeoutMs))[0] ?? {};
  } catch {
    const count = async (cypher: string) => Number((await ro(db, graph, cypher, timeoutMs))[0]?.n);
    const labelsN: Record<string, number> = {};
    for (const l of labels) {
      labelsN[l] = await count(`MATCH (n:${quoteName(l)}) RETURN count(n) AS n`);
    }
    const relsN: Record<string, number> = {};
    for (const t of relTypes) {
      relsN[t] = await count(`MATCH ()-[e:${quoteName(t)}]->() RETURN count(e) AS n`);
    }
    stats = {
      labels: labelsN,
      relTypes: relsN,
      nodeCount: await count("MATCH (n) RETURN count(n) AS n"),
      relCount: await count("MATCH ()-[e]->() RETURN count(e) AS n"),
    };
  }
  const labelCounts = numbers(stats.labels);
  const relCounts = numbers(stats.relTypes);
  const labelProps: Record<string, string[]> = {};
  for (const l of labels) {
    const rows = await ro(
      db,
      graph,
      `MATCH (n:${quoteName(l)}) WITH n LIMIT ${SAMPLE} UNWIND keys(n) AS k RETURN DISTINCT k`,
      timeoutMs,
    );
    labelProps[l] = rows.map((r) => String(r.k)).sort();
  }
  const relProps: Record<string, string[]> = {};
  for (const t of relTypes) {
    const rows = await ro(
      db,
      graph,
      `MATCH ()-[e:${
        quoteName(t)
      }]->() WITH e LIMIT ${SAMPLE} UNWIND keys(e) AS k RETURN DISTINCT k`,
      timeoutMs,
    );
    relProps[t] = rows.map((r) => String(r.k)).sort();
  }
  let tripleCounts: LiveSchema["tripleCounts"] = [];
  try {
    tripleCounts = (await ro(
      db,
      graph,
      "MATCH (a)-[e]->(b) UNWIND labels(a) AS la UNWIND labels(b) AS lb " +
        "RETURN la, type(e) AS t, lb, count(e) AS n",
      timeoutMs,
    )).map((r) => ({
      from: String(r.la),
      type: String(r.t),
      to: String(r.lb),
      count: Number(r.n),
    }));
  } catch {
    // A huge graph may not be scanned in time: the model's directions still apply.
  }
  return {
    graph,
    nodes: Number(stats.nodeCount ?? 0),
    edges: Number(stats.relCount ?? 0),
    labels,
    relTypes,
    labelCounts,
    relCounts,
    labelProps,
    relProps,
    triples: tripleCounts,
    tripleCounts,
  };
}

function numbers(v: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  if (v && typeof v === "object") {
    for (const [k, n] of Object.entries(v as Record<string, unknown>)) out[k] = Number(n);
  }
  return out;
}

/** The live schema of a graph, cached until the graph is indexed again. */
export function liveSchema(db: Db, info: GraphInfo, timeoutMs: number): Promise<LiveSchema> {
  const key = `${info.indexed_at ?? ""}|${info.commit ?? ""}`;
  const hit = cache.get(info.graph);
  if (hit && hit.key === key) return hit.schema;
  const schema = readSchema(db, info.graph, timeoutMs);
  cache.set(info.graph, { key, schema });
  schema.catch(() => {
    if (cache.get(info.graph)?.schema === schema) cache.delete(info.graph);
  });
  return schema;
}

// ---- get_schema -------------------------------------------------------------------------------

export interface SchemaResult {
  type: "schema";
  project: string;
  branch: string;
  nodes: number;
  edges: number;
  labels: { label: string; count: number; description?: string; properties: string[] }[];
  relationships: {
    from: string;
    type: string;
    to: string;
    count: number;
    description?: string;
    properties: string[];
  }[];
  properties: Record<string, string>;
  examples: { question: string; cypher: string }[];
}

const isKind = (l: string) => (KIND_LABELS as readonly string[]).includes(l);

export function schemaResult(s: LiveSchema, project: string, branch: string): SchemaResult {
  const docs = new Map(LABELS.map((l) => [l.label, l]));
  const relDocs = new Map(RELATIONS.map((r) => [r.type, r]));
  const labels = [...new Set([...s.labels, ...Object.keys(s.labelCounts)])]
    .map((label) => ({
      label,
      count: s.labelCounts[label] ?? 0,
      ...(docs.get(label) ? { description: docs.get(label)!.description } : {}),
      properties: [
        ...new Set([
          ...Object.keys(docs.get(label)?.properties ?? {}),
          ...(s.labelProps[label] ?? []),
        ]),
      ],
    }))
    .sort((a, b) => Number(isKind(a.label)) - Number(isKind(b.label)) || b.count - a.count);
  const relationships = s.tripleCounts
    .filter((t) => !isKind(t.from) && !isKind(t.to))
    .map((t) => ({
      ...t,
      ...(relDocs.get(t.type) ? { description: relDocs.get(t.type)!.description } : {}),
      properties: [
        ...new Set([
          ...Object.keys(relDocs.get(t.type)?.properties ?? {}),
          ...(s.relProps[t.type] ?? []),
        ]),
      ],
    }))
    .sort((a, b) => b.count - a.count);
  const properties: Record<string, string> = {};
  for (const l of LABELS.filter((x) => !isKind(x.label))) {
    for (const [p, d] of Object.entries(l.properties)) properties[`${l.label}.${p}`] = d;
  }
  for (const r of RELATIONS) {
    for (const [p, d] of Object.entries(r.properties)) properties[`${r.type}.${p}`] = d;
  }
  return {
    type: "schema",
    project,
    branch,
    nodes: s.nodes,
    edges: s.edges,
    labels,
    relationships,
    properties,
    examples: EXAMPLES.slice(0, 5),
  };
}

/**
 * The schema as text, in sections: labels and relationships with their counts and meaning, the
 * properties (`Label.property | meaning`), then the worked
 * examples (question | Cypher). The JSON carries the same, as fields.
 */
export function formatSchema(r: SchemaResult, notes: string[] = []): string {
  const head = [
    `schema of ${r.project}:${r.branch}: ${r.nodes} nodes, ${r.edges} edges, ` +
    `${r.labels.length} labels, ${new Set(r.relationships.map((x) => x.type)).size} ` +
    "relationship types (run Cypher with query_graph, read-only)",
    ...notes,
  ].join("; ");
  const out = [head, "--- labels: count | meaning ---"];
  const described = new Set(Object.keys(r.properties).map((p) => p.split(".")[0]));
  for (const l of r.labels) {
    const name = isKind(l.label) ? `:Symbol:${l.label}` : `:${l.label}`;
    // Properties of described labels are in their section below.
    const props = isKind(l.label) || described.has(l.label) ? [] : [l.properties.join(", ")];
    out.push([`${name} ${l.count}`, ...props, ...(l.description ? [l.description] : [])]
      .join(" | "));
  }
  out.push("--- relationships: count | meaning ---");
  const seen = new Set<string>();
  for (const x of r.relationships) {
    const props = described.has(x.type) || !x.properties.length ? [] : [x.properties.join(", ")];
    const doc = x.description && !seen.has(x.type) ? [x.description] : [];
    seen.add(x.type);
    out.push([`(:${x.from})-[:${x.type}]->(:${x.to}) ${x.count}`, ...props, ...doc].join(" | "));
  }
  out.push("--- properties ---");
  for (const [p, d] of Object.entries(r.properties)) out.push(`${p} | ${d}`);
  out.push("--- examples: question | Cypher ---");
  for (const e of r.examples) out.push(`${e.question} | ${e.cypher.replace(/\s*\n\s*/g, " ")}`);
  return out.join("\n");
}

/** The live part of the prompt: what this graph holds beyond the model, with counts. */
export function liveSchemaText(s: LiveSchema): string {
  const r = schemaResult(s, "", "");
  const out = ["# This graph", `${s.nodes} nodes, ${s.edges} edges.`];
  out.push(`Labels: ${r.labels.map((l) => `:${l.label} ${l.count}`).join(", ")}`);
  out.push(
    `Relationships: ${
      r.relationships.map((x) => `(:${x.from})-[:${x.type}]->(:${x.to}) ${x.count}`).join(", ")
    }`,
  );
  const docs = new Set([...LABELS.map((l) => l.label)]);
  for (const l of r.labels.filter((x) => !docs.has(x.label))) {
    out.push(`:${l.label} properties (not described above): ${l.properties.join(", ")}`);
  }
  return out.join("\n");
}
