/** The tsx grammar's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "tree-sitter-typescript/tree-sitter-tsx.wasm" with { type: "bytes" };

export default wasm;
