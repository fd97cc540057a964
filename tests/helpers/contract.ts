/**
 * Fixture contracts (fixtures/<lang>/expected.yaml) checked against a view of a graph: the same
 * checks run on the in-memory resolution (scripts/contract.ts) and on the real FalkorDB graph.
 */
import { parse } from "yaml";
import type { FileFacts } from "../../src/graph/facts.ts";
import type { Resolution } from "../../src/index/resolve/mod.ts";

export interface Contract {
  language: string;
  files?: number;
  symbols?: Record<string, number>;
  edges?: Record<string, number>;
  definitions?: Record<string, { kind: string; path: string; line?: number }>;
  callees?: Record<string, string[]>;
  callers?: Record<string, string[]>;
  absent?: [string, string][];
  imports?: Record<string, string[]>;
  extends?: Record<string, string[]>;
  implements?: Record<string, string[]>;
  paths?: { from: string; to: string; path: string[] }[];
}

/** What a contract is checked against: names are qualified names, or paths for files. */
export interface GraphView {
  files: number;
  kinds: Record<string, number>;
  edgeCounts: Record<string, number>;
  defs: { qualified: string; kind: string; path: string; line: number }[];
  edges: { type: string; from: string; to: string }[];
}

export async function readContract(fixtureDir: string): Promise<Contract> {
  return parse(await Deno.readTextFile(`${fixtureDir}/expected.yaml`)) as Contract;
}

const KINDS = ["Function", "Method", "Class", "Interface", "Struct", "Enum", "Trait", "Module"];
const EDGE_TYPES = ["CALLS", "IMPORTS", "EXTENDS", "IMPLEMENTS"];

/** Every way the view breaks the contract; empty when it holds. */
export function checkContract(c: Contract, view: GraphView): string[] {
  const problems: string[] = [];
  // Callees and callers are CALLS and INSTANTIATES: `new T()` instantiates T and calls the
  // constructor that runs, when the repository defines one.
  const types = (type: string) => type === "CALLS" ? ["CALLS", "INSTANTIATES"] : [type];
  const out = (type: string, from: string) =>
    view.edges.filter((e) => types(type).includes(e.type) && e.from === from).map((e) => e.to);
  const into = (type: string, to: string) =>
    view.edges.filter((e) => types(type).includes(e.type) && e.to === to).map((e) => e.from);
  const sameSet = (what: string, expected: string[], actual: string[]) => {
    const exp = [...new Set(expected)].sort();
    const act = [...new Set(actual)].sort();
    const missing = exp.filter((x) => !act.includes(x));
    const extra = act.filter((x) => !exp.includes(x));
    if (missing.length || extra.length) {
      problems.push(`${what}: missing [${missing.join(", ")}] unexpected [${extra.join(", ")}]`);
    }
  };
  if (c.files !== undefined && c.files !== view.files) {
    problems.push(`files: expected ${c.files}, got ${view.files}`);
  }
  if (c.symbols) {
    for (const k of KINDS) {
      const exp = c.symbols[k] ?? 0;
      const got = view.kinds[k] ?? 0;
      if (exp !== got) problems.push(`symbols.${k}: expected ${exp}, got ${got}`);
    }
  }
  if (c.edges) {
    for (const t of EDGE_TYPES) {
      if (c.edges[t] === undefined) continue;
      const got = view.edgeCounts[t] ?? 0;
      if (c.edges[t] !== got) problems.push(`edges.${t}: expected ${c.edges[t]}, got ${got}`);
    }
  }
  for (const [q, d] of Object.entries(c.definitions ?? {})) {
    const found = view.defs.filter((x) => x.qualified === q);
    if (found.length === 0) problems.push(`definition ${q}: not found`);
    else if (
      !found.some((x) =>
        x.kind === d.kind && x.path === d.path && (d.line === undefined || x.line === d.line)
      )
    ) {
      const got = found.map((x) => `${x.kind} ${x.path}:${x.line}`).join("; ");
      problems.push(`definition ${q}: expected ${d.kind} ${d.path}:${d.line ?? "?"}, got ${got}`);
    }
  }
  for (const [from, list] of Object.entries(c.callees ?? {})) {
    sameSet(`callees of ${from}`, list, out("CALLS", from));
  }
  for (const [to, list] of Object.entries(c.callers ?? {})) {
    sameSet(`callers of ${to}`, list, into("CALLS", to));
  }
  for (const [from, to] of c.absent ?? []) {
    if (out("CALLS", from).includes(to)) problems.push(`decoy edge present: ${from} -> ${to}`);
  }
  for (const [from, list] of Object.entries(c.imports ?? {})) {
    sameSet(`imports of ${from}`, list, out("IMPORTS", from));
  }
  for (const [from, list] of Object.entries(c.extends ?? {})) {
    sameSet(`extends of ${from}`, list, out("EXTENDS", from));
  }
  for (const [from, list] of Object.entries(c.implements ?? {})) {
    sameSet(`implements of ${from}`, list, out("IMPLEMENTS", from));
  }
  for (const p of c.paths ?? []) {
    const shortest = shortestCallPath(view, p.from, p.to);
    if (!shortest) {
      problems.push(`path ${p.from} -> ${p.to}: no call path`);
      continue;
    }
    const valid = p.path.every((n, i) => i === 0 || out("CALLS", p.path[i - 1]).includes(n));
    if (!valid || shortest.length !== p.path.length) {
      problems.push(
        `path ${p.from} -> ${p.to}: expected ${p.path.join(" -> ")}, shortest is ${
          shortest.join(" -> ")
        }`,
      );
    }
  }
  return problems;
}

export function shortestCallPath(view: GraphView, from: string, to: string): string[] | undefined {
  const next = new Map<string, string[]>();
  for (const e of view.edges) {
    if (e.type === "CALLS" || e.type === "INSTANTIATES") {
      next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    }
  }
  const prev = new Map<string, string>([[from, ""]]);
  const queue = [from];
  while (queue.length) {
    const at = queue.shift()!;
    if (at === to) {
      const path = [to];
      for (let p = prev.get(to)!; p; p = prev.get(p)!) path.unshift(p);
      return path;
    }
    for (const n of next.get(at) ?? []) if (!prev.has(n)) (prev.set(n, at), queue.push(n));
  }
  return undefined;
}

/** The view of an in-memory resolution (before any database). */
export function viewOfResolution(facts: FileFacts[], res: Resolution): GraphView {
  const nameOf = new Map<string, string>();
  const defs: GraphView["defs"] = [];
  const kinds: Record<string, number> = {};
  for (const f of facts) {
    nameOf.set(fileIdOf(f.path), f.path);
    for (const s of res.symbols.get(f.path) ?? []) {
      nameOf.set(s.id, s.qualified_name);
      defs.push({ qualified: s.qualified_name, kind: s.kind, path: s.path, line: s.line });
      kinds[s.kind] = (kinds[s.kind] ?? 0) + 1;
    }
  }
  const edges: GraphView["edges"] = [];
  const edgeCounts: Record<string, number> = {};
  for (const list of res.edges.values()) {
    for (const e of list) {
      edges.push({
        type: e.type,
        from: nameOf.get(e.from) ?? e.from,
        to: nameOf.get(e.to) ?? e.to,
      });
      edgeCounts[e.type] = (edgeCounts[e.type] ?? 0) + 1;
    }
  }
  return { files: facts.length, kinds, edgeCounts, defs, edges };
}

import { fileId as fileIdOf } from "../../src/graph/model.ts";
