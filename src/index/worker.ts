/** Worker side of the parse pool: file bytes in, FileFacts out. */
import { languageByName } from "../lang/registry.ts";
import { extractFacts } from "./extract.ts";

export interface ParseRequest {
  id: number;
  path: string;
  language: string;
  hash: string;
  bytes: Uint8Array;
}

export type ParseReply =
  | { id: number; facts: import("../graph/facts.ts").FileFacts }
  | { id: number; error: string };

/** Serves parse requests on this worker's message port. */
export function serveParseRequests(): void {
  const scope = self as unknown as {
    onmessage: ((e: MessageEvent<ParseRequest>) => void) | null;
    postMessage(msg: ParseReply): void;
  };
  scope.onmessage = async (e) => {
    const req = e.data;
    try {
      const spec = languageByName(req.language);
      if (!spec) throw new Error(`unknown language ${req.language}`);
      scope.postMessage({
        id: req.id,
        facts: await extractFacts(spec, req.path, req.bytes, req.hash),
      });
    } catch (err) {
      scope.postMessage({ id: req.id, error: err instanceof Error ? err.message : String(err) });
    }
  };
}
