/** The c grammar's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "tree-sitter-c/tree-sitter-c.wasm" with { type: "bytes" };

export default wasm;
