/**
 * A name as an agent writes it -> the definitions it means. Accepted: a plain name (`login`), a
 * qualified name (`shop.auth.UserService.login`) or any dotted tail of one (`UserService.login`,
 * also written `UserService::login` or `UserService#login`), optionally narrowed by `file` (a path
 * or the tail of one) and `kind`. Nothing found -> a NotFoundError carrying up to 3 close matches
 * (edit distance, prefix, shared words), for "did you mean".
 */
import * as Q from "../db/queries.ts";
import { CgraphError, echo } from "../errors.ts";
import type { SymbolKind } from "../graph/facts.ts";
import { wordsOf } from "../graph/model.ts";
import { byLocation, type GraphReader, isFile, type NodeRef, SYMBOL_KINDS } from "./graph.ts";

export interface SymbolQuery {
  /** The symbol (or, with allowFiles, a file path). May be empty when `file` is given. */
  name?: string;
  file?: string;
  kind?: string;
  /** Whether a file may be the answer (dependencies, paths, context of a file). */
  allowFiles?: boolean;
}

export interface Resolved {
  /** What was asked, as given. */
  query: string;
  /** The definitions (at most the cap), in path/line order. */
  matches: NodeRef[];
  /** How many matched before the cap. */
  total: number;
  /** The lookup itself was capped: `total` is a lower bound. */
  total_capped?: boolean;
}

/** Not found; `suggestions` are qualified names (or paths) the caller may have meant. */
export class NotFoundError extends CgraphError {
  constructor(message: string, readonly suggestions: string[], hint?: string) {
    super(
      message,
      hint ??
        (suggestions.length
          ? `did you mean: ${suggestions.join(", ")}`
          : "No close match; try search_code with a word of the name."),
    );
    this.name = "NotFoundError";
  }
}

/** At most this many definitions answer one name (a name like `__init__` has hundreds). */
export const DEFINITION_CAP = 20;
const FETCH_CAP = 5000;

export function normalizeKind(kind: string | undefined): SymbolKind | undefined {
  if (kind === undefined || kind.trim() === "") return undefined;
  const k = SYMBOL_KINDS.find((x) => x.toLowerCase() === kind.trim().toLowerCase());
  if (!k) {
    throw new CgraphError(
      `Unknown kind '${echo(kind)}'.`,
      `Use one of: ${SYMBOL_KINDS.join(", ")}.`,
    );
  }
  return k;
}

/** `./src\\a.ts` -> `src/a.ts`; an absolute path inside `root` becomes relative to it. */
export function normalizeFile(file: string | undefined, root?: string): string | undefined {
  if (file === undefined) return undefined;
  let f = file.trim().replaceAll("\\", "/");
  if (!f) return undefined;
  const r = root?.replaceAll("\\", "/").replace(/\/+$/, "");
  if (r && f.startsWith(r + "/")) f = f.slice(r.length + 1);
  while (f.startsWith("./")) f = f.slice(2);
  return f;
}

function pathMatches(path: string, file: string): boolean {
  return path === file || path.endsWith("/" + file);
}

