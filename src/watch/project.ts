/**
 * Keeping one repository's graph current: file events (Deno.watchFs, recursive) are filtered by
 * the indexer's ignore list and git's ignore rules, debounced, and turned into incremental index
 * runs through the session (the same path and index lock as `index_repo`). A moved HEAD switches
 * to (or builds) the checked-out branch's graph. A health check every few seconds notices the
 * folder removed and re-created, and a graph the database lost (a FalkorDB restart), and
 * re-indexes. Nothing here writes to stdout.
 */
import { isAbsolute, join, relative, sep } from "node:path";
import { describeError } from "../errors.ts";
import { dropResident, type IndexSummary, isListed } from "../index/indexer.ts";
import { gitIgnored, ignoreList, isIgnoredPath } from "../index/walk.ts";
import { log } from "../log.ts";
import { type ProjectRef, resolveProject } from "../project/identity.ts";
import type { Session } from "../query/session.ts";
import { Debouncer, envMs } from "./debounce.ts";

export interface WatchOptions {
  /** Quiet time before a batch of events is indexed (CGRAPH_WATCH_DEBOUNCE_MS, default 30). */
  quietMs?: number;
  /** Longest a busy stream of events delays an update (default 1,000 ms). */
  maxMs?: number;
  /** Health check period: folder present, graph present (CGRAPH_WATCH_CHECK_MS, default 2,000). */
  checkMs?: number;
  /** Index even when the graph does not exist yet (the `cgraph watch` command). */
  create?: boolean;
  /** Called after every update with its summary, and on a branch switch. */
  onUpdate?: (u: WatchUpdate) => void;
  /** The project name and branch the user pinned (a pinned branch does not follow HEAD). */
  project?: string;
  branch?: string;
}

export type WatchUpdate =
  | { kind: "indexed"; ref: ProjectRef; summary: IndexSummary; changed: number }
  | { kind: "branch"; ref: ProjectRef; from: string }
  | { kind: "error"; ref: ProjectRef; message: string };

const FLAG_HEAD = "head";
const FLAG_CHECK = "check";

export class ProjectWatcher {
  ref: ProjectRef;
  #session: Session;
  #opts: Required<Pick<WatchOptions, "quietMs" | "maxMs" | "checkMs" | "create">> & WatchOptions;
  #debounce: Debouncer;
  #fsWatchers: Deno.FsWatcher[] = [];
  #running: Promise<void> | undefined;
  #again: { paths: Set<string>; flags: Set<string> } | undefined;
  #idleWaiters: (() => void)[] = [];
  #check: ReturnType<typeof setInterval> | undefined;
  #rootIno: number | undefined;
  #gitDir: string | undefined;
  #ignores = ignoreList();
  #closed = false;
  #lastError = "";
  /** Graphs whose stored state was loaded into memory once (Session.warm). */
  #warmed = new Set<string>();
  /** The last update failed (the database away?): the health check retries it. */
  #failed = false;
  /** Paths changed by the update in flight and those waiting (for the updating note). */
  #inFlight = 0;
  /** The graph was indexed, or exists: events update it (otherwise they wait for a first index). */
  active = false;

