import type { LanguageSpec, RepoFiles } from "../spec.ts";
import { dirOf } from "../paths.ts";
import { moduleDir, providedPackages } from "./modules.ts";
import query from "./tags.scm" with { type: "text" };

/** Top-level standard-library import roots: `net/http`, `encoding/json` never name repo code. */
const STDLIB_ROOTS = new Set((
  "archive bufio builtin bytes cmp compress container context crypto database debug embed " +
  "encoding errors expvar flag fmt go hash html image index io iter log maps math mime net " +
  "os path plugin reflect regexp runtime slices sort strconv strings structs sync syscall " +
  "testing text time unicode unique unsafe weak C"
).split(" "));

/** Source files of a Go package directory (test files are a package of their own or tests). */
function packageFiles(repo: RepoFiles, dir: string): string[] {
  return repo.inDir(dir).filter((f) => f.endsWith(".go") && !f.endsWith("_test.go"));
}

/** `example.com/x/store` -> `store`, `gopkg.in/yaml.v3` -> `yaml`, `github.com/a/b/v2` -> `b`. */
function packageName(importPath: string): string | undefined {
  const segs = importPath.split("/").filter(Boolean);
  let last = segs.pop();
  if (last && /^v\d+$/.test(last) && segs.length > 0) last = segs.pop();
  if (!last) return undefined;
  last = last.replace(/\.v\d+$/, "").replace(/^go-/, "").replace(/[-.]go$/, "");
  return last.replace(/[^A-Za-z0-9_]/g, "_");
}

/** Fewest leading segments a module path of this import can have. */
function minModuleSegments(segs: string[]): number {
  if (/^(github\.com|gitlab\.com|bitbucket\.org|golang\.org)$/.test(segs[0])) return 3;
  return segs[0].includes(".") ? 2 : 1;
}

export const go: LanguageSpec = {
  name: "go",
  grammar: "go",
  extensions: [".go"],
  query,
  selfNames: [],
  implicitThis: false,
  importsReexported: false,
  uniqueBareNames: false,
  packageScope: "directory",
  typeNames: /^[A-Z][\w$]*$/,
  testFiles: /_test\.go$/,
  docStyle: "comments",
  returnFields: ["result"],
  // The package's directory (`internal/store/store.go` -> `internal.store`); at the root, the
  // declared package (`main`).
  moduleName(path, pkg) {
    const dir = dirOf(path);
    return dir ? dir.split("/").join(".") : (pkg ?? "");
  },
  resolveImport(imp, _fromPath, repo) {
    const path = imp.source.replace(/\/+$/, "");
    const segs = path.split("/").filter(Boolean);
    if (segs.length === 0) return [];
    // The standard library: a first segment without a dot that names a std package tree (unless
    // the repository is that tree: `net/http/internal` inside Go's own sources).
    if (!segs[0].includes(".") && STDLIB_ROOTS.has(segs[0])) {
      return segs.length > 1 ? packageFiles(repo, segs.join("/")) : [];
    }
    const vendored = packageFiles(repo, `vendor/${segs.join("/")}`);
    if (vendored.length) return vendored;
    // A module of the repository (its go.mod, a go.work member, a local `replace`): exact.
    const local = moduleDir(segs.join("/"), repo);
    if (local !== undefined) {
      const files = packageFiles(repo, local);
      if (files.length) return files;
    }
    // The module path is a prefix we cannot see: drop leading segments until a repository
    // directory holds the rest (`example.com/shop/internal/store` -> `internal/store`). A module
    // path has at least host/owner/repo on the big hosts, host/name elsewhere: so
    // `github.com/pkg/errors` never lands in the repository's own `pkg/errors`.
    for (let k = minModuleSegments(segs); k < segs.length; k++) {
      const files = packageFiles(repo, segs.slice(k).join("/"));
      if (files.length) return files;
    }
    // The module's root package (`import "example.com/shop"`): root files declaring that package.
    if (segs.length > Math.max(minModuleSegments(segs), 1) + 1) return [];
    const name = packageName(path);
    if (!name) return [];
    const declaring = new Set(repo.inPackage("go", name));
    return packageFiles(repo, "").filter((f) => declaring.has(f));
  },
  moduleBinding: (source) => packageName(source),
  manifests: ["go.mod"],
  provides: providedPackages,
  commonMethods: (
    "String Error Close Read Write Len Less Swap Get Set Add Delete Lock Unlock RLock RUnlock " +
    "Wait Done Do Run Start Stop Reset Next Scan Err Value Load Store Bytes Format Printf " +
    "Println Sprintf Errorf Fatalf Logf Helper Cleanup Parallel Context WithContext Name Type " +
    "Kind Open Flush Seek Sum Marshal Unmarshal Encode Decode ServeHTTP Header WriteHeader " +
    "Query Exec Ping Begin Commit Rollback IsZero Equal Before After Sub Unix Seconds " +
    "Milliseconds Int Float Bool Interface Elem Field Index Has Clone Copy WriteString " +
    "WriteByte WriteRune ReadString ReadByte ReadRune ReadFrom WriteTo Dial Accept Addr " +
    "Deadline Contains Truncate Grow Cap Fatal Log Skip Skipf Fail FailNow"
  ).split(" "),
};
