/**
 * Compiler-resolved call-graph oracle for C and C++ (bench/accuracy/FORMAT.md), built on clang's
 * JSON AST dump.
 *
 *   deno run -A bench/accuracy/oracles/clang.ts --root DIR --out FILE --language c|cpp
 *     [--include relDir ...] [--exclude relDir|glob ...] [-I relDir ...] [-D NAME[=V] ...]
 *     [--std c11|c++17] [--jobs N] [--macro-calls keep|drop]
 *
 * Every translation unit (.c for C; .cc .cpp .cxx for C++) under the selection is compiled with
 * `clang -Xclang -ast-dump=json -fsyntax-only` (two at a time, each in its own Deno subprocess that
 * streams clang's output). The dump is split into its top-level declarations; declarations that
 * mention no file of the analysed tree (system headers, excluded directories) are only scanned for
 * the dumper's location state (it omits `file`/`line` when unchanged), never parsed. The rest is
 * parsed and walked:
 * - defs: functions and methods WITH a body whose name token is in the analysed files (macro
 *   argument tokens at their spelling, other macro tokens at the expansion), pure virtual methods,
 *   and declarations that a call resolves to when no definition exists anywhere. Implicit and
 *   defaulted members and lambdas are not defs. A function is identified by the position of the
 *   end of its body, so template instantiations map back to the template's source definition.
 * - calls: CallExpr / CXXMemberCallExpr (statically named method, virtual or not) /
 *   CXXOperatorCallExpr (user-defined operators in the analysed files) / CXXConstructExpr and
 *   CXXNewExpr with a user-declared constructor (not implicit, not `= default`; unwritten base and
 *   member initialisers, elidable copies and copies/moves/conversions with no syntax of their own
 *   such as `return s;` or `f("x")` are skipped). Calls in template instantiations count (their
 *   caller is the template's definition). Unevaluated operands (decltype, sizeof, noexcept) are
 *   skipped. A call whose callee token comes from a macro body is sited at the macro's expansion
 *   (`--macro-calls drop` leaves those out). A declaration is linked to its
 *   definition through the `previousDecl` chain, across translation units through the position of
 *   any shared declaration, and last by (qualified name + type) for external linkage. Calls
 *   through function pointers and implicit conversion operators are skipped.
 * - instantiates: `new X`, `X(...)`, `X{...}` of a class in the analysed files whose constructor
 *   is implicit or defaulted.
 * - unresolved: dependent calls in templates that no instantiation resolved, and calls clang
 *   could not resolve (RecoveryExpr).
 * Callers: innermost enclosing definition (lambdas transparent); namespace/file-level
 * initialisers -> `path:0`; in-class member initialisers -> the class's name line.
 * Without -I, every directory holding a header is added as an include path (the root and
 * root/include always are). `--exclude` takes directories, files or globs (`**`, `*`).
 */
import { parseArgs } from "node:util";
import { dirname, extname, isAbsolute, join, relative, resolve } from "node:path";

// ---------------------------------------------------------------------------------------------
// Shared types

interface Cfg {
  root: string;
  language: "c" | "cpp";
  include: string[];
  exclude: string[];
  clangArgs: string[];
}

interface DefOut {
  k: string;
  path: string;
  line: number;
  name: string;
  kind: string;
  /** 0 = source definition, 1 = template instantiation, 2 = declaration only. */
  rank: number;
  pure?: boolean;
}

interface CalleeRef {
  /** Body key of the definition when this TU has it. */
  e?: string;
  /** Positions of the declarations of the callee (to find its definition in another TU). */
  p?: string[];
  /** Qualified name + type (external linkage only). */
  f?: string;
  /** Declaration-only fallback def (key into defs). */
  d?: string;
  n: string;
}

interface CallOut {
  c: string;
  t: CalleeRef;
  s: string;
  /** The callee token comes from a macro body (the site is the macro's expansion). */
  m: boolean;
}

interface TuResult {
  tu: string;
  ms: number;
  errors: number;
  jsonBytes: number;
  files: string[];
  defs: DefOut[];
  links: [string, string][];
  fb: [string, string][];
  calls: CallOut[];
  inst: { c: string; cls: string; s: string; m: boolean }[];
  unres: { c: string; n: string; s: string; pk: string }[];
  resolvedSites: string[];
}

// ---------------------------------------------------------------------------------------------
// Selection helpers

