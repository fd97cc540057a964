/**
 * Workspace-aware resolution on real monorepos: for each pinned repository, the IMPORTS and CALLS
 * edges whose two ends lie in different packages of the repository (a package: the nearest folder
 * above the file holding a build file of its language, `package.json`, `go.mod`, `Cargo.toml` with
 * `[package]`, `pom.xml`/`build.gradle(.kts)`, `pyproject.toml`/`setup.py`/`setup.cfg`,
 * `CMakeLists.txt`), out of all IMPORTS and CALLS. It runs the indexer's own pipeline in memory
 * (walk -> read -> analyze -> project files -> resolve), which is what a full index writes.
 * A benchmark, not CI: the repositories are third-party code, fetched, never committed here.
 *
 * Getting the sources (each at the commit pinned below, into `<src>/<owner>+<name>`):
 *
 *     git clone --no-checkout https://github.com/<owner>/<name> /tmp/<owner>+<name>.git
 *     mkdir -p <src>/<owner>+<name>
 *     git -C /tmp/<owner>+<name>.git archive <commit> | tar -x -C <src>/<owner>+<name>
 *
 * (from a bare mirror: `git --git-dir=<mirror> archive <commit> | tar -x -C <dir>`; a mirror
 * without its large binaries takes a pathspec leaving them out, e.g. `-- . ':(exclude)docs/images'`
 * for go-kratos/kratos.) The C/C++ rows need a `compile_commands.json` at the root: `--prepare`
 * writes it with CMake's configure step alone (`cmake -S <dir> -B <tmp>
 * -DCMAKE_EXPORT_COMPILE_COMMANDS=ON` and the options listed below; nothing is built) and copies it
 * in.
 *
 *     deno run -A --unstable-raw-imports bench/monorepos.ts [--src DIR] [--only NAME]
 *       [--cgraph CHECKOUT] [--prepare] [--sample N] [--json] [--dump DIR]
 *
 * `--cgraph` measures another checkout of cgraph (the "before": the parent of the first
 * workspace-resolution commit, `git worktree add --detach /tmp/before bc9c53a`); `--sample N`
 * prints N cross-package CALLS per repository (a fixed pseudo-random choice) to check by hand;
 * `--dump DIR` writes every cross-package edge of each repository to `DIR/<owner>+<name>.txt` (diff
 * two checkouts' dumps to see what changed).
 */
import { parseArgs } from "node:util";
import { join, resolve as absPath } from "node:path";

export interface Monorepo {
  repo: string;
  commit: string;
  ecosystem: string;
  /** CMake options for the configure step that writes compile_commands.json (C/C++ only). */
  cmake?: string[];
}

export const MONOREPOS: Monorepo[] = [
  {
    repo: "changesets/changesets",
    commit: "5322174b2722b626161ca1b9c0889ede440b30b5",
    ecosystem: "yarn workspaces, TS",
  },
  {
    repo: "vuejs/core",
    commit: "e2bede96134f757aad5c5b33ac9be055022dbfc8",
    ecosystem: "pnpm workspaces + tsconfig paths, TS",
  },
  {
    repo: "vuejs/language-tools",
    commit: "8c85e38870010ee69246ff9f88e38d9973aadd15",
    ecosystem: "pnpm workspaces + project references, TS",
  },
  {
    repo: "grpc-ecosystem/go-grpc-middleware",
    commit: "9150cbd1794d11e2adbe1700751cfcabc3c2316a",
    ecosystem: "4 go.mod, replace => ../, Go",
  },
  {
    repo: "go-kratos/kratos",
    commit: "668db92c2c001e9552594ba5a8aede8456af6d7e",
    ecosystem: "28 go.mod, /v3 module paths, replace, Go",
  },
  {
    repo: "tokio-rs/tracing",
    commit: "f40ccdaa03cf114c7ee1ef14949207626bf6be57",
    ecosystem: "Cargo workspace, path dependencies, Rust",
  },
  {
    repo: "tokio-rs/axum",
    commit: "3d78036dcac289d6c1d54934708acb6a5bd73686",
    ecosystem: "Cargo workspace, path dependencies, Rust",
  },
  {
    repo: "google/auto",
    commit: "2776e288bd3011800e46581b0b810668cc6d664b",
    ecosystem: "Maven modules, Java",
  },
  {
    repo: "square/kotlinpoet",
    commit: "be2de914ce6eb3694092ed4e0f28626cbce1ffe0",
    ecosystem: "Gradle modules, Kotlin",
  },
  {
    repo: "open-telemetry/opentelemetry-python",
    commit: "0a5d76b65094a4bad414e0c0ab68981fc266f0a9",
    ecosystem: "src-layout distributions, namespace packages, Python",
  },
  {
    repo: "pypa/hatch",
    commit: "ed8e30bebf98f2fe4d70c18a32a50a8160c391cb",
    ecosystem: "src-layout, two distributions, Python",
  },
  {
    repo: "libgit2/libgit2",
    commit: "0551dfd4ad989b6a3d5683c0d4cf326c6efef929",
    ecosystem: "CMake components, compile_commands.json, C",
    cmake: [
      "-DBUILD_TESTS=ON",
      "-DBUILD_CLI=ON",
      "-DUSE_HTTPS=OFF",
      "-DUSE_SHA256=builtin",
      "-DUSE_SSH=OFF",
      "-DUSE_AUTH_NTLM=OFF",
      "-DUSE_REGEX=builtin",
      "-DUSE_HTTP_PARSER=builtin",
      "-DUSE_COMPRESSION=builtin",
    ],
  },
  {
    repo: "google/googletest",
    commit: "7260682388d493f155be62c3ce2efc7c7a9a3dcf",
    ecosystem: "googletest + googlemock, compile_commands.json, C++",
    cmake: ["-Dgtest_build_tests=ON", "-Dgmock_build_tests=ON", "-Dgtest_build_samples=ON"],
  },
];

