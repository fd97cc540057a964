/**
 * Parses files on all cores: a few workers, each with its own tree-sitter instance. Small batches
 * (an incremental run touching a handful of files) parse in this thread, where a worker's start-up
 * would cost more than it saves.
 */
import type { FileFacts } from "../graph/facts.ts";
import { analyzeFiles, type ReadFile } from "./scan.ts";
import type { Skipped } from "./walk.ts";
import type { ParseReply, ParseRequest } from "./worker.ts";

const INLINE_BELOW = 48;

/** Where the worker entry lives; a bundle sets this to itself (see main.ts). */
export let workerEntry: string = new URL("./worker_main.ts", import.meta.url).href;
export function setWorkerEntry(url: string): void {
  workerEntry = url;
}

export function workerCount(files: number): number {
  const env = Number(Deno.env.get("CGRAPH_WORKERS"));
  if (Number.isInteger(env) && env >= 0) return env;
  const cores = navigator.hardwareConcurrency || 2;
  return Math.max(1, Math.min(cores, 8, Math.ceil(files / INLINE_BELOW)));
}

export async function analyzeParallel(
  files: ReadFile[],
  skipped: Skipped[],
  onProgress: (done: number) => void = () => {},
): Promise<FileFacts[]> {
  const n = workerCount(files.length);
  if (files.length < INLINE_BELOW || n <= 1) {
    const out = await analyzeFiles(files, skipped);
    onProgress(files.length);
    return out;
  }
  const results: (FileFacts | undefined)[] = new Array(files.length);
  let next = 0;
  let done = 0;
  const workers = Array.from({ length: n }, () => new Worker(workerEntry, { type: "module" }));
  try {
    await Promise.all(workers.map((w) =>
      new Promise<void>((resolve, reject) => {
        const send = () => {
          if (next >= files.length) return resolve();
          const id = next++;
          const f = files[id];
          const req: ParseRequest = {
            id,
            path: f.candidate.path,
            language: f.candidate.language.name,
            hash: f.hash,
            bytes: f.bytes,
          };
          w.postMessage(req);
        };
        w.onmessage = (e: MessageEvent<ParseReply>) => {
          const reply = e.data;
          if ("facts" in reply) results[reply.id] = reply.facts;
          else {skipped.push({
              path: files[reply.id].candidate.path,
              reason: `parse failed (${reply.error})`,
            });}
          onProgress(++done);
          send();
        };
        w.onerror = (e) => {
          e.preventDefault();
          reject(new Error(`parse worker failed: ${e.message}`));
        };
        send();
      })
    ));
  } finally {
    for (const w of workers) w.terminate();
  }
  return results.filter((f): f is FileFacts => f !== undefined);
}
