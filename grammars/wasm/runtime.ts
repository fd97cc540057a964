/** The web-tree-sitter runtime's wasm, embedded as bytes (see grammars/mod.ts). */
import wasm from "web-tree-sitter/web-tree-sitter.wasm" with { type: "bytes" };

export default wasm;
