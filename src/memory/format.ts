/**
 * How the memory tools' answers read: JSON shapes of notes and placements, and the text lines of
 * recall and memory_linked_search (header, then one line per hit or section entry).
 */
import { displayName } from "../project/names.ts";
import * as F from "../query/format.ts";
import { isFile, type Link, type NodeRef } from "../query/graph.ts";
import type { MemoryGroup, Section } from "./lookups.ts";
import type { Note, Placement } from "./notes.ts";

export function day(iso: string): string {
  return iso.slice(0, 10);
}

// ---- JSON shapes ------------------------------------------------------------------------------

export function nodeJson(n: NodeRef) {
  return { qualified_name: n.qualified_name, kind: n.kind, path: n.path, line: n.line };
}

export function noteJson(n: Note) {
  return {
    note_id: n.note_id,
    kind: n.kind,
    text: n.text,
    tags: n.tags,
    created_at: n.created_at,
    branch: displayName(n.branch),
    commit: n.commit,
    client: n.client,
    written_on: {
      qualified_name: n.qualified_name,
      kind: n.symbol_kind,
      path: n.path,
      line: n.line,
    },
  };
}

export function placementJson(p: Placement) {
  return {
    ...noteJson(p.note),
    placement: p.how,
    ...(p.node ? { about: nodeJson(p.node) } : {}),
    ...(p.near?.length ? { near: p.near.map(nodeJson) } : {}),
  };
}

/** `moved from billing/invoice.py`, or `was billing.Invoice.total` when only the name changed. */
export function movedFrom(p: Placement): string {
  return p.node && p.node.path !== p.note.path
    ? `moved from ${p.note.path}`
    : `was ${p.note.qualified_name}`;
}

/** `shop.db.store (function, shop/db.py:13)`, plus where it was when the note was written. */
export function aboutText(p: Placement): string {
  const n = p.note;
  const was = `${n.qualified_name}${
    n.target === "file" ? "" : ` (${n.symbol_kind.toLowerCase()}, ${n.path}:${n.line})`
  }`;
  if (!p.node) {
    const near = p.near?.length
      ? `; same name: ${p.near.map((x) => x.qualified_name).join(", ")}`
      : "";
    return `orphaned: was ${was}${near}`;
  }
  const moved = p.how === "moved" ? `, ${movedFrom(p)}` : "";
  return `${F.describe(p.node)}${moved}`;
}

export function noteMeta(n: Note): string {
  return [day(n.created_at), n.client, displayName(n.branch)].filter(Boolean).join(" ");
}

// ---- text -------------------------------------------------------------------------------------

export function decisionLine(
  d: { path: string; title: string; status: string; date: string },
): string {
  return [d.path, F.oneLine(d.title, 100), d.status || "no status", d.date || "undated"].join(
    " | ",
  );
}

export function count(shown: number, total: number): string {
  return total > shown ? `${total}, showing ${shown}` : `${total}`;
}

export function memoryLines(gr: MemoryGroup): string[] {
  const t = gr.target;
  const file = isFile(t);
  const out = ["--- definition ---"];
  const span = t.end_line && t.end_line > t.line ? `-${t.end_line}` : "";
  out.push(file ? `${t.path} | file` : `${F.loc(t)}${span} | ${F.shortName(t)} | ${F.kindOf(t)}`);
  if (t.signature) out.push(`signature: ${F.oneLine(t.signature, 200)}`);
  if (gr.doc) out.push(`doc: ${F.oneLine(gr.doc, 200)}`);
  const [inName, outName] = file ? ["imported by", "imports"] : ["callers", "callees"];
  out.push(`--- ${inName} (${count(gr.callers.links.length, gr.callers.total)}) ---`);
  out.push(...F.byFile(gr.callers.links, (l) => l.node, edgeTail));
  out.push(`--- ${outName} (${count(gr.callees.links.length, gr.callees.total)}) ---`);
  out.push(...F.byFile(gr.callees.links, (l) => l.node, edgeTail));
  out.push(`--- notes (${count(gr.notes.length, gr.notes_total)}) ---`);
  for (const n of gr.notes) {
    const p = n.placement;
    const on = n.via ? `${n.relation} ${n.via.qualified_name}` : n.relation;
    const moved = p.how === "moved" ? ` (${movedFrom(p)})` : "";
    out.push(
      [p.note.note_id, p.note.kind, `${on}${moved}`, noteMeta(p.note), F.oneLine(p.note.text, 160)]
        .join(" | "),
    );
  }
  out.push(`--- decisions (${gr.decisions.length}) ---`);
  for (const d of gr.decisions) out.push(`${decisionLine(d)} | names ${d.names}`);
  const fixes = gr.commits.filter((c) => c.fix).length;
  out.push(
    `--- commits (${gr.commits.length}${
      fixes ? `, ${fixes} ${fixes === 1 ? "fix" : "fixes"}` : ""
    }${gr.commits.length ? ", newest first" : ""}${
      gr.history_note ? `; ${gr.history_note}` : ""
    }) ---`,
  );
  for (const c of gr.commits) {
    out.push(
      [
        c.hash.slice(0, 10),
        day(c.date),
        c.author,
        F.oneLine(c.subject, 120),
        ...(c.fix ? ["fix"] : []),
      ]
        .join(" | "),
    );
  }
  return out;
}

/** What follows a neighbour's own fields: ` | call at 9 (x2)`. */
function edgeTail(l: Link): string {
  return l.at !== undefined
    ? ` | ${l.rel === "CALLS" ? "call" : l.rel.toLowerCase()} at ${l.at}${
      l.count && l.count > 1 ? ` (x${l.count})` : ""
    }`
    : "";
}

export function groupSummary(gr: MemoryGroup): string {
  const file = isFile(gr.target);
  const fixes = gr.commits.filter((c) => c.fix).length;
  return [
    F.plural(gr.callers.total, file ? "importer" : "caller"),
    F.plural(gr.callees.total, file ? "import" : "callee"),
    F.plural(gr.notes_total, "note"),
    F.plural(gr.decisions.length, "decision"),
    `${F.plural(gr.commits.length, "commit")}${
      fixes ? ` (${F.plural(fixes, "fix", "fixes")})` : ""
    }`,
  ].join(", ");
}

export function groupJson(gr: MemoryGroup) {
  const links = (s: Section) => ({
    total: s.total,
    links: s.links.map((l) => ({
      ...nodeJson(l.node),
      ...(l.at !== undefined ? { at: l.at } : {}),
    })),
  });
  return {
    target: nodeJson(gr.target),
    ...(gr.target.signature ? { signature: gr.target.signature } : {}),
    ...(gr.doc ? { doc: gr.doc } : {}),
    callers: links(gr.callers),
    callees: links(gr.callees),
    notes: gr.notes.map((n) => ({
      relation: n.relation,
      ...(n.via ? { via: nodeJson(n.via) } : {}),
      ...placementJson(n.placement),
    })),
    notes_total: gr.notes_total,
    decisions: gr.decisions.map(({ id: _id, ...d }) => d),
    commits: gr.commits,
    ...(gr.history_note ? { history_note: gr.history_note } : {}),
  };
}