/** Build files that make a folder a package, by the language of the file. */
const PACKAGE_FILES: Record<string, string[]> = {
  javascript: ["package.json"],
  typescript: ["package.json"],
  tsx: ["package.json"],
  go: ["go.mod"],
  rust: ["Cargo.toml"],
  java: ["pom.xml", "build.gradle", "build.gradle.kts"],
  kotlin: ["pom.xml", "build.gradle", "build.gradle.kts"],
  python: ["pyproject.toml", "setup.py", "setup.cfg"],
  c: ["CMakeLists.txt"],
  cpp: ["CMakeLists.txt"],
};

const SKIP = new Set(["node_modules", ".git", "target", "build", "dist", "vendor", ".venv"]);

/** Folder (repository-relative, "" for the root) -> the package build files it holds. */
async function packageDirs(root: string): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  const wanted = new Set(Object.values(PACKAGE_FILES).flat());
  async function walk(rel: string): Promise<void> {
    for await (const e of Deno.readDir(join(root, rel))) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory && !SKIP.has(e.name)) await walk(p);
      else if (e.isFile && wanted.has(e.name)) {
        // A Cargo.toml that only declares a workspace is no crate.
        if (e.name === "Cargo.toml") {
          const text = await Deno.readTextFile(join(root, p));
          if (!/^\s*\[package\]/m.test(text)) continue;
        }
        if (!out.has(rel)) out.set(rel, new Set());
        out.get(rel)!.add(e.name);
      }
    }
  }
  await walk("");
  return out;
}

function packageOf(path: string, language: string, dirs: Map<string, Set<string>>): string {
  const files = PACKAGE_FILES[language] ?? [];
  let dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
  for (;;) {
    const here = dirs.get(dir);
    if (here && files.some((f) => here.has(f))) return dir || ".";
    if (!dir) return ".";
    dir = dir.includes("/") ? dir.slice(0, dir.lastIndexOf("/")) : "";
  }
}

interface EdgeLike {
  type: string;
  from: string;
  to: string;
  line?: number;
  confidence?: number;
}

export interface Count {
  repo: string;
  files: number;
  packages: number;
  imports: number;
  crossImports: number;
  calls: number;
  crossCalls: number;
  sample: string[];
  /** Every cross-package edge, `TYPE from -> to` (for --dump). */
  cross: string[];
}

/** cgraph's pipeline from a checkout (this one by default), loaded by path. */
async function pipelineOf(checkout: string) {
  const url = (p: string) => new URL(`file://${join(absPath(checkout), p)}`).href;
  const walk = await import(url("src/index/walk.ts"));
  const scan = await import(url("src/index/scan.ts"));
  const resolve = await import(url("src/index/resolve/mod.ts"));
  const registry = await import(url("src/lang/registry.ts"));
  const model = await import(url("src/graph/model.ts"));
  let manifests: {
    readManifests(root: string, paths: string[]): Promise<{ texts: Map<string, string> }>;
  } | undefined;
  try {
    manifests = await import(url("src/index/manifests.ts"));
  } catch {
    // a cgraph before project files were read
  }
  return { walk, scan, resolve, registry, model, manifests };
}

type Pipeline = Awaited<ReturnType<typeof pipelineOf>>;

