/**
 * Debouncing file events: a batch fires once events have stopped for `quietMs`, or `maxMs` after
 * its first event however busy the stream (a long checkout still shows progress). Pure timing, no
 * file system: the watcher feeds it, tests drive it directly.
 */
export interface DebounceOptions {
  quietMs: number;
  maxMs: number;
}

export class Debouncer {
  #paths = new Set<string>();
  #flags = new Set<string>();
  #first = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    readonly opts: DebounceOptions,
    readonly fire: (paths: Set<string>, flags: Set<string>) => void,
  ) {}

  /** True while events wait for their batch to fire. */
  get pending(): boolean {
    return this.#timer !== undefined;
  }

  /** How many distinct paths wait. */
  get size(): number {
    return this.#paths.size;
  }

  /** Adds paths (and flags, such as a moved HEAD) to the waiting batch. */
  push(paths: Iterable<string>, flags: Iterable<string> = []): void {
    const now = performance.now();
    if (this.#timer === undefined) this.#first = now;
    for (const p of paths) this.#paths.add(p);
    for (const f of flags) this.#flags.add(f);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    const wait = Math.max(0, Math.min(this.opts.quietMs, this.#first + this.opts.maxMs - now));
    this.#timer = setTimeout(() => this.flush(), wait);
  }

  /** Fires the waiting batch now (nothing when none waits). */
  flush(): void {
    if (this.#timer === undefined) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const paths = this.#paths;
    const flags = this.#flags;
    this.#paths = new Set();
    this.#flags = new Set();
    this.fire(paths, flags);
  }

  /** Drops the waiting batch. */
  cancel(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#paths.clear();
    this.#flags.clear();
  }
}

/** A number of milliseconds from the environment, or the default (bad values are ignored). */
export function envMs(name: string, fallback: number): number {
  const raw = Deno.env.get(name);
  const n = raw === undefined || raw.trim() === "" ? NaN : Number(raw);
  return Number.isFinite(n) && n >= 0 ? n : fallback;
}

/** Whether watching is on: CODE_GRAPH_WATCH=false (or 0, no, off) turns it off. */
export function watchEnabled(): boolean {
  const raw = (Deno.env.get("CODE_GRAPH_WATCH") ?? "").trim().toLowerCase();
  return !["false", "0", "no", "off"].includes(raw);
}
