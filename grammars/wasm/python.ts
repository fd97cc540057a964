/** The python grammar's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "tree-sitter-python/tree-sitter-python.wasm" with { type: "bytes" };

export default wasm;
