/** The javascript grammar's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "tree-sitter-javascript/tree-sitter-javascript.wasm" with { type: "bytes" };

export default wasm;
