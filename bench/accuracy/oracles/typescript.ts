/**
 * Call-graph oracle for TypeScript and JavaScript (bench/accuracy/FORMAT.md): builds one
 * ts.Program over the tree's files and asks the type checker what every call, `new`, decorator
 * application and tagged template resolves to.
 *
 *   deno run -A bench/accuracy/oracles/typescript.ts --root DIR --out FILE
 *     --language typescript|javascript [--include relDir ...] [--exclude relDir ...]
 */
// Pinned here rather than in deno.json: only this benchmark script uses the compiler API.
// deno-lint-ignore no-import-prefix
import ts from "npm:typescript@5.9.3";
import { parseArgs } from "node:util";
import { join, resolve } from "node:path";

const { values } = parseArgs({
  args: Deno.args,
  options: {
    root: { type: "string" },
    out: { type: "string" },
    language: { type: "string" },
    include: { type: "string", multiple: true },
    exclude: { type: "string", multiple: true },
  },
});

if (!values.root || !values.out || !["typescript", "javascript"].includes(values.language ?? "")) {
  console.error(
    "usage: typescript.ts --root DIR --out FILE --language typescript|javascript " +
      "[--include relDir ...] [--exclude relDir ...]",
  );
  Deno.exit(2);
}

const language = values.language as "typescript" | "javascript";
const root = resolve(values.root).replaceAll("\\", "/");
const SKIP_DIRS = new Set(["node_modules", "dist", "build", "coverage", ".git", ".hg", ".svn"]);
const norm = (p: string) => p.replaceAll("\\", "/").replace(/^\.\//, "").replace(/\/+$/, "");
const includes = (values.include ?? []).map(norm).filter((p) => p !== "" && p !== ".");
const excludes = (values.exclude ?? []).map(norm).filter((p) => p !== "");
const under = (rel: string, dir: string) => rel === dir || rel.startsWith(dir + "/");

const EXTS = language === "typescript" ? /\.(ts|tsx|mts|cts)$/ : /\.(js|jsx|mjs|cjs)$/;
const DECL = /\.d\.[cm]?ts$/;

/** Source files of the language (relative paths) and, for TypeScript, declaration files. */
function collect(): { sources: string[]; declarations: string[] } {
  const sources: string[] = [];
  const declarations: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(join(root, dir))) {
      const rel = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory) {
        if (SKIP_DIRS.has(entry.name) || excludes.some((e) => under(rel, e))) continue;
        walk(rel);
      } else if (entry.isFile) {
        if (excludes.some((e) => under(rel, e))) continue;
        if (includes.length > 0 && !includes.some((i) => under(rel, i))) continue;
        if (DECL.test(rel)) {
          if (language === "typescript") declarations.push(rel);
        } else if (EXTS.test(rel)) sources.push(rel);
      }
    }
  };
  walk("");
  sources.sort();
  declarations.sort();
  return { sources, declarations };
}

/** The root tsconfig.json's compilerOptions (when present), overridden for analysis. */
function compilerOptions(): ts.CompilerOptions {
  let options: ts.CompilerOptions = {};
  const configPath = join(root, "tsconfig.json");
  try {
    Deno.statSync(configPath);
    const read = ts.readConfigFile(configPath, ts.sys.readFile);
    if (read.config) {
      options = ts.parseJsonConfigFileContent(read.config, ts.sys, root, undefined, configPath)
        .options;
    }
  } catch {
    // no tsconfig.json
  }
  if (options.module === undefined && options.moduleResolution === undefined) {
    options.module = ts.ModuleKind.ESNext;
    options.moduleResolution = ts.ModuleResolutionKind.Bundler;
  }
  if (options.target === undefined) options.target = ts.ScriptTarget.ESNext;
  if (language === "javascript") {
    options.allowJs = true;
    options.checkJs = false;
  }
  return {
    ...options,
    noEmit: true,
    skipLibCheck: true,
    noLib: false,
    lib: ["lib.esnext.d.ts", "lib.dom.d.ts", "lib.dom.iterable.d.ts"],
    composite: false,
    incremental: false,
    declaration: false,
    emitDeclarationOnly: false,
    tsBuildInfoFile: undefined,
  };
}

interface Def {
  path: string;
  line: number;
  name: string;
  kind: "function" | "method" | "constructor";
}

const started = performance.now();
const { sources, declarations } = collect();
const program = ts.createProgram({
  rootNames: [...sources, ...declarations].map((f) => `${root}/${f}`),
  options: compilerOptions(),
});
const checker = program.getTypeChecker();

