/** The ruby grammar's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "tree-sitter-ruby/tree-sitter-ruby.wasm" with { type: "bytes" };

export default wasm;
