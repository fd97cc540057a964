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
/** A language another worker has loaded is shared only while more files than this are left. */
const SHARE_ABOVE = 24;

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
  onFacts: (facts: FileFacts) => void = () => {},
): Promise<FileFacts[]> {
  const n = workerCount(files.length);
  if (files.length < INLINE_BELOW || n <= 1) {
    const out = await analyzeFiles(files, skipped);
    onProgress(files.length);
    out.forEach(onFacts);
    return out;
  }
  const results: (FileFacts | undefined)[] = new Array(files.length);
  const queues = new LanguageQueues(files.map((f) => f.candidate.language.name));
  let done = 0;
  const workers = Array.from({ length: n }, () => new Worker(workerEntry, { type: "module" }));
  try {
    await Promise.all(workers.map((w, worker) =>
      new Promise<void>((resolve, reject) => {
        const send = () => {
          const id = queues.next(worker);
          if (id === undefined) return resolve();
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
          // The worker gets its next file before this thread does anything with the reply.
          send();
          if ("facts" in reply) {
            results[reply.id] = reply.facts;
            onFacts(reply.facts);
          } else {
            skipped.push({
              path: files[reply.id].candidate.path,
              reason: `parse failed (${reply.error})`,
            });
          }
          onProgress(++done);
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

/**
 * Hands files to workers by language: a worker keeps to the languages it has loaded (a grammar's
 * query costs 10-500 ms to compile in each worker that needs it), takes up another language only
 * when that one has no worker yet or enough files left to share, and else is done.
 */
export class LanguageQueues {
  private readonly queues = new Map<string, number[]>();
  private readonly loaded = new Map<number, Set<string>>();
  private readonly takers = new Map<string, number>();

  constructor(languages: string[], private readonly shareAbove = SHARE_ABOVE) {
    languages.forEach((language, id) => {
      const q = this.queues.get(language);
      if (q) q.push(id);
      else this.queues.set(language, [id]);
    });
    // Each queue is taken from its end: reverse so files go out in their given order.
    for (const q of this.queues.values()) q.reverse();
  }

  /** The next file index for `worker`, or undefined when it has nothing more to do. */
  next(worker: number): number | undefined {
    const own = this.loaded.get(worker) ?? new Set<string>();
    this.loaded.set(worker, own);
    let best: string | undefined;
    for (const [language, q] of this.queues) {
      if (!q.length) continue;
      if (own.has(language)) {
        if (best === undefined || !own.has(best) || q.length > this.queues.get(best)!.length) {
          best = language;
        }
        continue;
      }
      if (best !== undefined && own.has(best)) continue;
      if ((this.takers.get(language) ?? 0) > 0 && q.length <= this.shareAbove) continue;
      if (best === undefined || q.length > this.queues.get(best)!.length) best = language;
    }
    if (best === undefined) return undefined;
    if (!own.has(best)) {
      own.add(best);
      this.takers.set(best, (this.takers.get(best) ?? 0) + 1);
    }
    return this.queues.get(best)!.pop();
  }
}
