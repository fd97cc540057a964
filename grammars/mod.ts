/**
 * Every tree-sitter grammar cgraph can load, embedded as bytes.
 *
 * Imported with `type: "bytes"` so a bundled or compiled cgraph carries its grammars and needs no
 * network or npm cache at run time. The wasm files come from the pinned npm packages in deno.json.
 */
import runtime from "web-tree-sitter/web-tree-sitter.wasm" with { type: "bytes" };
import python from "tree-sitter-python/tree-sitter-python.wasm" with { type: "bytes" };
import javascript from "tree-sitter-javascript/tree-sitter-javascript.wasm" with { type: "bytes" };
import typescript from "tree-sitter-typescript/tree-sitter-typescript.wasm" with { type: "bytes" };
import tsx from "tree-sitter-typescript/tree-sitter-tsx.wasm" with { type: "bytes" };
import go from "tree-sitter-go/tree-sitter-go.wasm" with { type: "bytes" };
import rust from "tree-sitter-rust/tree-sitter-rust.wasm" with { type: "bytes" };
import ruby from "tree-sitter-ruby/tree-sitter-ruby.wasm" with { type: "bytes" };
import c from "tree-sitter-c/tree-sitter-c.wasm" with { type: "bytes" };
import cpp from "tree-sitter-cpp/tree-sitter-cpp.wasm" with { type: "bytes" };
import java from "tree-sitter-java/tree-sitter-java.wasm" with { type: "bytes" };
import csharp from "tree-sitter-c-sharp/tree-sitter-c_sharp.wasm" with { type: "bytes" };
import kotlin from "tree-sitter-kotlin/tree-sitter-kotlin.wasm" with { type: "bytes" };

/** The web-tree-sitter runtime itself (passed to `Parser.init` so it never fetches a file). */
export const RUNTIME_WASM: Uint8Array = runtime;

/** Grammar wasm by grammar name (the `grammar` field of a language spec). */
export const GRAMMARS: Readonly<Record<string, Uint8Array>> = {
  python,
  javascript,
  typescript,
  tsx,
  go,
  rust,
  ruby,
  c,
  cpp,
  java,
  csharp,
  kotlin,
};
