/** The go grammar's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "tree-sitter-go/tree-sitter-go.wasm" with { type: "bytes" };

export default wasm;
