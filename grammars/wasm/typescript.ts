/** The typescript grammar's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "tree-sitter-typescript/tree-sitter-typescript.wasm" with { type: "bytes" };

export default wasm;