/** Analysed source file -> its relative path. */
const analysed = new Map<ts.SourceFile, string>();
for (const rel of sources) {
  const sf = program.getSourceFile(`${root}/${rel}`);
  if (sf) analysed.set(sf, rel);
  else console.error(`warning: ${rel} is not in the program`);
}

const lineOf = (node: ts.Node, sf = node.getSourceFile()) =>
  sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;

/** Strips parentheses, type assertions, `satisfies` and `!` around an expression. */
function unwrap(e: ts.Expression): ts.Expression {
  for (;;) {
    if (
      ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e) ||
      ts.isNonNullExpression(e) || ts.isTypeAssertionExpression(e)
    ) e = e.expression;
    else return e;
  }
}

function propertyNameText(name: ts.PropertyName | ts.BindingName): string | undefined {
  if (
    ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteralLike(name) ||
    ts.isNumericLiteral(name)
  ) return name.text;
  if (ts.isComputedPropertyName(name)) {
    const e = unwrap(name.expression);
    if (ts.isStringLiteralLike(e) || ts.isNumericLiteral(e)) return e.text;
    return `[${e.getText()}]`;
  }
  return undefined;
}

/** The name token a function expression / arrow is bound to (declaration, property, assignment). */
function bindingOf(
  fn: ts.Expression,
): { name: string; token: ts.Node; method: boolean } | undefined {
  let node: ts.Node = fn;
  while (
    node.parent && (ts.isParenthesizedExpression(node.parent) || ts.isAsExpression(node.parent) ||
      ts.isSatisfiesExpression(node.parent) || ts.isNonNullExpression(node.parent) ||
      ts.isTypeAssertionExpression(node.parent))
  ) node = node.parent;
  const p = node.parent;
  if (!p) return undefined;
  if (ts.isVariableDeclaration(p) && p.initializer === node && ts.isIdentifier(p.name)) {
    return { name: p.name.text, token: p.name, method: false };
  }
  if ((ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.initializer === node) {
    const name = propertyNameText(p.name);
    return name === undefined ? undefined : { name, token: p.name, method: true };
  }
  if (
    ts.isBinaryExpression(p) && p.right === node &&
    p.operatorToken.kind === ts.SyntaxKind.EqualsToken
  ) {
    const left = p.left;
    if (ts.isIdentifier(left)) return { name: left.text, token: left, method: false };
    if (ts.isPropertyAccessExpression(left)) {
      const obj = left.expression;
      const method = obj.kind === ts.SyntaxKind.ThisKeyword ||
        (ts.isPropertyAccessExpression(obj) && obj.name.text === "prototype");
      return { name: left.name.text, token: left.name, method };
    }
    if (ts.isElementAccessExpression(left) && ts.isStringLiteralLike(left.argumentExpression)) {
      return { name: left.argumentExpression.text, token: left.argumentExpression, method: false };
    }
  }
  return undefined;
}

function constructorToken(node: ts.ConstructorDeclaration, sf: ts.SourceFile): ts.Node {
  for (const child of node.getChildren(sf)) {
    if (child.kind === ts.SyntaxKind.ConstructorKeyword || ts.isStringLiteral(child)) return child;
  }
  return node;
}

type Overloadable = ts.FunctionDeclaration | ts.MethodDeclaration | ts.ConstructorDeclaration;

/** Overload signatures (no body) -> the implementation, or the first signature if none. */
function implementationOf(node: Overloadable | ts.MethodSignature): ts.Node {
  if ("body" in node && node.body) return node;
  const key = (n: ts.Node): string | undefined => {
    if (ts.isConstructorDeclaration(n)) return "constructor";
    if (
      (ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isMethodSignature(n)) &&
      n.name
    ) {
      const isStatic = ts.canHaveModifiers(n) &&
        (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.StaticKeyword);
      return `${n.kind}:${isStatic}:${propertyNameText(n.name)}`;
    }
    return undefined;
  };
  const k = key(node);
  const p = node.parent;
  const siblings: readonly ts.Node[] = ts.isClassLike(p) || ts.isInterfaceDeclaration(p) ||
      ts.isTypeLiteralNode(p)
    ? p.members
    : ts.isObjectLiteralExpression(p)
    ? p.properties
    : ts.isSourceFile(p) || ts.isModuleBlock(p) || ts.isBlock(p)
    ? p.statements
    : [];
  const same = siblings.filter((s) => s.kind === node.kind && key(s) === k);
  return same.find((s) => "body" in s && s.body) ?? same[0] ?? node;
}

/** Function-like node -> its def. */
const defByNode = new Map<ts.Node, Def>();
/** Class / enum node -> its `path:line` (name line), for field initializers and `instantiates`. */
const classKey = new Map<ts.Node, string>();
const defs: Def[] = [];

function addDef(node: ts.Node, token: ts.Node, name: string, kind: Def["kind"], path: string) {
  const def = { path, line: lineOf(token), name, kind };
  defByNode.set(node, def);
  defs.push(def);
}

function classNameToken(node: ts.ClassLikeDeclaration): ts.Node | undefined {
  if (node.name) return node.name;
  const b = ts.isClassExpression(node) ? bindingOf(node) : undefined;
  return b?.token;
}

function collectDefs(sf: ts.SourceFile, path: string) {
  const visit = (node: ts.Node) => {
    if (ts.isFunctionDeclaration(node)) {
      if (node.name && implementationOf(node) === node) {
        addDef(node, node.name, node.name.text, "function", path);
      }
    } else if (ts.isMethodDeclaration(node) || ts.isMethodSignature(node)) {
      const name = propertyNameText(node.name);
      if (name !== undefined && implementationOf(node) === node) {
        addDef(node, node.name, name, "method", path);
      }
    } else if (ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)) {
      const name = propertyNameText(node.name);
      if (name !== undefined && node.body) addDef(node, node.name, name, "method", path);
    } else if (ts.isConstructorDeclaration(node)) {
      if (implementationOf(node) === node) {
        addDef(node, constructorToken(node, sf), "constructor", "constructor", path);
      }
    } else if (ts.isFunctionExpression(node) || ts.isArrowFunction(node)) {
      const b = bindingOf(node);
      const own = ts.isFunctionExpression(node) ? node.name : undefined;
      if (own && (!b || b.name === "exports")) addDef(node, own, own.text, "function", path);
      else if (b) addDef(node, b.token, b.name, b.method ? "method" : "function", path);
    } else if (ts.isClassLike(node)) {
      const token = classNameToken(node);
      if (token) classKey.set(node, `${path}:${lineOf(token)}`);
    } else if (ts.isEnumDeclaration(node)) {
      classKey.set(node, `${path}:${lineOf(node.name)}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

for (const [sf, path] of analysed) {
  const syntax = program.getSyntacticDiagnostics(sf);
  if (syntax.length > 0) console.error(`warning: ${path}: ${syntax.length} syntax error(s)`);
  collectDefs(sf, path);
}

/** The `caller` of a call site: innermost def, class for initializers, `path:0` at top level. */
function callerOf(site: ts.Node, path: string): string {
  let child: ts.Node = site;
  let cur: ts.Node | undefined = site; // a decorator site is handled by the loop
  while (cur) {
    if (ts.isDecorator(cur)) {
      // Decorators run when the class is defined: members' and parameters' decorators belong to
      // the class, the class's own decorators to the scope around the class.
      let target: ts.Node = cur.parent;
      if (ts.isParameter(target)) target = target.parent;
      if (ts.isClassLike(target)) {
        child = target;
        cur = target.parent;
        continue;
      }
      const cls = target.parent;
      const key = cls && classKey.get(cls);
      if (key) return key;
      child = cls;
      cur = cls?.parent;
      continue;
    }
    const def = defByNode.get(cur);
    const isName = "name" in cur && (cur as { name?: ts.Node }).name === child;
    if (def && !isName) return `${def.path}:${def.line}`;
    if (ts.isClassLike(cur)) {
      const key = classKey.get(cur);
      const inMember = cur.members.some((m) => m === child);
      if (key && inMember) return key;
    }
    if (ts.isEnumDeclaration(cur) && child !== cur.name) {
      const key = classKey.get(cur);
      if (key) return key;
    }
    if (ts.isSourceFile(cur)) return `${path}:0`;
    child = cur;
    cur = cur.parent;
  }
  return `${path}:0`;
}

const OUTSIDE = Symbol("outside");
const NOT_A_DEF = Symbol("not a def");
type Target = Def | typeof OUTSIDE | typeof NOT_A_DEF;

/** A declaration the checker returned -> the def in the analysed files it denotes. */
function defOfDeclaration(decl: ts.Node): Target {
  if (!analysed.has(decl.getSourceFile())) return OUTSIDE;
  let node: ts.Node = decl;
  if (
    ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) || ts.isMethodSignature(node)
  ) node = implementationOf(node);
  else if (
    (ts.isVariableDeclaration(node) || ts.isPropertyAssignment(node) ||
      ts.isPropertyDeclaration(node)) && node.initializer
  ) node = unwrap(node.initializer);
  else if (ts.isBinaryExpression(node)) node = unwrap(node.right);
  else if (
    (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) &&
    ts.isBinaryExpression(node.parent) && node.parent.left === node
  ) node = unwrap(node.parent.right);
  return defByNode.get(node) ?? NOT_A_DEF;
}

function symbolAt(node: ts.Node): ts.Symbol | undefined {
  let sym = checker.getSymbolAtLocation(node);
  if (sym && sym.flags & ts.SymbolFlags.Alias) {
    try {
      sym = checker.getAliasedSymbol(sym);
    } catch {
      return undefined;
    }
  }
  if (sym && checker.isUnknownSymbol(sym)) return undefined;
  return sym;
}

/** The token naming the callee: `c` in `a.b.c()`, `X` in `new X()`. */
function nameToken(callee: ts.Node): ts.Node | undefined {
  const e = ts.isExpression(callee) ? unwrap(callee) : callee;
  if (ts.isIdentifier(e) || ts.isPrivateIdentifier(e)) return e;
  if (ts.isPropertyAccessExpression(e)) return e.name;
  if (ts.isElementAccessExpression(e)) return e.argumentExpression;
  if (e.kind === ts.SyntaxKind.SuperKeyword || e.kind === ts.SyntaxKind.ThisKeyword) return e;
  if (ts.isExpressionWithTypeArguments(e)) return nameToken(e.expression);
  return undefined;
}

function nameText(token: ts.Node | undefined): string | undefined {
  if (!token) return undefined;
  if (ts.isIdentifier(token) || ts.isPrivateIdentifier(token)) return token.text;
  if (ts.isStringLiteralLike(token) || ts.isNumericLiteral(token)) return token.text;
  if (token.kind === ts.SyntaxKind.SuperKeyword) return "super";
  if (token.kind === ts.SyntaxKind.ThisKeyword) return "this";
  return undefined;
}

function isAnyType(node: ts.Node): boolean {
  try {
    return (checker.getTypeAtLocation(node).flags & ts.TypeFlags.Any) !== 0;
  } catch {
    return true;
  }
}

/** The class declared by the symbol a `new` / `extends` expression names. */
function classDeclarationOf(expr: ts.Node): ts.ClassLikeDeclaration | typeof OUTSIDE | undefined {
  const sym = symbolAt(expr);
  if (!sym) return undefined;
  const decls = sym.declarations ?? [];
  for (const d of decls) {
    let node: ts.Node = d;
    if (ts.isVariableDeclaration(d) && d.initializer) node = unwrap(d.initializer);
    if (ts.isClassLike(node)) return analysed.has(node.getSourceFile()) ? node : OUTSIDE;
  }
  return decls.length > 0 ? OUTSIDE : undefined;
}

const calls: { caller: string; callee: string; site: number }[] = [];
const instantiates: { caller: string; class: string; site: number }[] = [];
const unresolved: { caller: string; name: string; site: number }[] = [];
const seen = new Set<string>();

function emit(kind: "call" | "inst" | "unres", caller: string, target: string, site: number) {
  const k = `${kind}\0${caller}\0${target}\0${site}`;
  if (seen.has(k)) return;
  seen.add(k);
  if (kind === "call") calls.push({ caller, callee: target, site });
  else if (kind === "inst") instantiates.push({ caller, class: target, site });
  else unresolved.push({ caller, name: target, site });
}

const keyOf = (d: Def) => `${d.path}:${d.line}`;

function resolvedDeclaration(node: ts.CallLikeExpression): ts.Declaration | undefined {
  try {
    return checker.getResolvedSignature(node)?.declaration as ts.Declaration | undefined;
  } catch {
    return undefined;
  }
}

/** `new X()` and `super()`: the constructor that runs, else `instantiates` the class. */
function handleConstruct(
  node: ts.NewExpression | ts.CallExpression,
  classExpr: ts.Node | undefined,
  caller: string,
  site: number,
  name: string | undefined,
) {
  const decl = resolvedDeclaration(node);
  const target = decl ? defOfDeclaration(decl) : undefined;
  if (target !== undefined && target !== OUTSIDE && target !== NOT_A_DEF) {
    emit("call", caller, keyOf(target), site);
    return;
  }
  const cls = classExpr ? classDeclarationOf(classExpr) : undefined;
  if (cls !== undefined && cls !== OUTSIDE) {
    const key = classKey.get(cls);
    if (key) emit("inst", caller, key, site);
    return;
  }
  if (cls === OUTSIDE || target !== undefined) return;
  if (classExpr && !isAnyType(classExpr) && symbolAt(classExpr)) return;
  if (name !== undefined) emit("unres", caller, name, site);
}

/** Calls, decorator applications and tagged templates. */
function handleCall(
  node: ts.CallExpression | ts.Decorator | ts.TaggedTemplateExpression,
  callee: ts.Expression,
  caller: string,
  site: number,
  name: string | undefined,
) {
  const decl = resolvedDeclaration(node);
  const first = decl ? defOfDeclaration(decl) : undefined;
  if (first !== undefined && first !== OUTSIDE && first !== NOT_A_DEF) {
    emit("call", caller, keyOf(first), site);
    return;
  }
  const token = nameToken(callee);
  const sym = token ? symbolAt(token) : undefined;
  let outside = first === OUTSIDE;
  if (sym) {
    const decls = sym.valueDeclaration
      ? [
        sym.valueDeclaration,
        ...(sym.declarations ?? []).filter((d) => d !== sym.valueDeclaration),
      ]
      : sym.declarations ?? [];
    for (const d of decls) {
      // A getter runs on the property access; the call runs the function it returns.
      if (ts.isGetAccessorDeclaration(d) || ts.isSetAccessorDeclaration(d)) continue;
      const t = defOfDeclaration(d);
      if (t === OUTSIDE) outside = true;
      else if (t !== NOT_A_DEF) {
        emit("call", caller, keyOf(t), site);
        return;
      }
    }
  }
  if (decl || outside) return; // resolved, but to a library or to no def (a function type)
  if (name === undefined) return;
  if (sym && !isAnyType(callee)) return; // a variable/parameter of a known, non-def type
  emit("unres", caller, name, site);
}

/** Whether an identifier names something declared in the analysed files. */
function isLocal(id: ts.Identifier): boolean {
  const decl = symbolAt(id)?.declarations?.[0];
  return decl !== undefined && analysed.has(decl.getSourceFile());
}

function collectCalls(sf: ts.SourceFile, path: string) {
  const isJs = /\.[cm]?jsx?$/.test(path);
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const token = nameToken(callee);
      const name = nameText(token);
      const site = lineOf(token ?? node.expression, sf);
      if (callee.kind === ts.SyntaxKind.ImportKeyword) {
        // dynamic import(): not a call of a def
      } else if (callee.kind === ts.SyntaxKind.SuperKeyword) {
        const cls = ts.findAncestor(node, ts.isClassLike);
        const base = cls?.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)
          ?.types[0]?.expression;
        handleConstruct(node, base, callerOf(node, path), site, "super");
      } else if (isJs && ts.isIdentifier(callee) && callee.text === "require" && !isLocal(callee)) {
        // CommonJS require(): a module load
      } else {
        handleCall(node, callee, callerOf(node, path), site, name);
      }
    } else if (ts.isNewExpression(node)) {
      const token = nameToken(node.expression);
      const site = lineOf(token ?? node.expression, sf);
      handleConstruct(node, node.expression, callerOf(node, path), site, nameText(token));
    } else if (ts.isDecorator(node) && !ts.isCallExpression(unwrap(node.expression))) {
      // `@dec` applies dec; `@dec()` is the call expression, handled above.
      const token = nameToken(node.expression);
      const site = lineOf(token ?? node.expression, sf);
      handleCall(node, node.expression, callerOf(node, path), site, nameText(token));
    } else if (ts.isTaggedTemplateExpression(node)) {
      const token = nameToken(node.tag);
      const site = lineOf(token ?? node.tag, sf);
      handleCall(node, node.tag, callerOf(node, path), site, nameText(token));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

for (const [sf, path] of analysed) collectCalls(sf, path);

const byPath = (a: Def, b: Def) =>
  a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line || a.name.localeCompare(b.name);
defs.sort(byPath);

const out = {
  oracle: `typescript-checker ${ts.version}`,
  language,
  root,
  files: [...analysed.values()],
  defs,
  calls,
  instantiates,
  unresolved,
};
await Deno.writeTextFile(values.out, JSON.stringify(out, null, 1) + "\n");
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.error(
  `${language} ${root}: ${out.files.length} files, ${defs.length} defs, ${calls.length} calls, ` +
    `${instantiates.length} instantiates, ${unresolved.length} unresolved (${seconds}s)`,
);
