/** The rust grammar's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "tree-sitter-rust/tree-sitter-rust.wasm" with { type: "bytes" };

export default wasm;
