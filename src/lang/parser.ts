/**
 * web-tree-sitter, initialised once from embedded bytes, with one parser and one compiled query per
 * language, created on first use.
 */
import { Language, Parser, Query } from "web-tree-sitter";
import { grammarWasm, runtimeWasm } from "../../grammars/mod.ts";
import type { LanguageSpec } from "./spec.ts";

let ready: Promise<void> | undefined;
const loaded = new Map<string, Promise<{ parser: Parser; query: Query }>>();

/** Loads the tree-sitter runtime now (a parse worker does at start, before it knows a language). */
export function init(): Promise<void> {
  // Copies: the embedded bytes are shared by every worker of the process, and emscripten may
  // keep or detach the buffer it is given.
  ready ??= runtimeWasm().then((bytes) => Parser.init({ wasmBinary: bytes.slice() } as never));
  return ready;
}

/** Parser and compiled tags query for a language (throws if its query does not compile). */
export function toolsFor(spec: LanguageSpec): Promise<{ parser: Parser; query: Query }> {
  let p = loaded.get(spec.name);
  if (!p) {
    p = (async () => {
      await init();
      const bytes = await grammarWasm(spec.grammar);
      if (!bytes) throw new Error(`no grammar '${spec.grammar}' for ${spec.name}`);
      const language = await Language.load(bytes.slice());
      const parser = new Parser();
      parser.setLanguage(language);
      let query: Query;
      try {
        query = new Query(language, spec.query);
      } catch (err) {
        throw new Error(`${spec.name}/tags.scm does not compile: ${(err as Error).message}`);
      }
      return { parser, query };
    })();
    loaded.set(spec.name, p);
  }
  return p;
}
