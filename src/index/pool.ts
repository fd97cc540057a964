/**
 * Parses files on all cores: a few workers, each with its own tree-sitter instance. Small batches
 * (an incremental run touching a handful of files) parse in this thread, where a worker's start-up
 * would cost more than it saves.
 *
 * A run that will parse every file (a cold or `--full` index) starts its workers early
 * (`prestartWorkers`) and has them load the languages the walk found (`warmLanguages`): a worker's
 * start (its modules, the tree-sitter runtime, each grammar's query: several hundred ms) then
 * overlaps the CLI's start, the database connection, the walk and the reading of the files.
 */
import type { FileFacts } from "../graph/facts.ts";
import { analyzeFiles, type ReadFile } from "./scan.ts";
import type { Skipped } from "./walk.ts";
import type { CompileReport, ParseReply, ParseRequest, WarmRequest } from "./worker.ts";

const INLINE_BELOW = 48;
/** Files a worker is handed before it answers: one to parse, one waiting. */
const AHEAD = 2;
/** A language another worker has loaded is shared only while more files than this are left. */
const SHARE_ABOVE = 24;
/**
 * ...and only while those files would take more than this many times its query's compile time to
 * parse: a worker that takes up a language compiles its query first, and on a machine whose cores
 * are all busy that time is taken from the others (a TypeScript query, 150-300 ms, taken up for
 * the last 30 files cost more than it saved).
 */
const COMPILE_PAYBACK = 2;
/** Files parsed before a run's pace (ms per file) is trusted. */
const PACE_AFTER = 16;

/**
 * What compiling each language's query took in a worker (ms), as the workers report it: in this
 * process, on this machine, what taking up the language costs another worker.
 */
const compileMs = new Map<string, number>();

/** Notes a worker's compile report (the latest is kept); true if the message was one. */
function noteCompile(msg: unknown): msg is CompileReport {
  if (!msg || typeof msg !== "object" || !("compiled" in msg)) return false;
  const { compiled, ms } = msg as CompileReport;
  compileMs.set(compiled, ms);
  return true;
}

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

/** Parse workers running in this process (started and not yet ended). */
let live = 0;

function spawnWorker(): Worker {
  live++;
  return new Worker(workerEntry, { type: "module" });
}

function endWorker(w: Worker): void {
  live--;
  w.terminate();
}

/** How many parse workers run in this process now. */
export function liveWorkers(): number {
  return live;
}

/** Workers started ahead of a run, with the languages each was asked to load. */
let started: { worker: Worker; languages: Set<string> }[] = [];

/**
 * Starts workers, up to `workers` in all (unless `CGRAPH_WORKERS` says otherwise). They load their
 * modules and the tree-sitter runtime at once; the next `analyzeParallel` takes them,
 * `releaseWorkers` ends them when no run does.
 */
export function prestartWorkers(workers: number): void {
  const env = Number(Deno.env.get("CGRAPH_WORKERS"));
  // 0 or 1: every file is parsed in this thread (see workerCount); no worker is started.
  const n = Number.isInteger(env) && env >= 0 ? (env <= 1 ? 0 : Math.min(env, workers)) : workers;
  while (started.length < n) {
    const worker = spawnWorker();
    // Until a run takes it: what the warm-up compiles, and how long it took.
    worker.onmessage = (e) => noteCompile(e.data);
    started.push({ worker, languages: new Set<string>() });
  }
}

/** The workers a run over `files` files starts ahead, if any (small runs parse in this thread). */
export function workersAhead(files: number): number {
  return files < INLINE_BELOW ? 0 : workerCount(files);
}

/**
 * Has the started workers load the grammars and queries of the languages a run will parse, from
 * the weight of each (its files' bytes, see `languageWeights` and `assignLanguages`; a worker
 * keeps to what it loaded, see `LanguageQueues`).
 */
export function warmLanguages(weights: Map<string, number>): void {
  if (!started.length) return;
  assignLanguages(weights, started.length).forEach((languages, w) => {
    for (const language of languages) started[w].languages.add(language);
  });
  for (const t of started) {
    const req: WarmRequest = { warm: [...t.languages] };
    t.worker.postMessage(req);
  }
}

/**
 * Which languages each of `workers` workers loads ahead, from each language's weight (its files'
 * bytes, or any measure of the parsing it needs): a language weighing more than one worker's share
 * in every worker, the others each in the worker with the least so far, heaviest first. A query
 * compiles in each worker that loads it (10-500 ms), so a language loaded once costs that once; a
 * worker that runs out of files later takes up a language that still has enough files left
 * (`LanguageQueues`).
 */
