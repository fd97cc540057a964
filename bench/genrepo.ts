/**
 * A deterministic synthetic repository for benchmarks: modules in Python, TypeScript, Go and Java
 * that import each other and call across files, like a mid-sized service.
 */
import { join } from "node:path";

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

const FUNCS_PER_FILE = 6;

function python(i: number, deps: number[]): string {
  const imports = deps.map((d) => `from pkg.mod${d} import func${d}_0, Service${d}`).join("\n");
  const funcs = Array.from({ length: FUNCS_PER_FILE }, (_, k) => {
    const calls = deps.map((d) => `    func${d}_0(x)\n    Service${d}().handle(x)`).join("\n");
    return `def func${i}_${k}(x):\n    """Function ${k} of module ${i}."""\n${
      k === 0 ? "    return x\n" : `${calls}\n    return func${i}_${k - 1}(x)\n`
    }`;
  }).join("\n\n");
  return `${imports}\n\n\n${funcs}\n\nclass Service${i}:\n    def handle(self, x):\n        return self.helper(x)\n\n    def helper(self, x):\n        return func${i}_1(x)\n`;
}

function typescript(i: number, deps: number[]): string {
  const imports = deps.map((d) => `import { func${d}_0, Service${d} } from "./mod${d}";`).join(
    "\n",
  );
  const funcs = Array.from({ length: FUNCS_PER_FILE }, (_, k) => {
    const calls = deps.map((d) => `  func${d}_0(x);\n  new Service${d}().handle(x);`).join("\n");
    return `/** Function ${k} of module ${i}. */\nexport function func${i}_${k}(x: number): number {\n${
      k === 0 ? "  return x;\n" : `${calls}\n  return func${i}_${k - 1}(x);\n`
    }}`;
  }).join("\n\n");
  return `${imports}\n\n${funcs}\n\nexport class Service${i} {\n  handle(x: number): number {\n    return this.helper(x);\n  }\n  helper(x: number): number {\n    return func${i}_1(x);\n  }\n}\n`;
}

function go(i: number, deps: number[]): string {
  const funcs = Array.from({ length: FUNCS_PER_FILE }, (_, k) => {
    const calls = deps.map((d) => `\tFunc${d}_0(x)`).join("\n");
    return `// Func${i}_${k} is function ${k} of file ${i}.\nfunc Func${i}_${k}(x int) int {\n${
      k === 0 ? "\treturn x\n" : `${calls}\n\treturn Func${i}_${k - 1}(x)\n`
    }}`;
  }).join("\n\n");
  return `package svc\n\n${funcs}\n\ntype Service${i} struct{}\n\nfunc (s *Service${i}) Handle(x int) int {\n\treturn s.Helper(x)\n}\n\nfunc (s *Service${i}) Helper(x int) int {\n\treturn Func${i}_1(x)\n}\n`;
}

function java(i: number, deps: number[]): string {
  const methods = Array.from({ length: FUNCS_PER_FILE }, (_, k) => {
    const calls = deps.map((d) => `        Mod${d}.func0(x);\n        new Mod${d}().handle(x);`)
      .join("\n");
    return `    /** Method ${k}. */\n    public static int func${k}(int x) {\n${
      k === 0 ? "        return x;\n" : `${calls}\n        return func${k - 1}(x);\n`
    }    }`;
  }).join("\n\n");
  return `package com.bench;\n\npublic class Mod${i} {\n${methods}\n\n    public int handle(int x) {\n        return helper(x);\n    }\n\n    private int helper(int x) {\n        return func1(x);\n    }\n}\n`;
}

/** Writes `files` source files under `dir`; returns the relative paths. */
export async function generateRepo(dir: string, files: number, seed = 42): Promise<string[]> {
  const rnd = rng(seed);
  const paths: string[] = [];
  const kinds = ["python", "typescript", "go", "java"] as const;
  const byKind: Record<string, number[]> = { python: [], typescript: [], go: [], java: [] };
  for (let i = 0; i < files; i++) byKind[kinds[i % kinds.length]].push(i);
  for (let i = 0; i < files; i++) {
    const kind = kinds[i % kinds.length];
    // The files of this kind before i: the first floor(i / 4) of its list (no copy: linear at
    // 100,000 files).
    const pool = byKind[kind];
    const before = Math.floor(i / kinds.length);
    const deps = before ? [...new Set([0, 1, 2].map(() => pool[Math.floor(rnd() * before)]))] : [];
    let rel: string;
    let text: string;
    switch (kind) {
      case "python":
        rel = `pkg/mod${i}.py`;
        text = python(i, deps);
        break;
      case "typescript":
        rel = `web/mod${i}.ts`;
        text = typescript(i, deps);
        break;
      case "go":
        rel = `svc/file${i}.go`;
        text = go(i, deps);
        break;
      default:
        rel = `java/com/bench/Mod${i}.java`;
        text = java(i, deps);
    }
    await Deno.mkdir(join(dir, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, rel), text);
    paths.push(rel);
  }
  await Deno.writeTextFile(join(dir, "pkg/__init__.py"), "");
  return paths;
}

const DOMAINS = [
  "billing",
  "accounts",
  "orders",
  "inventory",
  "shipping",
  "payments",
  "catalog",
  "reviews",
  "search",
  "notifications",
];

/**
 * `n` (at most 10) Python modules `services/<domain>/repository.py`, each with a repository class
 * and its `save` method: one name with `n` definitions, as find_symbol meets it in a real service.
 * Returns the relative paths.
 */
export async function generateSameName(dir: string, n = 10): Promise<string[]> {
  const paths: string[] = [];
  for (const domain of DOMAINS.slice(0, n)) {
    const cls = `${domain[0].toUpperCase()}${domain.slice(1)}Repository`;
    const rel = `services/${domain}/repository.py`;
    const text = `"""Persistence of ${domain}."""\n\n\nclass ${cls}:\n` +
      `    """Stores ${domain} records."""\n\n` +
      `    def __init__(self, session):\n        self.session = session\n\n` +
      `    def save(self, entity, commit=True):\n        """Persist one entity."""\n` +
      `        self.session.add(entity)\n        if commit:\n            self.session.commit()\n` +
      `        return entity\n`;
    await Deno.mkdir(join(dir, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(dir, rel), text);
    paths.push(rel);
  }
  return paths;
}
