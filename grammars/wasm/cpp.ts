/** The cpp grammar's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "tree-sitter-cpp/tree-sitter-cpp.wasm" with { type: "bytes" };

export default wasm;
