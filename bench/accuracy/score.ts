/**
 * Scores cgraph's CALLS edges against an oracle's (FORMAT.md): precision, recall, definitions
 * found (and on the right line), and a breakdown of wrong and missing edges by cause. Pure.
 */
import type { CgCall, CgExport, CgSymbol, Oracle } from "./types.ts";

export interface Score {
  oracleEdges: number;
  cgEdges: number;
  correct: number;
  unjudged: number;
  /** Function-value edges (`via: "value"`): a compiler does not resolve them; counted apart. */
  valueEdges: number;
  valueCorrect: number;
  precision: number;
  recall: number;
  defs: { total: number; found: number; rightLine: number };
  instantiates: { total: number; found: number };
  wrong: Record<string, number>;
  missing: Record<string, number>;
  examples: { wrong: Record<string, string[]>; missing: Record<string, string[]> };
}

const TYPE_KINDS = new Set(["Class", "Struct", "Interface", "Enum", "Trait", "Module"]);
const EXAMPLES = Number(Deno.env.get("ACC_EXAMPLES") ?? 6);

export interface ScoreOptions {
  selfNames?: string[];
  /**
   * The oracle compiled one preprocessor configuration (C, C++): a definition it does not know
   * at all lies in code that configuration leaves out, and edges touching it are unjudged.
   */
  preprocessed?: boolean;
}

