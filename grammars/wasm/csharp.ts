/** The csharp grammar's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "tree-sitter-c-sharp/tree-sitter-c_sharp.wasm" with { type: "bytes" };

export default wasm;
