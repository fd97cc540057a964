/** The kotlin grammar's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "tree-sitter-kotlin/tree-sitter-kotlin.wasm" with { type: "bytes" };

export default wasm;
