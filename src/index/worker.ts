/** Worker side of the parse pool: file bytes in, FileFacts out. */
import { languageByName } from "../lang/registry.ts";
import { init, toolsFor } from "../lang/parser.ts";
import type { LanguageSpec } from "../lang/spec.ts";
import { extractFacts } from "./extract.ts";

export interface ParseRequest {
  id: number;
  path: string;
  language: string;
  hash: string;
  bytes: Uint8Array;
}

/** Load these languages' grammars and compile their queries now, before any file arrives. */
export interface WarmRequest {
  warm: string[];
}

/** What compiling a language's query took in this worker (ms): sent once per language. */
export interface CompileReport {
  compiled: string;
  ms: number;
}

/**
 * A file's facts as JSON: a string crosses to the main thread as one copy, which JSON.parse
 * rebuilds faster than the structured clone of the object graph.
 */
export type ParseReply =
  | { id: number; json: string }
  | { id: number; error: string };

/** Serves parse requests on this worker's message port. */
export function serveParseRequests(): void {
  const scope = self as unknown as {
    onmessage: ((e: MessageEvent<ParseRequest | WarmRequest>) => void) | null;
    postMessage(msg: ParseReply | CompileReport): void;
  };
  const compiled = new Set<string>();
  /** The language's parser and query; the first time, what loading them took is reported. */
  const tools = async (spec: LanguageSpec) => {
    if (compiled.has(spec.name)) return;
    compiled.add(spec.name);
    await init();
    const start = performance.now();
    await toolsFor(spec);
    scope.postMessage({ compiled: spec.name, ms: performance.now() - start });
  };
  // The runtime every language needs loads while the first request is on its way.
  init().catch(() => {}); // a failure shows again with the first file
  scope.onmessage = async (e) => {
    const req = e.data;
    if ("warm" in req) {
      // A failure here shows again, with its file, when a request of that language comes.
      for (const name of req.warm) {
        const spec = languageByName(name);
        if (spec) await tools(spec).catch(() => {});
      }
      return;
    }
    try {
      const spec = languageByName(req.language);
      if (!spec) throw new Error(`unknown language ${req.language}`);
      await tools(spec);
      scope.postMessage({
        id: req.id,
        json: JSON.stringify(await extractFacts(spec, req.path, req.bytes, req.hash)),
      });
    } catch (err) {
      scope.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) });
    }
  };
}