export function score(oracle: Oracle, cg: CgExport, opts: ScoreOptions = {}): Score {
  const selfNames = opts.selfNames ?? ["self", "this", "cls"];
  const cgFiles = new Set(cg.files);
  const files = new Set(oracle.files.filter((f) => cgFiles.has(f)));
  const fileOf = (loc: string) => loc.slice(0, loc.lastIndexOf(":"));
  const inScope = (loc: string) => files.has(fileOf(loc));

  // ---- map cgraph symbols onto oracle locations --------------------------------------------
  const oracleDefs = new Map(oracle.defs.map((d) => [`${d.path}:${d.line}`, d]));
  const defsByPath = new Map<string, typeof oracle.defs>();
  for (const d of oracle.defs) push(defsByPath, d.path, d);
  const classLocs = new Map<string, number[]>();
  for (const i of oracle.instantiates ?? []) push(classLocs, fileOf(i.class), lineOf(i.class));
  const locOf = new Map<string, string>();
  const symById = new Map<string, CgSymbol>();
  const exactLine = new Set<string>();
  for (const s of cg.symbols) {
    symById.set(s.id, s);
    const exact = `${s.path}:${s.line}`;
    if (TYPE_KINDS.has(s.kind)) {
      const lines = classLocs.get(s.path) ?? [];
      const near = lines.filter((l) => l >= s.line && l <= Math.min(s.endLine, s.line + 5));
      locOf.set(s.id, near.length ? `${s.path}:${Math.min(...near)}` : exact);
      continue;
    }
    if (oracleDefs.has(exact)) {
      locOf.set(s.id, exact);
      exactLine.add(exact);
      continue;
    }
    const candidates = (defsByPath.get(s.path) ?? []).filter((d) =>
      d.line >= s.line && d.line <= s.endLine &&
      (d.name === s.name || (d.kind === "constructor" && d.line <= s.line + 5))
    );
    candidates.sort((a, b) => a.line - b.line);
    locOf.set(s.id, candidates.length ? `${s.path}:${candidates[0].line}` : `cg:${exact}`);
  }
  const mappedLocs = new Set(locOf.values());
  // Constructors of each class location (through cgraph's nesting).
  const ctorsOfClass = new Map<string, string[]>();
  for (const s of cg.symbols) {
    if (!s.parent) continue;
    const loc = locOf.get(s.id)!;
    if (oracleDefs.get(loc)?.kind !== "constructor") continue;
    const cls = locOf.get(s.parent);
    if (cls) push(ctorsOfClass, cls, loc);
  }

  // ---- oracle pairs ---------------------------------------------------------------------------
  const oraclePairs = new Map<string, { caller: string; callee: string; site: number }>();
  for (const c of oracle.calls) {
    if (!inScope(c.caller) || !inScope(c.callee)) continue;
    const key = `${c.caller}>${c.callee}`;
    if (!oraclePairs.has(key)) oraclePairs.set(key, c);
  }
  const instPairs = new Set<string>();
  for (const i of oracle.instantiates ?? []) {
    if (inScope(i.caller) && inScope(i.class)) instPairs.add(`${i.caller}>${i.class}`);
  }
  // An unresolved site, by the name called there or by its line (an alias's name differs).
  const unresolved = new Set(
    (oracle.unresolved ?? []).flatMap((u) => [
      `${u.caller}>${u.name}`,
      `${u.caller}@${u.site}>${u.name}`,
    ]),
  );
  const oracleByCallerName = new Map<string, string[]>();
  for (const p of oraclePairs.values()) {
    const name = oracleDefs.get(p.callee)?.name;
    if (name) push(oracleByCallerName, `${p.caller}>${name}`, p.callee);
  }

  const callsAt = new Map<string, CgCall[]>();
  for (const c of cg.calls) push(callsAt, `${c.path}:${c.line}`, c);

  // ---- cgraph pairs ---------------------------------------------------------------------------
  const wrong: Record<string, number> = {};
  const missing: Record<string, number> = {};
  const examples = {
    wrong: {} as Record<string, string[]>,
    missing: {} as Record<string, string[]>,
  };
  const note = (
    bucket: Record<string, number>,
    ex: Record<string, string[]>,
    cause: string,
    text: string,
  ) => {
    bucket[cause] = (bucket[cause] ?? 0) + 1;
    const list = ex[cause] ??= [];
    if (list.length < EXAMPLES) list.push(text);
  };
  const found = new Set<string>();
  const foundInst = new Set<string>();
  /** Per callee: the cgraph callers' ranges (file, first and last line). */
  const cgCallersByCallee = new Map<string, { path: string; from: number; to: number }[]>();
  const cgPairsByCallerName = new Map<string, string[]>();
  let cgEdges = 0, correct = 0, unjudged = 0, valueEdges = 0, valueCorrect = 0;
  const seen = new Set<string>();
  for (const e of cg.edges) {
    const caller = e.from ? locOf.get(e.from) : `${e.fromFile}:0`;
    const target = symById.get(e.to);
    const callee = locOf.get(e.to);
    if (!caller || !target || !callee) continue;
    if (!files.has(fileOf(caller.replace(/^cg:/, ""))) || !files.has(target.path)) continue;
    const key = `${caller}>${callee}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (e.type === "INSTANTIATES") {
      if (instPairs.has(key)) foundInst.add(key);
      continue;
    }
    const callerSym = e.from ? symById.get(e.from) : undefined;
    push(cgCallersByCallee, callee, {
      path: callerSym?.path ?? e.fromFile ?? "",
      from: callerSym?.line ?? 0,
      to: callerSym?.endLine ?? Infinity,
    });
    push(cgPairsByCallerName, `${caller}>${target.name}`, callee);
    const isType = TYPE_KINDS.has(target.kind);
    let hit = oraclePairs.has(key);
    if (hit) found.add(key);
    if (isType) {
      if (instPairs.has(key)) {
        hit = true;
        foundInst.add(key);
      }
      for (const ctor of ctorsOfClass.get(callee) ?? []) {
        if (oraclePairs.has(`${caller}>${ctor}`)) {
          hit = true;
          found.add(`${caller}>${ctor}`);
        }
      }
    }
    const desc = `${caller} -> ${callee} (${target.qualified}, at ${e.line}, conf ${e.confidence})`;
    if (e.via === "value") {
      valueEdges++;
      if (hit) valueCorrect++;
      // Listed for --detail, outside the precision (a compiler resolves few function values).
      else note(wrong, examples.wrong, "function value the oracle lacks (counted apart)", desc);
      continue;
    }
    if (hit) {
      cgEdges++;
      correct++;
      continue;
    }
    const namesAtSite = (callsAt.get(`${fileOf(caller.replace(/^cg:/, ""))}:${e.line}`) ?? [])
      .map((c) => c.name);
    if (
      unresolved.has(`${caller}>${target.name}`) ||
      namesAtSite.some((n) => unresolved.has(`${caller}@${e.line}>${n}`)) ||
      (opts.preprocessed && (caller.startsWith("cg:") || (callee.startsWith("cg:") && !isType)))
    ) {
      unjudged++;
      continue;
    }
    cgEdges++;
    let cause: string;
    if (caller.startsWith("cg:")) cause = "caller is no oracle def (granularity)";
    else if (callee.startsWith("cg:") && !isType) cause = "callee is no oracle def";
    else if (oracleByCallerName.has(`${caller}>${target.name}`)) {
      cause = "same name, other definition";
    } else if (isType) cause = "instantiation the oracle does not see";
    else if (e.confidence <= 0.7) cause = `name-only guess (${e.confidence})`;
    else cause = "oracle: no such call (outside target or not a call)";
    note(wrong, examples.wrong, cause, desc);
  }

  // ---- what is missing ------------------------------------------------------------------------
  for (const [key, p] of oraclePairs) {
    if (found.has(key)) continue;
    const def = oracleDefs.get(p.callee);
    const name = def?.name ?? "?";
    const desc = `${p.caller} -> ${p.callee} (${name}, at ${fileOf(p.caller)}:${p.site})`;
    let cause: string;
    if (!p.caller.endsWith(":0") && !mappedLocs.has(p.caller)) cause = "caller is no cgraph symbol";
    else if (!mappedLocs.has(p.callee)) cause = "callee is no cgraph symbol";
    else if (
      (cgCallersByCallee.get(p.callee) ?? []).some((c) =>
        c.path === fileOf(p.caller) && c.from <= p.site && p.site <= c.to
      )
    ) {
      cause = "credited to another caller";
    } else if (cgPairsByCallerName.has(`${p.caller}>${name}`)) {
      cause = "resolved to another definition";
    } else {
      const sites = (callsAt.get(`${fileOf(p.caller)}:${p.site}`) ?? []).filter((c) =>
        c.name === name || (def?.kind === "constructor")
      );
      cause = siteCause(sites, selfNames, def?.kind === "constructor");
    }
    note(missing, examples.missing, cause, desc);
  }

  // ---- definitions ----------------------------------------------------------------------------
  let total = 0, defFound = 0, rightLine = 0;
  for (const d of oracle.defs) {
    if (!files.has(d.path)) continue;
    total++;
    const loc = `${d.path}:${d.line}`;
    if (mappedLocs.has(loc)) defFound++;
    if (exactLine.has(loc)) rightLine++;
  }

  return {
    oracleEdges: oraclePairs.size,
    cgEdges,
    correct,
    unjudged,
    valueEdges,
    valueCorrect,
    precision: cgEdges ? correct / cgEdges : 1,
    recall: oraclePairs.size ? found.size / oraclePairs.size : 1,
    defs: { total, found: defFound, rightLine },
    instantiates: { total: instPairs.size, found: foundInst.size },
    wrong,
    missing,
    examples,
  };
}

/** Why cgraph saw the call but linked nothing: the shape of the call site it extracted. */
export function siteCause(sites: CgCall[], selfNames: string[], ctor: boolean): string {
  if (!sites.length) return ctor ? "constructor call not linked" : "no call extracted at the site";
  const c = sites[0];
  if (c.isNew || ctor) return "unresolved: constructor";
  if (c.receiver === undefined) return "unresolved: bare call";
  const r = c.receiver;
  if (selfNames.includes(r) || r === "super" || r === "base") return "unresolved: self/super call";
  if (r.includes("(")) return "unresolved: receiver is a call result";
  const head = r.split(".")[0];
  if (selfNames.includes(head)) return "unresolved: self field receiver";
  if (r.includes(".")) return "unresolved: dotted receiver";
  if (/^[A-Z]/.test(r)) return "unresolved: type/module receiver";
  return "unresolved: variable receiver";
}

function lineOf(loc: string): number {
  return Number(loc.slice(loc.lastIndexOf(":") + 1));
}

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