export function assignLanguages(weights: Map<string, number>, workers: number): Set<string>[] {
  const out = Array.from({ length: workers }, () => new Set<string>());
  const load = new Array<number>(workers).fill(0);
  const total = [...weights.values()].reduce((a, b) => a + b, 0);
  const share = total / workers;
  for (
    const [language, weight] of [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
  ) {
    if (weight > share) {
      out.forEach((own, w) => {
        own.add(language);
        load[w] += weight / workers;
      });
      continue;
    }
    const w = load.indexOf(Math.min(...load));
    out[w].add(language);
    load[w] += weight;
  }
  return out;
}

/** How many workers are started and not yet taken by a run. */
export function workersStarted(): number {
  return started.length;
}

/**
 * Starts the workers a run over these files takes and has them load the files' languages (see
 * prestartWorkers and warmLanguages). A no-op once a run has taken its workers since `since`
 * (a census that finishes late must not start workers nobody takes).
 */
export function prepareWorkers(
  files: { language: { name: string }; stat?: { size: number } }[],
  since = runsTaken,
): void {
  if (since !== runsTaken) return;
  prestartWorkers(workersAhead(files.length));
  warmLanguages(languageWeights(files));
}

/** A file whose size the walk did not see (no stat) weighs this much (bytes). */
const NOMINAL_SIZE = 4096;

/**
 * Each language's share of the parsing ahead: its files' bytes. Parse time follows bytes, not
 * files (over 1,000 generated files: 0.54 to 0.66 ms per KB in Java, Python, Go and TypeScript,
 * whose files differ in size by 1.7 times); split by file count, one worker got 18% more bytes to
 * parse than the other, and the first to run out compiled the other's TypeScript query again.
 */
export function languageWeights(
  files: { language: { name: string }; stat?: { size: number } }[],
): Map<string, number> {
  const weights = new Map<string, number>();
  for (const f of files) {
    const size = f.stat?.size ?? NOMINAL_SIZE;
    weights.set(f.language.name, (weights.get(f.language.name) ?? 0) + size);
  }
  return weights;
}

/** How many runs have taken started workers (see prepareWorkers). */
let runsTaken = 0;

/** The count prepareWorkers compares against: take it before a census starts. */
export function runsSoFar(): number {
  return runsTaken;
}

/** Ends workers started for a run that did not use them. */
export function releaseWorkers(): void {
  for (const t of started) endWorker(t.worker);
  started = [];
}

/** What a released file's bytes become (see analyzeParallel's `release`). */
const RELEASED = new Uint8Array(0);

/**
 * Parses `files` on the workers (or in this thread). `release`: each file's bytes are dropped once
 * a worker has its copy (a full run reads every file up front and never needs them again).
 * `collect` false: the facts parsed on workers are only handed to `onFacts`, not returned (a full
 * run keeps them in a compact form of its own, staging.ts, rather than every file's at once).
 */
export async function analyzeParallel(
  files: ReadFile[],
  skipped: Skipped[],
  onProgress: (done: number) => void = () => {},
  onFacts: (facts: FileFacts) => void = () => {},
  release = false,
  collect = true,
): Promise<FileFacts[]> {
  // Workers already started parse even a batch this thread would take: they are loaded.
  const ready = started;
  started = [];
  runsTaken++;
  const n = !files.length
    ? 0
    : ready.length
    ? Math.min(ready.length, Math.ceil(files.length / INLINE_BELOW))
    : workerCount(files.length);
  for (const extra of ready.slice(n)) endWorker(extra.worker);
  if (!files.length || (!ready.length && (files.length < INLINE_BELOW || n <= 1))) {
    const out = await analyzeFiles(files, skipped);
    onProgress(files.length);
    for (const f of out) onFacts(f);
    return out;
  }
  const results: (FileFacts | undefined)[] = new Array(files.length);
  let done = 0;
  const began = performance.now();
  // A worker takes up a language another has loaded while its files left would take longer to
  // parse than its query takes to compile (known once some worker compiled it), times a margin.
  const worthSharing = (language: string, left: number) => {
    if (left <= SHARE_ABOVE) return false;
    const cost = compileMs.get(language);
    if (cost === undefined || done < PACE_AFTER) return true;
    const pace = ((performance.now() - began) * n) / done;
    return left * pace > COMPILE_PAYBACK * cost;
  };
  const queues = new LanguageQueues(
    files.map((f) => f.candidate.language.name),
    worthSharing,
    ready.slice(0, n).map((t) => t.languages),
    files.map((f) => f.bytes.length),
  );
  const workers = Array.from(
    { length: n },
    (_, i) => ready[i]?.worker ?? spawnWorker(),
  );
  try {
    await Promise.all(workers.map((w, worker) =>
      new Promise<void>((resolve, reject) => {
        // Requests this worker has not answered yet: it holds AHEAD of them, so it never waits
        // for this thread (busy with a reply, or collecting garbage) to hand it the next file.
        let unanswered = 0;
        const send = () => {
          const id = queues.next(worker);
          if (id === undefined) {
            if (unanswered === 0) resolve();
            return;
          }
          unanswered++;
          const f = files[id];
          const req: ParseRequest = {
            id,
            path: f.candidate.path,
            language: f.candidate.language.name,
            hash: f.hash,
            bytes: f.bytes,
          };
          w.postMessage(req);
          if (release) f.bytes = RELEASED;
        };
        w.onmessage = (e: MessageEvent<ParseReply | CompileReport>) => {
          const reply = e.data;
          if (noteCompile(reply)) return;
          unanswered--;
          // The worker gets its next file before this thread does anything with the reply.
          send();
          if ("json" in reply) {
            const facts = JSON.parse(reply.json) as FileFacts;
            if (collect) results[reply.id] = facts;
            onFacts(facts);
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
        for (let i = 0; i < AHEAD; i++) send();
      })
    ));
  } finally {
    for (const w of workers) endWorker(w);
  }
  return results.filter((f): f is FileFacts => f !== undefined);
}

/**
 * Whether a worker takes up a language another worker has loaded, with `left` of its files left.
 */
export type ShareRule = (language: string, left: number) => boolean;

/**
 * Hands files to workers by language: a worker keeps to the languages it has loaded (a grammar's
 * query costs 10-500 ms to compile in each worker that needs it), takes up another language only
 * when that one has no worker yet or is worth sharing (`shareAbove`: more files left than a
 * number, or a rule), and else is done.
 */
export class LanguageQueues {
  private readonly queues = new Map<string, number[]>();
  private readonly loaded = new Map<number, Set<string>>();
  private readonly takers = new Map<string, number>();
  private readonly share: ShareRule;

  /**
   * `preloaded[w]`: the languages worker w has loaded already (a started pool's warm-up).
   * `sizes[id]`: a file's size; the largest files of a language go out first, so no worker is
   * left with a large file while the others have finished (else files go out in order).
   */
  constructor(
    languages: string[],
    shareAbove: number | ShareRule = SHARE_ABOVE,
    preloaded: Set<string>[] = [],
    sizes?: number[],
  ) {
    this.share = typeof shareAbove === "number" ? (_, left) => left > shareAbove : shareAbove;
    preloaded.forEach((own, worker) => {
      this.loaded.set(worker, new Set(own));
      for (const language of own) this.takers.set(language, (this.takers.get(language) ?? 0) + 1);
    });
    languages.forEach((language, id) => {
      const q = this.queues.get(language);
      if (q) q.push(id);
      else this.queues.set(language, [id]);
    });
    // Each queue is taken from its end: the largest (or the first) file last in it.
    for (const q of this.queues.values()) {
      if (sizes) q.sort((a, b) => sizes[a] - sizes[b] || b - a);
      else q.reverse();
    }
  }

  /** The next file index for `worker`, or undefined when it has nothing more to do. */
  next(worker: number): number | undefined {
    const own = this.loaded.get(worker) ?? new Set<string>();
    this.loaded.set(worker, own);
    // Its own languages first, the one with the most files left; another only once those are done.
    let best = this.most((language) => own.has(language));
    best ??= this.most((language, left) =>
      !own.has(language) && (!this.takers.get(language) || this.share(language, left))
    );
    if (best === undefined) return undefined;
    if (!own.has(best)) {
      own.add(best);
      this.takers.set(best, (this.takers.get(best) ?? 0) + 1);
    }
    return this.queues.get(best)!.pop();
  }

  /** Of the languages with files left that `take` accepts, the one with the most (first if tied). */
  private most(take: (language: string, left: number) => boolean): string | undefined {
    let best: string | undefined;
    let most = 0;
    for (const [language, q] of this.queues) {
      if (q.length > most && take(language, q.length)) [best, most] = [language, q.length];
    }
    return best;
  }
}