function globToRe(g: string): RegExp {
  let re = "";
  for (let i = 0; i < g.length; i++) {
    const ch = g[i];
    if (ch === "*" && g[i + 1] === "*") {
      re += ".*";
      i++;
      if (g[i + 1] === "/") i++;
    } else if (ch === "*") re += "[^/]*";
    else if (ch === "?") re += "[^/]";
    else re += ch.replace(/[.+^${}()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

function makeSelector(include: string[], exclude: string[]): (rel: string) => boolean {
  const norm = (d: string) => d.replace(/^\.\//, "").replace(/\/+$/, "");
  const inc = include.map(norm).filter((d) => d !== "" && d !== ".");
  const exDirs = exclude.filter((d) => !/[*?]/.test(d)).map(norm);
  const exGlobs = exclude.filter((d) => /[*?]/.test(d)).map(globToRe);
  const under = (rel: string, d: string) => rel === d || rel.startsWith(d + "/");
  return (rel) => {
    if (rel.startsWith("../") || rel === ".." || isAbsolute(rel)) return false;
    if (inc.length && !inc.some((d) => under(rel, d))) return false;
    if (exDirs.some((d) => under(rel, d))) return false;
    if (exGlobs.some((re) => re.test(rel))) return false;
    return true;
  };
}

// ---------------------------------------------------------------------------------------------
// Worker: one translation unit

type Json = Record<string, unknown>;
interface BareLoc {
  offset?: number;
  file?: string;
  line?: number;
  col?: number;
  isMacroArgExpansion?: boolean;
  spellingLoc?: BareLoc;
  expansionLoc?: BareLoc;
}
interface JNode {
  id?: string;
  kind?: string;
  loc?: BareLoc;
  range?: { begin?: BareLoc; end?: BareLoc };
  inner?: JNode[];
  name?: string;
  [k: string]: unknown;
}

const FUNC_KINDS = new Set([
  "FunctionDecl",
  "CXXMethodDecl",
  "CXXConstructorDecl",
  "CXXDestructorDecl",
  "CXXConversionDecl",
]);
const RECORD_KINDS = new Set([
  "CXXRecordDecl",
  "RecordDecl",
  "ClassTemplateSpecializationDecl",
  "ClassTemplatePartialSpecializationDecl",
]);
const CALL_KINDS = new Set(["CallExpr", "CXXMemberCallExpr", "CXXOperatorCallExpr"]);
const CONSTRUCT_KINDS = new Set(["CXXConstructExpr", "CXXTemporaryObjectExpr"]);
const UNEVALUATED = new Set(["UnaryExprOrTypeTraitExpr", "CXXNoexceptExpr", "DecltypeType"]);
/** Nodes that are transparent when asking for an expression's syntactic parent. */
const WRAPPERS = new Set([
  "ImplicitCastExpr",
  "ParenExpr",
  "MaterializeTemporaryExpr",
  "CXXBindTemporaryExpr",
  "ExprWithCleanups",
]);

interface FnInfo {
  id: string;
  kind: string;
  name: string;
  /** Normalised position key of the name token. */
  pk: string | null;
  /** "path:line" of the name token when in the analysed files. */
  at: string | null;
  path: string;
  line: number;
  endKey: string | null;
  prev: string | null;
  implicit: boolean;
  defaulted: boolean;
  pure: boolean;
  fb: string | null;
  inst: boolean;
}

interface Pos {
  file: string;
  line: number;
  offset: number;
  macro: boolean;
}

async function runWorker(cfg: Cfg, tu: string): Promise<TuResult> {
  const t0 = performance.now();
  const root = cfg.root;
  const selected = makeSelector(cfg.include, cfg.exclude);
  const normCache = new Map<string, string>();
  /** Raw clang file name -> root-relative path, or "!abs" for files outside the analysed set. */
  const norm = (raw: string): string => {
    let v = normCache.get(raw);
    if (v === undefined) {
      const abs = resolve(root, raw);
      const rel = relative(root, abs).split("\\").join("/");
      v = selected(rel) ? rel : "!" + abs;
      normCache.set(raw, v);
    }
    return v;
  };
  const inProject = (raw: string | undefined) => raw !== undefined && !norm(raw).startsWith("!");

  const args = [
    "-Xclang",
    "-ast-dump=json",
    "-fsyntax-only",
    "-ferror-limit=0",
    "-Wno-everything",
    "-H",
    ...cfg.clangArgs,
    tu,
  ];
  const child = new Deno.Command("clang", {
    args,
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stderrP = new Response(child.stderr).text();

  // ---- per-TU tables
  const fns = new Map<string, FnInfo>();
  const recordQual = new Map<string, string>(); // decl id -> qualified name (records, namespaces)
  const classPosByQual = new Map<string, string>(); // qualified record name -> "path:line"
  const ctorsByKey = new Map<string, string[]>(); // qual|ctorType -> ctor ids
  const ctorsByShortKey = new Map<string, string[]>(); // name|ctorType -> ctor ids
  const defs = new Map<string, DefOut>();
  const rawCalls: { c: string; id: string; s: string; n: string; m: boolean }[] = [];
  const calls: CallOut[] = [];
  const inst: { c: string; cls: string; s: string; m: boolean }[] = [];
  const pendingCtors: {
    c: string;
    qual: string;
    ctorType: string;
    s: string;
    creation: boolean;
    m: boolean;
  }[] = [];
  const unres: { c: string; n: string; s: string; pk: string }[] = [];
  const resolvedSites = new Set<string>();
  const files = new Set<string>();
  files.add(norm(tu));

  // ---- location state of the dumper (it omits file/line when unchanged)
  let stFile: string | undefined;
  let stLine = 0;

  function annotate(v: unknown): void {
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === "object") annotate(x);
      return;
    }
    const o = v as Json;
    if (typeof o.offset === "number" && typeof o.col === "number") {
      if (typeof o.file === "string") {
        stFile = o.file;
        stLine = o.line as number;
      } else if (typeof o.line === "number") stLine = o.line;
      o.file = stFile;
      o.line = stLine;
      return;
    }
    for (const k in o) {
      const x = o[k];
      if (x !== null && typeof x === "object") annotate(x);
    }
  }

  /** The position that names a location in the analysed tree (see module doc). */
  function pick(l: BareLoc | undefined): BareLoc | undefined {
    if (!l) return undefined;
    if (l.spellingLoc || l.expansionLoc) {
      const sp = l.spellingLoc, ex = l.expansionLoc;
      // a macro argument written in the invocation: its own token (not one spelled in a macro
      // body and passed on to a nested macro)
      if (
        ex?.isMacroArgExpansion && sp?.file && ex.file && inProject(sp.file) &&
        norm(sp.file) === norm(ex.file) && (sp.offset ?? 0) >= (ex.offset ?? 0)
      ) return sp;
      return ex?.file ? ex : sp;
    }
    return l.file ? l : undefined;
  }
  function pos(l: BareLoc | undefined): Pos | null {
    const p = pick(l);
    if (!p || !p.file || p.offset === undefined) return null;
    const macro = !!(l!.spellingLoc || l!.expansionLoc) && p !== l!.spellingLoc;
    return { file: norm(p.file), line: p.line ?? 0, offset: p.offset, macro };
  }
  /** Exact identity of a location (spelling and expansion), normalised file names. */
  function rawKey(l: BareLoc | undefined): string | null {
    if (!l) return null;
    if (l.spellingLoc || l.expansionLoc) {
      const a = rawKey(l.spellingLoc), b = rawKey(l.expansionLoc);
      return a || b ? `${a}>${b}` : null;
    }
    if (!l.file || l.offset === undefined) return null;
    return `${norm(l.file)}@${l.offset}`;
  }
  const projPos = (p: Pos | null) => p && !p.file.startsWith("!") ? p : null;

  // ---- walking
  interface Ctx {
    /** "E:<endKey>" (function), "L:<path:line>" (fixed caller), or null (file level). */
    caller: string | null;
    scope: string;
    lambda: boolean;
    inst: boolean;
    ctorLoc: string | null;
    cls: string | null;
  }

  const strip = (n: JNode | undefined): JNode | undefined => {
    while (
      n &&
      (n.kind === "ImplicitCastExpr" || n.kind === "ParenExpr" ||
        n.kind === "MaterializeTemporaryExpr" || n.kind === "CXXBindTemporaryExpr" ||
        n.kind === "ExprWithCleanups") &&
      n.inner?.length
    ) n = n.inner[0];
    return n;
  };
  const callerOf = (ctx: Ctx, site: Pos) => ctx.caller ?? `L:${site.file}:0`;
  const qt = (t: unknown): string => {
    const o = t as { qualType?: string; desugaredQualType?: string } | undefined;
    return o?.desugaredQualType ?? o?.qualType ?? "";
  };
  const stripArgs = (s: string): string => {
    let out = "";
    let depth = 0;
    for (const ch of s) {
      if (ch === "<") depth++;
      else if (ch === ">") depth = Math.max(0, depth - 1);
      else if (depth === 0) out += ch;
    }
    return out;
  };
  const classNameOfType = (t: string): string =>
    stripArgs(t)
      .replace(/\b(const|volatile|struct|class|union|enum)\s+/g, "")
      .replace(/[\s*&]+$/g, "")
      .replace(/^::/, "")
      .trim();

  const sources = new Map<string, Uint8Array | null>();
  /** Source text of a node's range (spelling positions; same file only). */
  function sourceText(n: JNode): string {
    const sp = (l: BareLoc | undefined) => l?.spellingLoc ?? l;
    const b = sp(n.range?.begin), e = sp(n.range?.end);
    if (!b?.file || !e?.file || b.file !== e.file || b.offset === undefined) return "";
    if (e.offset === undefined || e.offset < b.offset || e.offset - b.offset > 4096) return "";
    const abs = resolve(root, b.file);
    let bytes = sources.get(abs);
    if (bytes === undefined) {
      try {
        bytes = Deno.readFileSync(abs);
      } catch {
        bytes = null;
      }
      sources.set(abs, bytes);
    }
    if (!bytes) return "";
    const tok = (e as { tokLen?: number }).tokLen ?? 0;
    return new TextDecoder().decode(bytes.subarray(b.offset, e.offset + tok));
  }

  function siteOf(n: JNode | undefined, useEnd: boolean): { p: Pos; pk: string } | null {
    if (!n?.range) return null;
    const l = useEnd ? n.range.end : n.range.begin;
    const p = projPos(pos(l));
    const k = rawKey(l);
    return p && k ? { p, pk: k } : null;
  }

  function registerFn(n: JNode, ctx: Ctx, scope: string): FnInfo | null {
    if (!n.id || !n.range) return null; // bare reference, not a declaration node
    const kind = n.kind!;
    const name0 = n.name ?? "";
    const name = kind === "CXXConstructorDecl" || kind === "CXXDestructorDecl"
      ? stripArgs(name0)
      : name0;
    const np = pos(n.loc);
    const pp = projPos(np);
    const inner = n.inner ?? [];
    const defaulted = n.explicitlyDefaulted !== undefined || n.explicitlyDeleted === true;
    const hasBody = !defaulted &&
      inner.some((c) => c.kind === "CompoundStmt" || c.kind === "CXXTryStmt");
    let endKey: string | null = null;
    if (hasBody) endKey = rawKey(n.range.end);
    let qual = scope ? `${scope}::${name}` : name;
    const parentId = n.parentDeclContextId as string | undefined;
    if (parentId && recordQual.has(parentId)) qual = `${recordQual.get(parentId)}::${name}`;
    const isStatic = n.storageClass === "static" && kind === "FunctionDecl";
    let fb: string | null = null;
    if (!isStatic && !qual.includes("(anonymous")) {
      fb = cfg.language === "c" ? `c:${name}` : `cpp:${qual}|${qt(n.type)}`;
    }
    const info: FnInfo = {
      id: n.id,
      kind,
      name,
      pk: rawKey(n.loc),
      at: pp ? `${pp.file}:${pp.line}` : null,
      path: pp?.file ?? "",
      line: pp?.line ?? 0,
      endKey,
      prev: (n.previousDecl as string | undefined) ?? null,
      implicit: n.isImplicit === true,
      defaulted,
      pure: n.pure === true,
      fb,
      inst: ctx.inst,
    };
    fns.set(n.id, info);
    const defKind = kind === "FunctionDecl"
      ? "function"
      : kind === "CXXConstructorDecl"
      ? "constructor"
      : "method";
    if (pp && endKey && !info.implicit) {
      const rank = ctx.inst ? 1 : 0;
      const old = defs.get(endKey);
      if (!old || old.rank > rank) {
        defs.set(endKey, { k: endKey, path: pp.file, line: pp.line, name, kind: defKind, rank });
      }
    }
    if (pp && info.pure && info.pk) {
      const k = `P:${info.pk}`;
      if (!defs.has(k)) {
        defs.set(k, { k, path: pp.file, line: pp.line, name, kind: defKind, rank: 2, pure: true });
      }
    }
    if (kind === "CXXConstructorDecl") {
      const cls = parentId ? recordQual.get(parentId) ?? scope : scope;
      push(ctorsByKey, `${cls}|${qt(n.type)}`, n.id);
      const short = cls.slice(cls.lastIndexOf("::") + 1);
      push(ctorsByShortKey, `${short}|${qt(n.type)}`, n.id);
    }
    return info;
  }

  function handleCall(n: JNode, ctx: Ctx) {
    const callee = strip(n.inner?.[0]);
    if (!callee) return;
    const op = n.kind === "CXXOperatorCallExpr";
    const k = callee.kind;
    if (k === "DeclRefExpr") {
      const ref = callee.referencedDecl as { id: string; kind: string; name: string } | undefined;
      const site = siteOf(callee, !op);
      if (!site || !ref) return;
      resolvedSites.add(site.pk);
      if (!FUNC_KINDS.has(ref.kind)) return; // function pointer / functor variable
      if (ref.kind === "CXXConversionDecl") return;
      const c = callerOf(ctx, site.p);
      rawCalls.push({ c, id: ref.id, s: `${site.p.line}`, n: ref.name, m: site.p.macro });
    } else if (k === "MemberExpr") {
      const id = callee.referencedMemberDecl as string | undefined;
      const site = siteOf(callee, true);
      if (!site || !id) return;
      resolvedSites.add(site.pk);
      const name = callee.name ?? "";
      // conversion operators run implicitly: no callee token in the source
      if (fns.get(id)?.kind === "CXXConversionDecl") return;
      const c = callerOf(ctx, site.p);
      rawCalls.push({ c, id, s: `${site.p.line}`, n: name, m: site.p.macro });
    } else if (
      k === "UnresolvedLookupExpr" || k === "UnresolvedMemberExpr" ||
      k === "CXXDependentScopeMemberExpr" || k === "DependentScopeDeclRefExpr"
    ) {
      if (op) return; // dependent operators are BinaryOperators elsewhere: not listed
      const site = siteOf(callee, true);
      if (!site) return;
      const name = (callee.name ?? callee.member ?? sourceText(callee)) as string;
      unres.push({
        c: callerOf(ctx, site.p),
        n: lastIdent(name),
        s: `${site.p.line}`,
        pk: site.pk,
      });
    } else {
      const site = siteOf(callee, true);
      if (site) resolvedSites.add(site.pk); // call through an expression: not resolvable
    }
  }

  function handleRecovery(n: JNode, ctx: Ctx) {
    const first = strip(n.inner?.[0]);
    if (!first) return;
    let name: string | undefined;
    if (first.kind === "UnresolvedLookupExpr" || first.kind === "UnresolvedMemberExpr") {
      name = first.name ?? sourceText(first);
    } else if (first.kind === "DeclRefExpr") {
      const ref = first.referencedDecl as { kind: string; name: string } | undefined;
      if (ref && FUNC_KINDS.has(ref.kind)) name = ref.name;
    } else if (first.kind === "MemberExpr") {
      const id = first.referencedMemberDecl as string | undefined;
      if (id && fns.has(id)) name = first.name;
    }
    if (!name) return;
    const site = siteOf(first, true);
    if (!site) return;
    unres.push({ c: callerOf(ctx, site.p), n: lastIdent(name), s: `${site.p.line}`, pk: site.pk });
  }

  function handleConstruct(n: JNode, ctx: Ctx, parent: JNode | undefined, parentInit: boolean) {
    if (n.elidable === true) return;
    const site = siteOf(n, false);
    if (!site) return;
    if (parentInit && ctx.ctorLoc && rawKey(n.range?.begin) === ctx.ctorLoc) return; // unwritten
    // copies, moves and converting constructions with no syntax of their own (`return s;`,
    // `f(s)`, `Slice k = "x";`): the range is exactly that of the argument
    const arg = n.kind === "CXXConstructExpr" && n.inner?.length === 1 ? n.inner[0] : undefined;
    if (
      arg && parent?.kind !== "CXXFunctionalCastExpr" && parent?.kind !== "CXXNewExpr" &&
      rawKey(arg.range?.begin) === rawKey(n.range?.begin) &&
      rawKey(arg.range?.end) === rawKey(n.range?.end)
    ) return;
    const qual = classNameOfType(qt(n.type));
    const creation = n.kind === "CXXTemporaryObjectExpr" || parent?.kind === "CXXNewExpr" ||
      parent?.kind === "CXXFunctionalCastExpr";
    pendingCtors.push({
      c: callerOf(ctx, site.p),
      qual,
      ctorType: qt(n.ctorType),
      s: `${site.p.line}`,
      creation,
      m: site.p.macro,
    });
  }

  function handleNew(n: JNode, ctx: Ctx) {
    const hasCtor = (n.inner ?? []).some((c) => CONSTRUCT_KINDS.has(strip(c)?.kind ?? ""));
    if (hasCtor) return;
    const site = siteOf(n, false);
    if (!site) return;
    const qual = classNameOfType(qt(n.type));
    pendingCtors.push({
      c: callerOf(ctx, site.p),
      qual,
      ctorType: "",
      s: `${site.p.line}`,
      creation: true,
      m: site.p.macro,
    });
  }

  function walk(n: JNode, ctx: Ctx, parent?: JNode): void {
    const kind = n.kind;
    if (kind === undefined) {
      // CXXCtorInitializer and other id-less wrappers carry "kind" too; anything else: children
      for (const c of n.inner ?? []) walk(c, ctx, n);
      return;
    }
    if (n.isImplicit === true && kind !== "CXXCtorInitializer" && !kind.endsWith("Expr")) {
      // implicit declarations (special members, injected class names, builtins)
      if (FUNC_KINDS.has(kind) && n.id) registerFn(n, ctx, ctx.scope);
      if (!(RECORD_KINDS.has(kind) && parent?.kind === "LambdaExpr")) return;
    }
    // unevaluated operands (decltype, sizeof, alignof, noexcept) and types run nothing
    if (
      UNEVALUATED.has(kind) || (kind.endsWith("Type") && kind !== "VariableArrayType")
    ) return;
    if (FUNC_KINDS.has(kind)) {
      if (ctx.lambda) {
        for (const c of n.inner ?? []) walk(c, ctx, n);
        return;
      }
      const info = registerFn(n, ctx, ctx.scope);
      if (!info || !info.endKey || info.implicit) return;
      const sub: Ctx = {
        ...ctx,
        caller: `E:${info.endKey}`,
        ctorLoc: kind === "CXXConstructorDecl" ? rawKey(n.loc) : null,
      };
      for (const c of n.inner ?? []) walk(c, sub, n);
      return;
    }
    if (kind === "FunctionTemplateDecl") {
      let seenPattern = false;
      for (const c of n.inner ?? []) {
        if (c.kind && FUNC_KINDS.has(c.kind)) {
          walk(c, seenPattern ? { ...ctx, inst: true } : ctx, n);
          seenPattern = true;
        } else walk(c, ctx, n);
      }
      return;
    }
    if (kind === "ClassTemplateDecl") {
      for (const c of n.inner ?? []) {
        walk(c, c.kind === "ClassTemplateSpecializationDecl" ? { ...ctx, inst: true } : ctx, n);
      }
      return;
    }
    if (kind === "NamespaceDecl") {
      const q = (ctx.scope ? ctx.scope + "::" : "") + (n.name ?? "(anonymous namespace)");
      if (n.id) recordQual.set(n.id, q);
      for (const c of n.inner ?? []) walk(c, { ...ctx, scope: q }, n);
      return;
    }
    if (RECORD_KINDS.has(kind)) {
      if (parent?.kind === "LambdaExpr" || ctx.lambda) {
        for (const c of n.inner ?? []) walk(c, { ...ctx, lambda: true }, n);
        return;
      }
      if (!n.range) return;
      const q = (ctx.scope ? ctx.scope + "::" : "") + (n.name ?? "(anonymous)");
      if (n.id) recordQual.set(n.id, q);
      const pp = projPos(pos(n.loc));
      const at = pp ? `${pp.file}:${pp.line}` : null;
      if (at && n.completeDefinition === true && !classPosByQual.has(q)) classPosByQual.set(q, at);
      // methods are their own callers; member initialisers belong to the class
      const sub: Ctx = { ...ctx, scope: q, cls: at, caller: at ? `L:${at}` : ctx.caller };
      for (const c of n.inner ?? []) walk(c, sub, n);
      return;
    }
    if (kind === "LambdaExpr" || kind === "BlockExpr") {
      for (const c of n.inner ?? []) walk(c, { ...ctx, lambda: true }, n);
      return;
    }
    if (CALL_KINDS.has(kind)) handleCall(n, ctx);
    else if (kind === "RecoveryExpr") handleRecovery(n, ctx);
    else if (CONSTRUCT_KINDS.has(kind)) {
      handleConstruct(n, ctx, parent, parent?.kind === "CXXCtorInitializer");
    } else if (kind === "CXXNewExpr") handleNew(n, ctx);
    else if (kind === "CXXFunctionalCastExpr") {
      const c0 = strip(n.inner?.[0]);
      if (c0?.kind === "InitListExpr") {
        const site = siteOf(n, false);
        if (site) {
          pendingCtors.push({
            c: callerOf(ctx, site.p),
            qual: classNameOfType(qt(n.type)),
            ctorType: "",
            s: `${site.p.line}`,
            creation: true,
            m: site.p.macro,
          });
        }
      }
    }
    const up = WRAPPERS.has(kind) ? parent : n;
    for (const c of n.inner ?? []) walk(c, ctx, up);
  }

  // ---- streaming: split the dump into top-level declarations. The dump is pretty-printed with
  // two-space indentation, so the elements of the translation unit's "inner" array are the lines
  // from "    {" to "    }" / "    },". They are handled as bytes; only relevant ones are decoded.
  const decoder = new TextDecoder();
  let jsonBytes = 0;
  const topCtx: Ctx = {
    caller: null,
    scope: "",
    lambda: false,
    inst: false,
    ctorLoc: null,
    cls: null,
  };
  const FILE_KEY = new TextEncoder().encode('"file": ');
  const LINE_KEY = new TextEncoder().encode('"line": ');
  const INCL_KEY = new TextEncoder().encode('"includedFrom"');
  const COL_KEY = new TextEncoder().encode('"col": ');
  const at = (b: Uint8Array, i: number, key: Uint8Array) => {
    for (let k = 0; k < key.length; k++) if (b[i + k] !== key[k]) return false;
    return true;
  };
  let parts: Uint8Array[] | null = null;
  let chunkFrom = -1;
  let startFile: string | undefined, startLine = 0;
  let relevant = false;
  let prevIncl = false;
  /** Until the first location of the declaration says otherwise, it inherits the last file. */
  let firstLoc = true;

  const finishChunk = () => {
    const list = parts!;
    parts = null;
    if (!relevant) return;
    let total = 0;
    for (const p of list) total += p.length;
    const all = new Uint8Array(total);
    let o = 0;
    for (const p of list) {
      all.set(p, o);
      o += p.length;
    }
    let text = decoder.decode(all).trimEnd();
    if (text.endsWith(",")) text = text.slice(0, -1);
    const node = JSON.parse(text) as JNode;
    const endFile = stFile, endLine = stLine;
    stFile = startFile;
    stLine = startLine;
    annotate(node);
    stFile = endFile;
    stLine = endLine;
    walk(node, topCtx);
  };

  let carry = new Uint8Array(0);
  for await (const block of child.stdout) {
    jsonBytes += block.length;
    let buf = block;
    if (carry.length) {
      buf = new Uint8Array(carry.length + block.length);
      buf.set(carry);
      buf.set(block, carry.length);
    }
    let pos = 0;
    if (parts) chunkFrom = 0;
    for (;;) {
      const nl = buf.indexOf(10, pos);
      if (nl < 0) break;
      let j = pos;
      while (buf[j] === 32) j++;
      const indent = j - pos;
      if (indent === 4 && buf[j] === 123 && nl === j + 1) {
        // "    {": a top-level declaration starts
        parts = [];
        chunkFrom = pos;
        startFile = stFile;
        startLine = stLine;
        relevant = false;
        firstLoc = true;
        prevIncl = false;
      } else if (parts) {
        if (indent === 4 && buf[j] === 125) {
          parts.push(buf.subarray(chunkFrom, nl + 1));
          finishChunk();
        } else if (buf[j] === 34) {
          if (at(buf, j, FILE_KEY)) {
            if (!prevIncl) {
              firstLoc = false;
              let end = nl;
              if (buf[end - 1] === 44) end--;
              stFile = JSON.parse(decoder.decode(buf.subarray(j + FILE_KEY.length, end)));
              if (!relevant && inProject(stFile)) relevant = true;
            }
          } else if (at(buf, j, LINE_KEY)) {
            let v = 0;
            for (let k = j + LINE_KEY.length; buf[k] >= 48 && buf[k] <= 57; k++) {
              v = v * 10 + buf[k] - 48;
            }
            stLine = v;
          } else if (firstLoc && at(buf, j, COL_KEY)) {
            firstLoc = false;
            if (inProject(stFile)) relevant = true;
          }
          prevIncl = at(buf, j, INCL_KEY);
        } else prevIncl = false;
      }
      pos = nl + 1;
    }
    if (parts) parts.push(buf.subarray(chunkFrom, pos));
    carry = buf.slice(pos);
  }
  const stderr = await stderrP;
  await child.status;
  let errors = 0;
  for (const l of stderr.split("\n")) {
    const m = /^\.+ (.+)$/.exec(l);
    if (m) {
      const r = norm(m[1]);
      if (!r.startsWith("!")) files.add(r);
    } else if (/\berror:/.test(l)) errors++;
  }

  // ---- resolve within the TU
  const parentOf = new Map<string, string>();
  const find = (id: string): string => {
    let r = id;
    while (parentOf.has(r)) r = parentOf.get(r)!;
    return r;
  };
  for (const f of fns.values()) {
    if (f.prev && fns.has(f.prev)) {
      const a = find(f.id), b = find(f.prev);
      if (a !== b) parentOf.set(a, b);
    }
  }
  interface Group {
    e: string | null;
    pks: Set<string>;
    fb: string | null;
    first: FnInfo | null;
    pure: FnInfo | null;
    implicit: boolean;
  }
  const groups = new Map<string, Group>();
  const groupOf = (id: string): Group => {
    const r = find(id);
    let g = groups.get(r);
    if (!g) {
      g = { e: null, pks: new Set(), fb: null, first: null, pure: null, implicit: false };
      groups.set(r, g);
    }
    return g;
  };
  for (const f of fns.values()) {
    const g = groupOf(f.id);
    if (f.implicit || f.defaulted) g.implicit = true;
    if (f.endKey && !f.implicit && (!g.e || !f.inst)) g.e = f.endKey;
    if (f.at && f.pk) g.pks.add(f.pk);
    if (f.fb) g.fb = f.fb;
    if (f.pure && f.at) g.pure = f;
    // the root of the previousDecl chain is the first declaration
    if (f.at && (!g.first || f.id === find(f.id))) g.first = f;
  }
  const links: [string, string][] = [];
  const fb: [string, string][] = [];
  for (const g of groups.values()) {
    if (!g.e || !defs.has(g.e)) continue;
    for (const pk of g.pks) links.push([pk, g.e]);
    if (g.fb) fb.push([g.fb, g.e]);
  }
  const declDef = (f: FnInfo) => {
    const k = `D:${f.pk}`;
    if (defs.has(k)) return;
    const kind = f.kind === "FunctionDecl"
      ? "function"
      : f.kind === "CXXConstructorDecl"
      ? "constructor"
      : "method";
    defs.set(k, { k, path: f.path, line: f.line, name: f.name, kind, rank: 2 });
  };
  const refFor = (id: string, name: string): CalleeRef | null => {
    const f = fns.get(id);
    if (!f || f.kind === "CXXConversionDecl") return null; // declared outside the analysed files
    const g = groupOf(id);
    if (f.implicit || g.implicit) {
      // C: implicitly declared function (call without prototype) -> by name
      if (cfg.language === "c" && f.kind === "FunctionDecl" && f.fb && !f.defaulted) {
        return { n: name, f: f.fb };
      }
      return null;
    }
    const ref: CalleeRef = { n: name };
    if (f.endKey && defs.has(f.endKey)) ref.e = f.endKey;
    else if (g.e && defs.has(g.e)) ref.e = g.e;
    if (ref.e) return ref;
    if (!g.pks.size) return null; // only declared outside the analysed files
    ref.p = [...g.pks];
    if (g.fb) ref.f = g.fb;
    if (g.pure?.pk) ref.d = `P:${g.pure.pk}`;
    else if (g.first?.pk) {
      declDef(g.first);
      ref.d = `D:${g.first.pk}`;
    }
    return ref;
  };
  for (const rc of rawCalls) {
    const ref = refFor(rc.id, rc.n);
    if (!ref) continue;
    calls.push({ c: rc.c, t: ref, s: rc.s, m: rc.m });
  }
  for (const pc of pendingCtors) {
    const cls = classPosByQual.get(pc.qual) ??
      classPosByQual.get(pc.qual.replace(/^.*::/, "")) ?? null;
    if (pc.ctorType) {
      let ids = ctorsByKey.get(`${pc.qual}|${pc.ctorType}`);
      if (!ids) {
        const short = pc.qual.slice(pc.qual.lastIndexOf("::") + 1);
        const cand = ctorsByShortKey.get(`${short}|${pc.ctorType}`);
        if (cand && cand.length === 1) ids = cand;
      }
      const f = ids?.length ? fns.get(ids[0]) : undefined;
      if (f && !f.implicit && !f.defaulted) {
        const ref = refFor(f.id, f.name);
        if (ref) calls.push({ c: pc.c, t: ref, s: pc.s, m: pc.m });
        continue;
      }
      if (!f && cls) {
        // a class of the analysed files whose constructor we could not identify
        unres.push({
          c: pc.c,
          n: pc.qual.replace(/^.*::/, ""),
          s: pc.s,
          pk: `ctor:${pc.c}:${pc.s}`,
        });
        continue;
      }
    }
    if (pc.creation && cls) inst.push({ c: pc.c, cls, s: pc.s, m: pc.m });
  }

  return {
    tu: norm(tu),
    ms: Math.round(performance.now() - t0),
    errors,
    jsonBytes,
    files: [...files],
    defs: [...defs.values()],
    links,
    fb,
    calls,
    inst,
    unres,
    resolvedSites: [...resolvedSites],
  };
}

function lastIdent(name: string): string {
  let s = name.trim();
  // drop trailing template arguments
  while (s.endsWith(">")) {
    let depth = 0, i = s.length - 1;
    for (; i >= 0; i--) {
      if (s[i] === ">") depth++;
      else if (s[i] === "<" && --depth === 0) break;
    }
    if (i <= 0) break;
    s = s.slice(0, i).trimEnd();
  }
  const m = /(operator\s*\S+|~?[A-Za-z_][A-Za-z0-9_]*)$/.exec(s);
  return m ? m[1] : name;
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V) {
  const l = m.get(k);
  if (l) l.push(v);
  else m.set(k, [v]);
}

// ---------------------------------------------------------------------------------------------
// Main: discover TUs, run workers, merge

async function listFiles(root: string, dir = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(root, dir))) {
    if (e.name.startsWith(".")) continue;
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory) out.push(...await listFiles(root, rel));
    else if (e.isFile) out.push(rel);
  }
  return out;
}

async function clangVersion(): Promise<string> {
  const r = await new Deno.Command("clang", { args: ["--version"], stdout: "piped" }).output();
  const first = new TextDecoder().decode(r.stdout).split("\n")[0];
  const m = /clang version (\S+)/.exec(first);
  return `clang ${m ? m[1] : first}`;
}

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      root: { type: "string" },
      out: { type: "string" },
      language: { type: "string", default: "c" },
      include: { type: "string", multiple: true, default: [] },
      exclude: { type: "string", multiple: true, default: [] },
      I: { type: "string", short: "I", multiple: true, default: [] },
      D: { type: "string", short: "D", multiple: true, default: [] },
      std: { type: "string" },
      jobs: { type: "string", default: "2" },
      "macro-calls": { type: "string", default: "keep" },
      worker: { type: "string" },
      tu: { type: "string" },
    },
  });
  if (values.worker) {
    const cfg = JSON.parse(values.worker) as Cfg;
    const res = await runWorker(cfg, values.tu!);
    await Deno.stdout.write(new TextEncoder().encode(JSON.stringify(res)));
    return;
  }
  if (!values.root || !values.out) {
    console.error(
      "usage: clang.ts --root DIR --out FILE --language c|cpp [--include D] [--exclude D|GLOB] " +
        "[-I D] [-D N=V] [--std S] [--jobs N] [--macro-calls keep|drop]",
    );
    Deno.exit(2);
  }
  const language = values.language === "cpp" ? "cpp" : "c";
  const root = resolve(values.root);
  const selected = makeSelector(values.include!, values.exclude!);
  const all = (await listFiles(root)).filter(selected).sort();
  const tuExt = language === "c" ? [".c"] : [".cc", ".cpp", ".cxx", ".c++"];
  const tus = all.filter((f) => tuExt.includes(extname(f)));
  const incDirs: string[] = [root];
  try {
    if ((await Deno.stat(join(root, "include"))).isDirectory) incDirs.push(join(root, "include"));
  } catch { /* no include/ */ }
  if (values.I!.length) {
    for (const d of values.I!) incDirs.push(resolve(root, d));
  } else {
    const hdr = new Set([".h", ".hh", ".hpp", ".hxx", ".inc", ".ipp", ".tcc"]);
    for (const f of all) if (hdr.has(extname(f))) incDirs.push(join(root, dirname(f)));
  }
  const clangArgs = [
    ...(language === "cpp" ? ["-x", "c++", `-std=${values.std ?? "c++17"}`] : [
      "-x",
      "c",
      `-std=${values.std ?? "gnu11"}`,
    ]),
    ...[...new Set(incDirs)].map((d) => `-I${d}`),
    ...values.D!.map((d) => `-D${d}`),
  ];
  const cfg: Cfg = {
    root,
    language,
    include: values.include!,
    exclude: values.exclude!,
    clangArgs,
  };
  const version = await clangVersion();
  const jobs = Math.max(1, Number(values.jobs) || 2);
  const t0 = performance.now();
  const results: TuResult[] = [];
  let next = 0;
  const self = new URL(import.meta.url).pathname;
  const runOne = async (tu: string) => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-config", self, "--worker", JSON.stringify(cfg), "--tu", tu],
      stdout: "piped",
      stderr: "inherit",
    }).output();
    if (!out.success) {
      console.error(`clang oracle: ${tu}: worker failed`);
      return;
    }
    results.push(JSON.parse(new TextDecoder().decode(out.stdout)) as TuResult);
  };
  await Promise.all(
    Array.from({ length: Math.min(jobs, tus.length) }, async () => {
      while (next < tus.length) {
        const tu = tus[next++];
        await runOne(tu);
      }
    }),
  );
  results.sort((a, b) => a.tu.localeCompare(b.tu));

  // ---- merge
  const defs = new Map<string, DefOut>();
  const links = new Map<string, string>();
  const fbs = new Map<string, Set<string>>();
  const files = new Set<string>(tus);
  const resolvedSites = new Set<string>();
  let errors = 0, bytes = 0;
  for (const r of results) {
    errors += r.errors;
    bytes += r.jsonBytes;
    for (const f of r.files) files.add(f);
    for (const d of r.defs) {
      const old = defs.get(d.k);
      if (!old || old.rank > d.rank) defs.set(d.k, d);
    }
    for (const [pk, e] of r.links) if (!links.has(pk) || defs.get(e)?.rank === 0) links.set(pk, e);
    for (const [f, e] of r.fb) {
      const s = fbs.get(f) ?? new Set();
      s.add(e);
      fbs.set(f, s);
    }
    for (const s of r.resolvedSites) resolvedSites.add(s);
  }
  const at = (k: string | undefined): string | undefined => {
    const d = k ? defs.get(k) : undefined;
    return d ? `${d.path}:${d.line}` : undefined;
  };
  const callerLoc = (c: string): string | undefined =>
    c.startsWith("L:") ? c.slice(2) : at(c.slice(2));
  const usedDecl = new Set<string>();
  const resolveCallee = (t: CalleeRef): string | undefined => {
    if (t.e && defs.has(t.e)) return t.e;
    for (const p of t.p ?? []) {
      const e = links.get(p);
      if (e && defs.has(e)) return e;
    }
    if (t.f) {
      const s = fbs.get(t.f);
      if (s && s.size === 1) return [...s][0];
    }
    if (t.d && defs.has(t.d)) {
      usedDecl.add(t.d);
      return t.d;
    }
    return undefined;
  };
  const dropMacro = values["macro-calls"] === "drop";
  let macroCalls = 0;
  const callSet = new Map<string, { caller: string; callee: string; site: number }>();
  const instSet = new Map<string, { caller: string; class: string; site: number }>();
  const unresSet = new Map<string, { caller: string; name: string; site: number }>();
  for (const r of results) {
    for (const c of r.calls) {
      const caller = callerLoc(c.c);
      const k = resolveCallee(c.t);
      const callee = at(k);
      if (!caller || !callee) continue;
      const site = Number(c.s);
      const key = `${caller}>${callee}@${site}`;
      if (c.m && !callSet.has(key)) macroCalls++;
      if (c.m && dropMacro) continue;
      callSet.set(key, { caller, callee, site });
    }
    for (const i of r.inst) {
      const caller = callerLoc(i.c);
      if (!caller || (i.m && dropMacro)) continue;
      const site = Number(i.s);
      instSet.set(`${caller}>${i.cls}@${site}`, { caller, class: i.cls, site });
    }
    for (const u of r.unres) {
      if (resolvedSites.has(u.pk)) continue;
      const caller = callerLoc(u.c);
      if (!caller) continue;
      const site = Number(u.s);
      unresSet.set(`${caller}>${u.n}@${site}`, { caller, name: u.n, site });
    }
  }
  // declarations count as defs only when some call resolves to them (no definition anywhere) or
  // when they are pure virtual
  const outDefs = [...defs.values()]
    .filter((d) => d.rank < 2 || d.pure || usedDecl.has(d.k))
    .map((d) => ({ path: d.path, line: d.line, name: d.name, kind: d.kind }));
  const uniqDefs = new Map<string, { path: string; line: number; name: string; kind: string }>();
  for (const d of outDefs) {
    const k = `${d.path}:${d.line}:${d.name}`;
    if (!uniqDefs.has(k)) uniqDefs.set(k, d);
  }
  const byLoc = (a: string, b: string) => {
    const [pa, la] = [a.slice(0, a.lastIndexOf(":")), Number(a.slice(a.lastIndexOf(":") + 1))];
    const [pb, lb] = [b.slice(0, b.lastIndexOf(":")), Number(b.slice(b.lastIndexOf(":") + 1))];
    return pa.localeCompare(pb) || la - lb;
  };
  const doc = {
    oracle: version,
    language,
    root,
    files: [...files].sort(),
    defs: [...uniqDefs.values()].sort((a, b) =>
      a.path.localeCompare(b.path) || a.line - b.line || a.name.localeCompare(b.name)
    ),
    calls: [...callSet.values()].sort((a, b) =>
      byLoc(a.caller, b.caller) || a.site - b.site || byLoc(a.callee, b.callee)
    ),
    instantiates: [...instSet.values()].sort((a, b) =>
      byLoc(a.caller, b.caller) || a.site - b.site || byLoc(a.class, b.class)
    ),
    unresolved: [...unresSet.values()].sort((a, b) =>
      byLoc(a.caller, b.caller) || a.site - b.site || a.name.localeCompare(b.name)
    ),
  };
  await Deno.writeTextFile(values.out, JSON.stringify(doc, null, 1) + "\n");
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  console.error(
    `clang oracle (${version}): ${tus.length} TUs, ${doc.files.length} files, ` +
      `${doc.defs.length} defs, ${doc.calls.length} calls, ${doc.instantiates.length} ` +
      `instantiates, ${doc.unresolved.length} unresolved, ${macroCalls} calls from macro ` +
      `bodies${dropMacro ? " (dropped)" : ""}, ${errors} clang errors, ` +
      `${(bytes / 1e9).toFixed(2)} GB of AST JSON, ${secs} s`,
  );
}

if (import.meta.main) await main();
