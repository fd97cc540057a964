/**
 * A reproducible sample for hand checks where no oracle runs (Rust, Ruby, C#, Kotlin): N CALLS
 * edges (is each right?) and M call sites whose name a repository definition has (is the right
 * edge there?), printed as a Markdown checklist with the source line of each.
 *
 * `deno run -A --unstable-raw-imports bench/accuracy/sample.ts <root> [--edges 40] [--sites 30]
 *   [--seed 1]`
 */
import { parseArgs } from "node:util";
import { join } from "node:path";
import { exportCgraph } from "./export.ts";

const { values, positionals } = parseArgs({
  args: Deno.args,
  allowPositionals: true,
  options: {
    edges: { type: "string", default: "40" },
    sites: { type: "string", default: "30" },
    seed: { type: "string", default: "1" },
  },
});
const root = positionals[0];
if (!root) {
  console.error("usage: sample.ts <root> [--edges N] [--sites N] [--seed S]");
  Deno.exit(2);
}

/** mulberry32: a small seeded generator, so a sample can be drawn again. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(list: T[], n: number, random: () => number): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

const cg = await exportCgraph(root);
const random = rng(Number(values.seed));
const lines = new Map<string, string[]>();
const lineOf = async (path: string, line: number) => {
  if (!lines.has(path)) {
    lines.set(path, (await Deno.readTextFile(join(root, path)).catch(() => "")).split("\n"));
  }
  return (lines.get(path)![line - 1] ?? "").trim().slice(0, 140);
};
const sym = new Map(cg.symbols.map((s) => [s.id, s]));

const edges = pick(
  cg.edges.filter((e) => e.type === "CALLS"),
  Number(values.edges),
  random,
);
console.log(`# Hand check of ${root}\n\n## ${edges.length} sampled CALLS edges (right?)\n`);
console.log("| # | caller | call site | callee (definition) | confidence | verdict |");
console.log("|---|---|---|---|---|---|");
let i = 0;
for (const e of edges) {
  const from = e.from ? sym.get(e.from) : undefined;
  const to = sym.get(e.to)!;
  const path = from?.path ?? e.fromFile ?? "?";
  const src = await lineOf(path, e.line);
  console.log(
    `| ${++i} | ${from?.qualified ?? path} | ${path}:${e.line} \`${
      src.replace(/\|/g, "\\|")
    }\` | ` +
      `${to.qualified} (${to.path}:${to.line}) | ${e.confidence} | |`,
  );
}

const defNames = new Set(cg.symbols.map((s) => s.name));
const sites = pick(cg.calls.filter((c) => defNames.has(c.name)), Number(values.sites), random);
console.log(`\n## ${sites.length} sampled call sites named like a definition (edge there?)\n`);
console.log(
  "| # | call site | called name | cgraph's edges from the caller to that name | verdict |",
);
console.log("|---|---|---|---|---|");
i = 0;
for (const c of sites) {
  const targets = cg.edges.filter((e) =>
    (c.from ? e.from === c.from : e.fromFile === c.path) && sym.get(e.to)?.name === c.name
  ).map((e) => `${sym.get(e.to)!.qualified} (${sym.get(e.to)!.path}:${sym.get(e.to)!.line})`);
  const src = await lineOf(c.path, c.line);
  console.log(
    `| ${++i} | ${c.path}:${c.line} \`${src.replace(/\|/g, "\\|")}\` | ${c.name} | ` +
      `${targets.join(", ") || "none"} | |`,
  );
}
