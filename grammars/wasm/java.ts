/** The java grammar's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "tree-sitter-java/tree-sitter-java.wasm" with { type: "bytes" };

export default wasm;