export async function measure(p: Pipeline, root: string, repo: string, sample = 0): Promise<Count> {
  const walk = await p.walk.walkRepository(root);
  const read = await p.scan.readCandidates(walk.files, walk.skipped);
  const facts: { path: string; language: string }[] = await p.scan.analyzeFiles(read, walk.skipped);
  const texts = walk.manifests && p.manifests
    ? (await p.manifests.readManifests(root, walk.manifests)).texts
    : undefined;
  const res = p.resolve.resolveAll(facts, p.registry.languageByName, undefined, texts);
  const dirs = await packageDirs(root);
  const pathOfId = new Map<string, string>();
  const nameOfId = new Map<string, string>();
  const pkg = new Map<string, string>();
  for (const f of facts) {
    pathOfId.set(p.model.fileId(f.path), f.path);
    pkg.set(f.path, packageOf(f.path, f.language, dirs));
    for (const n of res.symbols.get(f.path) ?? []) {
      pathOfId.set(n.id, f.path);
      nameOfId.set(n.id, `${n.name}:${n.line}`);
    }
  }
  const out: Count = {
    repo,
    files: facts.length,
    packages: new Set(pkg.values()).size,
    imports: 0,
    crossImports: 0,
    calls: 0,
    crossCalls: 0,
    sample: [],
    cross: [],
  };
  const cross: string[] = [];
  for (const [owner, list] of res.edges as Map<string, EdgeLike[]>) {
    for (const e of list) {
      if (e.type !== "IMPORTS" && e.type !== "CALLS") continue;
      const from = pathOfId.get(e.from) ?? owner;
      const to = pathOfId.get(e.to);
      if (e.type === "IMPORTS") out.imports++;
      else out.calls++;
      if (to === undefined || pkg.get(from) === pkg.get(to)) continue;
      if (e.type === "IMPORTS") {
        out.crossImports++;
        out.cross.push(`IMPORTS ${from}:${e.line ?? 0} -> ${to}`);
      } else {
        out.crossCalls++;
        cross.push(
          `${from}:${e.line ?? 0} (${nameOfId.get(e.from) ?? "<file>"}) -> ${to} ${
            nameOfId.get(e.to) ?? ""
          }` +
            (e.confidence !== undefined && e.confidence < 1 ? ` [${e.confidence}]` : ""),
        );
      }
    }
  }
  cross.sort();
  out.cross.push(...cross.map((c) => `CALLS ${c}`));
  out.cross.sort();
  // A fixed choice: every k-th edge from an offset drawn from the repository's name.
  if (sample && cross.length) {
    const step = Math.max(1, Math.floor(cross.length / sample));
    let offset = 0;
    for (const ch of repo) offset = (offset * 31 + ch.charCodeAt(0)) % step;
    for (let i = offset; i < cross.length && out.sample.length < sample; i += step) {
      out.sample.push(cross[i]);
    }
  }
  return out;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

/** CMake's configure step only (nothing is built), its compile_commands.json copied to the root. */
async function prepare(dir: string, options: string[]): Promise<void> {
  const build = await Deno.makeTempDir({ prefix: "cgraph-monorepo-cmake-" });
  try {
    const { code, stderr } = await new Deno.Command("cmake", {
      args: ["-S", dir, "-B", build, "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON", ...options],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (code !== 0) throw new Error(`cmake failed in ${dir}: ${new TextDecoder().decode(stderr)}`);
    await Deno.copyFile(join(build, "compile_commands.json"), join(dir, "compile_commands.json"));
  } finally {
    await Deno.remove(build, { recursive: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      src: { type: "string", default: Deno.env.get("CGRAPH_MONOREPOS") ?? "/work/mono-src" },
      only: { type: "string" },
      cgraph: { type: "string", default: join(new URL(".", import.meta.url).pathname, "..") },
      prepare: { type: "boolean", default: false },
      sample: { type: "string", default: "0" },
      json: { type: "boolean", default: false },
      dump: { type: "string" },
    },
  });
  const pipeline = await pipelineOf(values.cgraph!);
  const rows: (Monorepo & Count & { ms: number })[] = [];
  for (const m of MONOREPOS) {
    if (values.only && !m.repo.includes(values.only)) continue;
    const dir = join(values.src!, m.repo.replace("/", "+"));
    if (!(await exists(dir))) {
      console.error(`${m.repo}: not at ${dir} (see this file's doc comment); skipped`);
      continue;
    }
    if (m.cmake && !(await exists(join(dir, "compile_commands.json")))) {
      if (values.prepare) await prepare(dir, m.cmake);
      else console.error(`${m.repo}: no compile_commands.json (--prepare writes one)`);
    }
    const t0 = performance.now();
    const c = await measure(pipeline, dir, m.repo, Number(values.sample));
    if (values.dump) {
      await Deno.mkdir(values.dump, { recursive: true });
      await Deno.writeTextFile(
        join(values.dump, `${m.repo.replace("/", "+")}.txt`),
        c.cross.join("\n") + "\n",
      );
    }
    rows.push({ ...m, ...c, ms: Math.round(performance.now() - t0) });
    if (!values.json) {
      console.log(
        `${m.repo} (${
          m.commit.slice(0, 8)
        }, ${m.ecosystem}): ${c.files} files, ${c.packages} packages; ` +
          `cross-package IMPORTS ${c.crossImports} of ${c.imports}, CALLS ${c.crossCalls} of ${c.calls} ` +
          `(${(rows.at(-1)!.ms / 1000).toFixed(1)} s)`,
      );
      for (const s of c.sample) console.log(`  ${s}`);
    }
  }
  if (values.json) console.log(JSON.stringify(rows.map(({ cross: _, ...r }) => r), null, 2));
}
