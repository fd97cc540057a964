/**
 * Every tree-sitter grammar cgraph can load, embedded as bytes.
 *
 * Imported with `type: "bytes"` so a bundled or compiled cgraph carries its grammars and needs no
 * network or npm cache at run time. The wasm files come from the pinned npm packages in deno.json.
 * Each is loaded when first needed (a C repository loads the C grammar only, not all 17 MB of
 * them, in the main thread and in every parse worker): one module per grammar (wasm/), imported
 * with a literal specifier, so the bundler and `deno compile` still see and embed every one. (A
 * dynamic import of the bytes themselves would reach the bundle as a CommonJS module, whose
 * namespace esbuild builds by copying the array's every index: seconds for a large grammar.)
 */
type Bytes = Promise<{ default: Uint8Array }>;

/** The web-tree-sitter runtime itself (passed to `Parser.init` so it never fetches a file). */
export async function runtimeWasm(): Promise<Uint8Array> {
  return (await import("./wasm/runtime.ts")).default;
}

/** Grammar wasm by grammar name (the `grammar` field of a language spec). */
const GRAMMARS: Readonly<Record<string, () => Bytes>> = {
  python: () => import("./wasm/python.ts"),
  javascript: () => import("./wasm/javascript.ts"),
  typescript: () => import("./wasm/typescript.ts"),
  tsx: () => import("./wasm/tsx.ts"),
  go: () => import("./wasm/go.ts"),
  rust: () => import("./wasm/rust.ts"),
  ruby: () => import("./wasm/ruby.ts"),
  c: () => import("./wasm/c.ts"),
  cpp: () => import("./wasm/cpp.ts"),
  java: () => import("./wasm/java.ts"),
  csharp: () => import("./wasm/csharp.ts"),
  kotlin: () => import("./wasm/kotlin.ts"),
};

/** A grammar's wasm bytes; undefined for a name no grammar has. */
export async function grammarWasm(name: string): Promise<Uint8Array | undefined> {
  const load = Object.hasOwn(GRAMMARS, name) ? GRAMMARS[name] : undefined;
  return load ? (await load()).default : undefined;
}
