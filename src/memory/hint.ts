/**
 * The memory hint other answers carry (get_context, impact_analysis, diff_impact): one header line
 * when notes or decisions exist for symbols they list. Registered in src/tools/registry.ts (HINTS).
 */
import * as Q from "../db/queries.ts";
import { fileId } from "../graph/model.ts";
import * as F from "../query/format.ts";
import { isFile, type NodeRef } from "../query/graph.ts";
import type { Target } from "../query/session.ts";
import { NoteStore } from "./notes.ts";

/**
 * One header line when notes or decisions exist for any of `nodes` (the symbols an answer lists):
 * `memory: notes on a.b (2), decisions on c.d (1); memory_linked_search <symbol> shows them`.
 * Notes are matched by id or qualified name (moves found only by name are left to the tool).
 */
export async function memoryHint(t: Target, nodes: NodeRef[]): Promise<string | undefined> {
  const unique = new Map<string, NodeRef>();
  for (const n of nodes) if (!unique.has(n.id)) unique.set(n.id, n);
  const list = [...unique.values()].slice(0, 1000);
  if (!list.length) return undefined;
  const g = t.reader;
  const noteCount = new Map<string, number>();
  const store = new NoteStore(g.db, t.project);
  if (await store.exists()) {
    const byId = new Map(list.map((n) => [isFile(n) ? fileId(n.path) : n.id, n]));
    const byQn = new Map<string, NodeRef>();
    for (const n of list) {
      if (!byQn.has(`${n.qualified_name}\0${n.kind}`)) {
        byQn.set(`${n.qualified_name}\0${n.kind}`, n);
      }
    }
    const seen = new Set<string>();
    const ro = { readOnly: true };
    const rows = [
      ...await g.db.query(
        store.graph,
        Q.NOTES_BY_SYMBOL_IDS,
        { ids: [...byId.keys()], cap: 5000 },
        ro,
      ),
      ...await g.db.query(store.graph, Q.NOTES_BY_QUALIFIED, {
        qns: [...new Set(list.map((n) => n.qualified_name))],
        cap: 5000,
      }, ro),
    ];
    for (const r of rows) {
      const id = String(r.note_id);
      if (seen.has(id)) continue;
      const n = byId.get(String(r.symbol_id)) ?? byQn.get(`${r.qn}\0${r.symbol_kind}`);
      if (!n) continue;
      seen.add(id);
      noteCount.set(n.id, (noteCount.get(n.id) ?? 0) + 1);
    }
  }
  const decisionCount = new Map<string, number>();
  const symbols = list.filter((n) => !isFile(n)).map((n) => n.id);
  const files = list.filter(isFile).map((n) => n.id);
  const rows = [
    ...(symbols.length
      ? await g.rows(Q.DECISIONS_MENTIONING_SYMBOLS, { ids: symbols, cap: 5000 })
      : []),
    ...(files.length ? await g.rows(Q.DECISIONS_MENTIONING_FILES, { ids: files, cap: 5000 }) : []),
  ];
  for (const r of rows) {
    decisionCount.set(String(r.about), (decisionCount.get(String(r.about)) ?? 0) + 1);
  }
  // The answer's own subject first, then the rest by notes, then decisions, then name.
  const hits = list
    .map((n, i) => ({ n, i, k: noteCount.get(n.id) ?? 0, d: decisionCount.get(n.id) ?? 0 }))
    .filter((x) => x.k || x.d)
    .sort((a, b) =>
      (a.i === 0 ? -1 : b.i === 0 ? 1 : 0) || b.k - a.k || b.d - a.d ||
      (a.n.qualified_name < b.n.qualified_name
        ? -1
        : a.n.qualified_name > b.n.qualified_name
        ? 1
        : 0)
    );
  if (!hits.length) return undefined;
  const parts = hits.map(({ n, k, d }) => {
    const what = [k ? F.plural(k, "note") : "", d ? F.plural(d, "decision") : ""].filter(Boolean);
    return `${n.qualified_name} (${what.join(", ")})`;
  });
  const shown = parts.slice(0, 4).join(", ") +
    (parts.length > 4 ? ` +${parts.length - 4} more` : "");
  return `memory: notes or decisions on ${shown}; memory_linked_search ${
    hits[0].n.qualified_name
  } shows them`;
}
