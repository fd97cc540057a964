/**
 * The packages a project offers other projects (LanguageSpec.provides: package.json names, go.mod
 * packages, Cargo libraries, Python top-level packages, JVM and C# packages), kept in its graph as
 * `(:Package {name, dir, sep, languages})` nodes: with each File's `uses` (the module paths it
 * imports), they are what joins two projects' graphs at query time (src/query/across.ts).
 *
 * Computed from every file's facts and the project files on each run that changes code or project
 * files, and rewritten only when they differ: the nodes are a function of the tree, so an
 * incremental run leaves what a full one would.
 */
import type { Db } from "../db/client.ts";
import * as Q from "../db/cypher.ts";
import type { FileFacts } from "../graph/facts.ts";
import { LANGUAGES } from "../lang/registry.ts";
import type { RepoFiles } from "../lang/spec.ts";

export interface PackageRow {
  name: string;
  dir: string;
  sep: string;
  /** Languages whose imports may name it, space-separated, sorted. */
  languages: string;
}

/** `repo`: the files of the tree as the resolver's structure holds them (built once per run). */
export function providedPackages(facts: readonly FileFacts[], repo: RepoFiles): PackageRow[] {
  const specs = LANGUAGES.filter((l) => l.provides);
  if (!specs.length) return [];
  const byLanguage = new Map<string, FileFacts[]>();
  for (const f of facts) {
    const list = byLanguage.get(f.language);
    if (list) list.push(f);
    else byLanguage.set(f.language, [f]);
  }
  const rows = new Map<string, PackageRow>();
  for (const spec of specs) {
    const files = byLanguage.get(spec.name);
    if (!files?.length) continue;
    const family = LANGUAGES.filter((l) => (l.family ?? l.name) === (spec.family ?? spec.name))
      .map((l) => l.name);
    for (const p of spec.provides!(repo, files)) {
      const languages = [...new Set(p.languages ?? family)].sort().join(" ");
      const key = `${p.name}\0${p.dir}\0${p.sep}\0${languages}`;
      rows.set(key, { name: p.name, dir: p.dir, sep: p.sep, languages });
    }
  }
  return [...rows.values()].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0
  );
}

/** Brings the graph's Package nodes to `rows` (nothing is written when they already match). */
export async function writePackages(
  db: Db,
  graph: string,
  rows: PackageRow[],
  fresh: boolean,
): Promise<void> {
  if (!fresh) {
    const stored = (await db.query(graph, Q.CURRENT_PACKAGES, {}, { readOnly: true }))
      .map((r): PackageRow => ({
        name: String(r.name),
        dir: String(r.dir),
        sep: String(r.sep),
        languages: String(r.languages),
      }));
    const key = (r: PackageRow) => `${r.name}\0${r.dir}\0${r.sep}\0${r.languages}`;
    const want = new Set(rows.map(key));
    if (stored.length === want.size && stored.every((r) => want.has(key(r)))) return;
    await db.query(graph, Q.DELETE_PACKAGES);
  }
  for (let i = 0; i < rows.length; i += 2000) {
    await db.query(graph, Q.CREATE_PACKAGES, { rows: rows.slice(i, i + 2000) });
  }
}
