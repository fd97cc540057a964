/**
 * Re-checks the rows of a recorded hand check (`handcheck/<language>.md`) on this checkout: is each
 * sampled edge still there, and which edges does each sampled call site have now? Only rows whose
 * answer changed are printed in full, so a re-score reads the differences, not the whole sample.
 *
 * `deno run -A --unstable-raw-imports bench/accuracy/recheck.ts <root> <handcheck.md> <from-line>
 *   <to-line>` (the line range holding the project's two tables).
 */
import { exportCgraph } from "./export.ts";

const [root, md, fromArg, toArg] = Deno.args;
if (!root || !md || !fromArg || !toArg) {
  console.error("usage: recheck.ts <root> <handcheck.md> <from-line> <to-line>");
  Deno.exit(2);
}
const lines = (await Deno.readTextFile(md)).split("\n").slice(Number(fromArg) - 1, Number(toArg));
const cg = await exportCgraph(root);
const sym = new Map(cg.symbols.map((s) => [s.id, s]));
const label = (id: string) => {
  const s = sym.get(id)!;
  return `${s.qualified} (${s.path}:${s.line})`;
};

/** Table cells of a Markdown row (escaped pipes kept inside their cell). */
const cells = (row: string) =>
  row.replace(/\\\|/g, "\u00a7").split("|").slice(1, -1).map((c) =>
    c.replaceAll("\u00a7", "|").trim()
  );

let kind: "edges" | "sites" | undefined;
let [kept, removed, same, changed] = [0, 0, 0, 0];
for (const row of lines) {
  if (!row.startsWith("|")) continue;
  const c = cells(row);
  if (c[0] === "#") {
    kind = c.includes("called name") ? "sites" : "edges";
    continue;
  }
  if (!/^\d+$/.test(c[0])) continue;
  const site = c[kind === "edges" ? 2 : 1].match(/^(\S+):(\d+)/);
  if (!site) continue;
  const [path, line] = [site[1], Number(site[2])];
  if (kind === "edges") {
    const callee = c[3];
    const found = cg.edges.some((e) =>
      e.type === "CALLS" && e.line === line &&
      ((e.from && sym.get(e.from)?.path === path) || e.fromFile === path) &&
      label(e.to) === callee
    );
    if (found) kept++;
    else {
      removed++;
      console.log(`edge ${c[0]} removed: ${path}:${line} -> ${callee} | was: ${c[5]}`);
    }
  } else {
    const name = c[2];
    const callers = cg.calls.filter((x) => x.path === path && x.line === line && x.name === name);
    const targets = new Set<string>();
    for (const x of callers) {
      // As sample.ts lists them: CALLS and INSTANTIATES edges to the name.
      for (const e of cg.edges) {
        if (!(x.from ? e.from === x.from : e.fromFile === x.path)) continue;
        if (sym.get(e.to)?.name === name) targets.add(label(e.to));
      }
    }
    const now = [...targets].sort().join(", ") || "none";
    const then = c[3].split(/, (?=\S+ \()/).map((s) => s.trim()).sort().join(", ") || "none";
    const thenSet = [...new Set(then.split(", "))].join(", ");
    if (now === thenSet || now === then) same++;
    else {
      changed++;
      console.log(
        `site ${c[0]} ${path}:${line} ${name}\n  then: ${then}\n  now:  ${now}\n  verdict was: ${
          c[4]
        }`,
      );
    }
  }
}
console.log(`edges kept ${kept}, removed ${removed}; sites unchanged ${same}, changed ${changed}`);
