/**
 * What cgraph resolves for a source tree, as plain JSON for the scorer: symbols (with the
 * enclosing definition), CALLS edges and the raw call facts (so a missed edge can be explained by
 * the call site cgraph saw). Runs the indexer's own pipeline in memory (walk -> read -> analyze ->
 * resolveAll), which is exactly what a full index writes to FalkorDB.
 *
 * `deno run -A bench/accuracy/export.ts <root> <out.json>`
 */
import { resolveAll } from "../../src/index/resolve/mod.ts";
import { analyzeFiles, readCandidates } from "../../src/index/scan.ts";
import { walkRepository } from "../../src/index/walk.ts";
import { languageByName } from "../../src/lang/registry.ts";
import type { CgExport } from "./types.ts";

export async function exportCgraph(root: string): Promise<CgExport> {
  const t0 = performance.now();
  const walk = await walkRepository(root);
  const read = await readCandidates(walk.files, walk.skipped);
  const facts = await analyzeFiles(read, walk.skipped);
  const t1 = performance.now();
  const res = resolveAll(facts, languageByName);
  const t2 = performance.now();
  if (res.failures.length) {
    console.error(`resolution failed on ${res.failures.length} calls, e.g. ${res.failures[0]}`);
  }
  const out: CgExport = {
    files: facts.map((f) => f.path),
    symbols: [],
    edges: [],
    calls: [],
    parseErrors: {},
    ms: { analyze: Math.round(t1 - t0), resolve: Math.round(t2 - t1) },
  };
  for (const f of facts) {
    const nodes = res.symbols.get(f.path) ?? [];
    if (f.parseErrors) out.parseErrors[f.path] = f.parseErrors;
    f.defs.forEach((d, i) => {
      const n = nodes[i];
      if (!n) return;
      out.symbols.push({
        id: n.id,
        path: f.path,
        line: n.line,
        endLine: n.end_line,
        name: n.name,
        kind: n.kind,
        qualified: n.qualified_name,
        parent: d.parent >= 0 ? nodes[d.parent]?.id : undefined,
      });
    });
    for (const c of f.calls) {
      out.calls.push({
        path: f.path,
        from: c.from >= 0 ? nodes[c.from]?.id : undefined,
        line: c.line,
        name: c.name,
        receiver: c.receiver,
        isNew: c.isNew,
      });
    }
  }
  for (const list of res.edges.values()) {
    for (const e of list) {
      if (e.type !== "CALLS" && e.type !== "INSTANTIATES") continue;
      out.edges.push({
        type: e.type,
        from: e.fromFile ? undefined : e.from,
        fromFile: e.fromFile ? pathOfFileEdge(e.from, facts) : undefined,
        to: e.to,
        line: e.line ?? 0,
        confidence: e.confidence ?? 1,
        via: (e as { via?: string }).via,
      });
    }
  }
  return out;
}

const fileIdCache = new Map<string, string>();
function pathOfFileEdge(id: string, facts: { path: string }[]): string {
  if (!fileIdCache.size) {
    for (const f of facts) fileIdCache.set(fileIdOf(f.path), f.path);
  }
  return fileIdCache.get(id) ?? "?";
}

import { fileId as fileIdOf } from "../../src/graph/model.ts";

if (import.meta.main) {
  const [root, out] = Deno.args;
  if (!root || !out) {
    console.error("usage: export.ts <root> <out.json>");
    Deno.exit(2);
  }
  await Deno.writeTextFile(out, JSON.stringify(await exportCgraph(root)));
}
