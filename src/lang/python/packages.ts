/**
 * The import packages a Python distribution offers other projects: with a `pyproject.toml`,
 * `setup.cfg` or `setup.py`, every top-level package (a directory with `__init__.py` whose parent
 * has none: `src/acme_geo/`, `acme_geo/`), tests, docs and examples left out.
 */
import type { FileFacts } from "../../graph/facts.ts";
import type { ProvidedPackage, RepoFiles } from "../spec.ts";
import { dirOf } from "../paths.ts";

const NOT_OFFERED = new Set(["test", "tests", "testing", "docs", "doc", "examples", "scripts"]);

export function providedPackages(repo: RepoFiles, files: readonly FileFacts[]): ProvidedPackage[] {
  const distribution = (repo.manifests?.("pyproject.toml").length ?? 0) > 0 ||
    (repo.manifests?.("setup.cfg").length ?? 0) > 0 ||
    files.some((f) => f.path === "setup.py" || f.path.endsWith("/setup.py"));
  if (!distribution) return [];
  const out = new Map<string, ProvidedPackage>();
  for (const f of files) {
    if (!f.path.endsWith("/__init__.py")) continue;
    const dir = dirOf(f.path);
    const parent = dirOf(dir);
    if (repo.has(parent ? `${parent}/__init__.py` : "__init__.py")) continue;
    const name = dir.slice(dir.lastIndexOf("/") + 1);
    if (!/^[A-Za-z_]\w*$/.test(name) || NOT_OFFERED.has(name)) continue;
    if (dir.split("/").some((d) => NOT_OFFERED.has(d))) continue;
    out.set(dir, { name, dir, sep: "." });
  }
  return [...out.values()];
}
