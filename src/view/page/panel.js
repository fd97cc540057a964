// The side panel's content: a node's answer from api/node (signature, doc, source, notes,
// decisions, commits, the equivalent commands) as DOM nodes; `actions` are the page's.

export function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

/**
 * `d`: api/node's answer. `actions`: copy(text), center(node), expand(id), impact(node).
 */
export function renderPanel(d, actions) {
  const n = d.node;
  const parts = [el("h2", n.qualified_name)];
  const loc = `${n.path}${n.line ? `:${n.line}` : ""}${
    d.end_line && d.end_line > n.line ? `-${d.end_line}` : ""
  }`;
  parts.push(
    el("div", `${n.kind} · ${n.language || "?"} · ${n.role}`, "muted"),
    el("div", loc, "loc"),
  );
  if (n.signature) parts.push(el("h3", "signature"), el("pre", n.signature));
  if (d.doc) parts.push(el("h3", "doc"), el("pre", d.doc));
  if (d.snippet) {
    const width = String(d.snippet.start + d.snippet.lines.length).length;
    const text = d.snippet.lines.map((l, i) =>
      `${String(d.snippet.start + i).padStart(width)}  ${l}`
    ).join("\n");
    parts.push(el("h3", "source"), el("pre", text + (d.snippet.cut ? "\n…" : "")));
  }
  parts.push(el("h3", `notes (${d.notes.length})`));
  if (!d.notes.length) parts.push(el("div", "none", "muted"));
  for (const note of d.notes) {
    const box = el("div", undefined, "note");
    box.append(
      el(
        "div",
        `${note.kind} · ${note.relation}${note.via ? ` ${note.via.qualified_name}` : ""} · ${
          (note.created_at ?? "").slice(0, 10)
        }`,
        "muted",
      ),
      el("div", note.text),
    );
    parts.push(box);
  }
  parts.push(el("h3", `decisions (${d.decisions.length})`));
  if (!d.decisions.length) parts.push(el("div", "none", "muted"));
  for (const dec of d.decisions) {
    const box = el("div", undefined, "decision");
    box.append(
      el("div", `${dec.title}`),
      el("div", `${dec.status} · ${dec.date} · ${dec.path} · names ${dec.names}`, "muted"),
    );
    parts.push(box);
  }
  if (d.commits.length) {
    parts.push(el("h3", "recent commits"));
    for (const c of d.commits) {
      parts.push(el("div", `${c.hash.slice(0, 8)} ${c.subject}${c.fix ? " (fix)" : ""}`, "muted"));
    }
  }
  parts.push(el("h3", "same answer elsewhere"));
  for (const [label, cmd] of Object.entries(d.commands)) {
    for (const [how, text] of [["CLI", cmd.cli], ["MCP", cmd.mcp]]) {
      if (!text) continue;
      const row = el("div", undefined, "cmd");
      const b = el("button", `copy ${label} ${how}`);
      b.addEventListener("click", () => actions.copy(text));
      row.append(el("code", text), b);
      parts.push(row);
    }
  }
  if (!n.id.startsWith("dir:") && n.kind !== "Directory") {
    const buttons = el("div", undefined, "buttons");
    const center = el("button", "centre here");
    center.addEventListener("click", () => actions.center(n));
    const more = el("button", "expand");
    more.addEventListener("click", () => actions.expand(n.id));
    const imp = el("button", "impact");
    imp.addEventListener("click", () => actions.impact(n));
    buttons.append(center, more, imp);
    parts.push(el("h3", "explore"), buttons);
  }
  return parts;
}