/** `A::b`, `A#b`, `A->b`, `b()` -> `A.b`, `b`. */
export function normalizeName(name: string): string {
  return name.trim().replace(/\(\s*\)$/, "").replace(/::|#|->/g, ".").replace(/^\.+|\.+$/g, "");
}

function lastSegment(name: string): string {
  const i = name.lastIndexOf(".");
  return i < 0 ? name : name.slice(i + 1);
}

export async function resolveSymbol(
  g: GraphReader,
  q: SymbolQuery,
  root?: string,
): Promise<Resolved> {
  const raw = (q.name ?? "").trim();
  const file = normalizeFile(q.file, root);
  const kind = normalizeKind(q.kind);
  if (!raw) {
    if (!file) throw new CgraphError("Give a symbol name (or a file).");
    if (!q.allowFiles) throw new CgraphError("Give a symbol name; `file` only narrows it.");
    const files = await findFiles(g, file);
    if (!files.length) throw await fileNotFound(g, file);
    return { query: file, matches: files.slice(0, DEFINITION_CAP), total: files.length };
  }
  const name = normalizeName(raw);
  let found = await candidates(g, name);
  if (!found.length && q.allowFiles) {
    const files = await findFiles(g, normalizeFile(raw, root) ?? raw);
    if (files.length) {
      return { query: raw, matches: files.slice(0, DEFINITION_CAP), total: files.length };
    }
  }
  if (!found.length) {
    throw new NotFoundError(`No symbol '${echo(raw)}' in the graph.`, await suggest(g, name));
  }
  const all = found;
  if (kind) found = found.filter((n) => n.kind === kind);
  if (file) found = found.filter((n) => pathMatches(n.path, file));
  if (!found.length) {
    const where = [kind ? `of kind ${kind}` : "", file ? `in a file matching '${echo(file)}'` : ""]
      .filter(Boolean).join(" ");
    const listed = all.slice(0, 5).map((n) =>
      `${n.qualified_name} (${n.kind}, ${n.path}:${n.line})`
    );
    throw new NotFoundError(
      `'${echo(raw)}' exists, but not ${where}.`,
      [],
      `It is defined as: ${listed.join("; ")}${all.length > 5 ? `; +${all.length - 5} more` : ""}.`,
    );
  }
  found.sort(byLocation);
  const out: Resolved = {
    query: raw,
    matches: found.slice(0, DEFINITION_CAP),
    total: found.length,
  };
  if (all.length >= FETCH_CAP) out.total_capped = true;
  return out;
}

/** Exact qualified name first; else exact name; else qualified names ending in `.name`. */
async function candidates(g: GraphReader, name: string): Promise<NodeRef[]> {
  const exactQn = await g.nodes(Q.SYMBOLS_BY_QUALIFIED, { qn: name, cap: FETCH_CAP });
  if (exactQn.length) return exactQn;
  const last = lastSegment(name);
  const byName = await g.nodes(Q.SYMBOLS_BY_NAME, { name: last, cap: FETCH_CAP });
  if (last === name) return byName;
  const tail = "." + name;
  return byName.filter((n) => n.qualified_name === name || n.qualified_name.endsWith(tail));
}

async function findFiles(g: GraphReader, file: string): Promise<NodeRef[]> {
  const exact = await g.nodes(Q.FILE_BY_PATH, { path: file });
  if (exact.length) return exact;
  const bySuffix = await g.nodes(Q.FILES_BY_SUFFIX, { suffix: "/" + file, cap: FETCH_CAP });
  return bySuffix.sort(byLocation);
}

async function fileNotFound(g: GraphReader, file: string): Promise<NotFoundError> {
  const base = file.slice(file.lastIndexOf("/") + 1);
  let pool = await g.nodes(Q.FILES_BY_SUFFIX, { suffix: base, cap: 500 });
  const ext = base.includes(".") ? base.slice(base.lastIndexOf(".")) : "";
  if (!pool.length && ext) pool = await g.nodes(Q.FILES_BY_SUFFIX, { suffix: ext, cap: 5000 });
  const near = pool
    .map((n) => ({ n, d: levenshtein(file, n.path.slice(-file.length - 3)) }))
    .filter((x) => x.d <= Math.max(3, Math.floor(file.length / 3)))
    .sort((a, b) => a.d - b.d || a.n.path.length - b.n.path.length)
    .slice(0, 3)
    .map((x) => x.n);
  return new NotFoundError(
    `No file '${echo(file)}' in the graph.`,
    near.map((n) => n.path),
    near.length ? undefined : "Give a path relative to the project root, or the tail of one.",
  );
}

/** Up to 3 names close to `name`: same prefix, shared words, or a small edit distance. */
export async function suggest(g: GraphReader, name: string, max = 3): Promise<string[]> {
  const last = lastSegment(name);
  const pool = new Map<string, NodeRef>();
  const add = (ns: NodeRef[]) => ns.forEach((n) => pool.set(n.id, n));
  if (last.length >= 2) {
    const head = last.slice(0, 3);
    const flipped = head[0] === head[0].toLowerCase()
      ? head[0].toUpperCase() + head.slice(1)
      : head[0].toLowerCase() + head.slice(1);
    add(await g.nodes(Q.SYMBOLS_NAME_PREFIX, { prefix: head, cap: 200 }));
    if (flipped !== head) add(await g.nodes(Q.SYMBOLS_NAME_PREFIX, { prefix: flipped, cap: 200 }));
  }
  const words = queryWords(name);
  if (words.length) {
    const terms = words.flatMap((w) => w.length >= 4 ? [`${w}*`, `%${w}%`] : [`${w}*`]);
    const rows = await g.rows(Q.FULLTEXT_SYMBOLS, {
      q: terms.join("|"),
      kind: null,
      language: null,
      cap: 200,
    }).catch(() => []);
    add(rows.map((r) => ({
      id: String(r.id),
      name: String(r.name),
      qualified_name: String(r.qn),
      kind: String(r.kind),
      path: String(r.path),
      line: Number(r.line),
    } as NodeRef)));
  }
  const lower = name.toLowerCase();
  const segments = lower.split(".").length;
  const asked = new Set(words);
  const scored: { qn: string; score: number }[] = [];
  for (const n of pool.values()) {
    if (isFile(n)) continue;
    const tail = n.qualified_name.toLowerCase().split(".").slice(-segments).join(".");
    const d = levenshtein(lower, tail);
    const overlap = wordsOf(n.name).split(" ").filter((w) => asked.has(w)).length;
    const prefix = n.name.toLowerCase().startsWith(last.toLowerCase().slice(0, 3));
    const close = d <= Math.max(2, Math.floor(lower.length / 3));
    if (!close && !overlap) continue;
    scored.push({ qn: n.qualified_name, score: d - 2 * overlap - (prefix ? 1 : 0) });
  }
  scored.sort((a, b) => a.score - b.score || a.qn.length - b.qn.length || (a.qn < b.qn ? -1 : 1));
  return [...new Set(scored.map((s) => s.qn))].slice(0, max);
}

/** Lower-case [a-z0-9] words of a query (split like indexed names), each at least 2 long. */
export function queryWords(text: string): string[] {
  return [...new Set(wordsOf(...text.split(/\s+/)).split(" "))]
    .filter((w) => /^[a-z0-9]{2,}$/.test(w));
}

export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(
        prev[j] + 1,
        cur[j - 1] + 1,
        prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    prev = cur;
  }
  return prev[b.length];
}