  constructor(session: Session, ref: ProjectRef, opts: WatchOptions = {}) {
    this.#session = session;
    this.ref = ref;
    this.#opts = {
      quietMs: opts.quietMs ?? envMs("CGRAPH_WATCH_DEBOUNCE_MS", 30),
      maxMs: opts.maxMs ?? envMs("CGRAPH_WATCH_MAX_MS", 1000),
      checkMs: opts.checkMs ?? envMs("CGRAPH_WATCH_CHECK_MS", 2000),
      create: opts.create ?? false,
      onUpdate: opts.onUpdate,
      project: opts.project,
      branch: opts.branch,
    };
    this.#debounce = new Debouncer(
      { quietMs: this.#opts.quietMs, maxMs: this.#opts.maxMs },
      (paths, flags) => this.#enqueue(paths, flags),
    );
  }

  get root(): string {
    return this.ref.root;
  }

  /** Starts watching; the first update (catching up with edits made while unwatched) is queued. */
  start(): Promise<void> {
    // Queued at once, so a call arriving now waits for it; it runs once the events are watched.
    this.#debounce.push([], [FLAG_CHECK]);
    this.#ready = this.#startFs();
    this.#check = setInterval(() => this.#healthCheck(), this.#opts.checkMs);
    Deno.unrefTimer(this.#check);
    return this.#ready;
  }

  #ready: Promise<void> = Promise.resolve();

  /** True while an update runs or events wait for one. */
  get busy(): boolean {
    return this.#running !== undefined || this.#debounce.pending;
  }

  /**
   * Waits until no update runs or waits, at most `deadlineMs`. Undefined when the graph is
   * current, else the note an answer carries.
   */
  async settle(deadlineMs: number): Promise<string | undefined> {
    if (!this.busy) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const idle = new Promise<boolean>((r) => this.#idleWaiters.push(() => r(true)));
    const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), deadlineMs)));
    const done = await Promise.race([idle, late]);
    clearTimeout(timer);
    if (done) return undefined;
    const n = this.#inFlight + this.#debounce.size;
    const what = n > 0 ? `${n} changed file${n === 1 ? "" : "s"}` : "changes";
    return `updating: the graph is catching up with ${what}; this answer may not show them yet`;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#debounce.cancel();
    if (this.#check !== undefined) clearInterval(this.#check);
    this.#stopFs();
    await this.#running?.catch(() => {});
    this.#wakeIdle();
  }

  // ---- file events --------------------------------------------------------------------------

  async #startFs(): Promise<void> {
    this.#stopFs();
    try {
      this.#rootIno = (await Deno.stat(this.root)).ino ?? undefined;
    } catch {
      this.#rootIno = undefined;
      return; // the folder is gone: the health check waits for it to come back
    }
    const main = Deno.watchFs(this.root, { recursive: true });
    this.#fsWatchers.push(main);
    this.#consume(main);
    await this.#refreshGitDir();
  }

  /**
   * Where HEAD lives: a worktree's is outside its folder (the main repository's
   * .git/worktrees/<name>), so that folder is watched too. Found again when a repository appears
   * (`git init` in a watched folder, a clone in place of a removed one).
   */
  async #refreshGitDir(): Promise<void> {
    const found = await gitDir(this.root);
    if (found === this.#gitDir) return;
    this.#gitDir = found;
    if (found && !isInsideDir(this.root, found)) {
      try {
        const heads = Deno.watchFs(found, { recursive: false });
        this.#fsWatchers.push(heads);
        this.#consume(heads);
      } catch (err) {
        log.debug(`watch: cannot watch ${found}: ${describeError(err)}`);
      }
    }
  }

  #stopFs(): void {
    for (const w of this.#fsWatchers) {
      try {
        w.close();
      } catch {
        // already closed
      }
    }
    this.#fsWatchers = [];
  }

  async #consume(w: Deno.FsWatcher): Promise<void> {
    try {
      for await (const event of w) {
        if (this.#closed) return;
        if (event.kind === "access" || event.kind === "other") continue;
        this.#onPaths(event.paths);
      }
    } catch (err) {
      log.debug(`watch: event stream of ${this.root} ended: ${describeError(err)}`);
    }
    // The stream ends when the watched folder goes away: the health check takes it from here.
  }

  #onPaths(paths: string[]): void {
    const changed: string[] = [];
    const flags: string[] = [];
    for (const abs of paths) {
      if (this.#isHead(abs)) {
        flags.push(FLAG_HEAD);
        continue;
      }
      const rel = relative(this.root, abs).split(sep).join("/");
      if (!rel || rel.startsWith("../") || isAbsolute(rel)) continue;
      // A repository appearing here (git init, a clone): its HEAD decides the branch from now on;
      // so does the first commit of an unborn branch (HEAD's file stays as it was).
      if (
        (rel === ".git" || rel.startsWith(".git/")) &&
        (!this.#gitDir || (this.ref.branch === "_unborn" && rel.startsWith(".git/refs/heads/")))
      ) {
        flags.push(FLAG_HEAD);
        continue;
      }
      if (isIgnoredPath(rel, this.#ignores)) continue;
      changed.push(rel);
    }
    if (changed.length || flags.length) this.#debounce.push(changed, flags);
  }

  #isHead(abs: string): boolean {
    if (!this.#gitDir) return false;
    return abs === join(this.#gitDir, "HEAD");
  }

  // ---- updates ------------------------------------------------------------------------------

  /** A batch is ready: run it, or fold it into the next run when one is under way. */
  #enqueue(paths: Set<string>, flags: Set<string>): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again ??= { paths: new Set(), flags: new Set() };
      for (const p of paths) this.#again.paths.add(p);
      for (const f of flags) this.#again.flags.add(f);
      return;
    }
    this.#running = this.#loop(paths, flags).finally(() => {
      this.#running = undefined;
      if (!this.busy) this.#wakeIdle();
    });
  }

  async #loop(paths: Set<string>, flags: Set<string>): Promise<void> {
    let batch: { paths: Set<string>; flags: Set<string> } | undefined = { paths, flags };
    while (batch && !this.#closed) {
      this.#inFlight = batch.paths.size;
      await this.#update(batch.paths, batch.flags);
      batch = this.#again;
      this.#again = undefined;
    }
    this.#inFlight = 0;
  }

  async #update(paths: Set<string>, flags: Set<string>): Promise<void> {
    try {
      await this.#ready;
      if (!(await exists(this.root))) return;
      if (flags.has(FLAG_HEAD)) {
        await this.#refreshGitDir();
        await this.#followHead();
      }
      const relevant = [...paths];
      // The paths events named (those git would list): with nothing else to catch up with (a
      // moved HEAD, a check), the indexer re-stats only these.
      let named: string[] | undefined;
      if (!flags.size && relevant.length) {
        // Only files git would list count: an event batch wholly in ignored folders is dropped.
        // Paths the last walk listed are not ignored (a changed .gitignore walks in full).
        const unknown = relevant.filter((p) => !isListed(this.ref.keys.graph, p));
        const ignored = await gitIgnored(this.root, unknown);
        if (relevant.every((p) => ignored.has(p))) return;
        named = relevant.filter((p) => !ignored.has(p));
      }
      if (!this.active) {
        this.active = this.#opts.create || await this.#graphExists();
        if (!this.active) return;
      }
      const summary = await this.#session.index(this.ref, { resident: true, changed: named });
      this.#lastError = "";
      // After a no-op catch-up nothing is in memory yet: it is loaded in the background (under
      // the index lock; calls need not wait for it), so the first edit reloads nothing.
      if (!this.#warmed.has(this.ref.keys.graph)) {
        this.#warmed.add(this.ref.keys.graph);
        this.#session.warm(this.ref).catch(() => false);
      }
      const changed = summary.files.added.length + summary.files.modified.length +
        summary.files.deleted.length;
      this.#opts.onUpdate?.({ kind: "indexed", ref: this.ref, summary, changed });
      if (changed || summary.mode === "full") {
        log.debug(
          `watch: ${this.ref.project}:${this.ref.branch} ${summary.mode}, ${changed} file(s) in ${summary.durationMs} ms ${
            JSON.stringify(summary.timings)
          }`,
        );
      }
    } catch (err) {
      await this.#session.noteError(err);
      const message = describeError(err);
      if (message !== this.#lastError) {
        this.#lastError = message;
        log.warn(`watch: updating ${this.root} failed: ${message} (retrying on the next change)`);
        this.#opts.onUpdate?.({ kind: "error", ref: this.ref, message });
      }
      this.#failed = true;
    }
  }

  /** HEAD moved: the graph of the branch checked out now (the session forgets its cached ref). */
  async #followHead(): Promise<void> {
    const next = await resolveProject(this.root, {
      project: this.#opts.project,
      branch: this.#opts.branch,
    });
    this.#session.forgetRefs();
    if (next.keys.graph === this.ref.keys.graph) {
      this.ref = next; // same branch, maybe a new commit
      return;
    }
    const from = this.ref.branch;
    // What was kept in memory for the branch left behind is reloaded if it comes back.
    dropResident(this.ref.keys.graph);
    this.#warmed.delete(this.ref.keys.graph);
    this.ref = next;
    log.debug(`watch: HEAD of ${this.root} moved from ${from} to ${next.branch}`);
    this.#opts.onUpdate?.({ kind: "branch", ref: next, from });
  }

  async #graphExists(): Promise<boolean> {
    const db = await this.#session.db();
    return (await db.command<number>(["EXISTS", this.ref.keys.graph])) === 1;
  }

  #wakeIdle(): void {
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const w of waiters) w();
  }

  // ---- health ---------------------------------------------------------------------------------

  async #healthCheck(): Promise<void> {
    if (this.#closed || this.busy) return;
    let ino: number | undefined;
    try {
      ino = (await Deno.stat(this.root)).ino ?? undefined;
    } catch {
      ino = undefined;
    }
    if (ino === undefined) {
      if (this.#fsWatchers.length) {
        log.debug(`watch: ${this.root} is gone; waiting for it to come back`);
        this.#stopFs();
      }
      this.#rootIno = undefined;
      return;
    }
    if (!this.#fsWatchers.length || ino !== this.#rootIno) {
      // Back (or replaced by a new folder of the same name): watch it again and catch up.
      await this.#startFs();
      this.#debounce.push([], [FLAG_HEAD]);
      return;
    }
    if (!this.active) return;
    try {
      if (this.#failed || !(await this.#graphExists())) {
        this.#failed = false;
        this.#debounce.push([], [FLAG_CHECK]);
      }
    } catch (err) {
      // The database is away: reconnect on the next check, then re-index what it lost.
      await this.#session.noteError(err);
      this.#failed = true;
    }
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await Deno.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

function isInsideDir(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

/** The repository's git directory (a worktree's own, under the main one), or undefined. */
async function gitDir(root: string): Promise<string | undefined> {
  try {
    const out = await new Deno.Command("git", {
      args: ["-C", root, "rev-parse", "--absolute-git-dir"],
      stdout: "piped",
      stderr: "null",
      env: { GIT_OPTIONAL_LOCKS: "0" },
    }).output();
    return out.success ? new TextDecoder().decode(out.stdout).trim() : undefined;
  } catch {
    return undefined;
  }
}
