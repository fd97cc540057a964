/**
 * The watches of a long-lived server (`cgraph mcp`, stdio or HTTP): one ProjectWatcher per
 * repository it serves (the default one from the start, others once a call names them), and the
 * session's Freshness hook: a call on a watched graph waits for an update under way, up to
 * CGRAPH_WATCH_WAIT_MS (default 2,000 ms), then answers with a note saying the graph is updating.
 */
import { describeError } from "../errors.ts";
import { log } from "../log.ts";
import type { ProjectRef } from "../project/identity.ts";
import { displayName } from "../project/names.ts";
import type { Freshness, Session } from "../query/session.ts";
import { envMs, watchEnabled } from "./debounce.ts";
import { ProjectWatcher, type WatchOptions } from "./project.ts";

/** How long a folder the system refused to watch is left unwatched before another try. */
const RETRY_REFUSED_MS = 5 * 60_000;

export class Watches implements Freshness {
  #byRoot = new Map<string, ProjectWatcher>();
  #closed = false;
  readonly waitMs: number;

  constructor(readonly session: Session, readonly opts: WatchOptions & { waitMs?: number } = {}) {
    this.waitMs = opts.waitMs ?? envMs("CGRAPH_WATCH_WAIT_MS", 2000);
  }

  /** Starts watching the session's default repository (its graph is updated once it exists). */
  async watchDefault(): Promise<void> {
    try {
      const ref = await this.session.defaultRef();
      this.#add(ref, { project: this.session.opts.project, branch: this.session.opts.branch });
    } catch (err) {
      log.debug(`watch: not watching ${this.session.opts.defaultPath}: ${describeError(err)}`);
    }
  }

  watch(ref: ProjectRef): void {
    const w = this.#byRoot.get(ref.root);
    if (w) {
      if (w.ref.keys.graph === ref.keys.graph) w.active = true;
      return;
    }
    const added = this.#add(ref, { project: displayName(ref.project) });
    if (added) added.active = true;
  }

  async settle(graph: string): Promise<string | undefined> {
    for (const w of this.#byRoot.values()) {
      if (w.active && w.ref.keys.graph === graph) return (await w.settle(this.waitMs)) ?? "";
    }
    return undefined;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const all = [...this.#byRoot.values()];
    this.#byRoot.clear();
    await Promise.all(all.map((w) => w.close()));
  }

  #add(ref: ProjectRef, pinned: { project?: string; branch?: string }) {
    if (this.#closed || this.#byRoot.has(ref.root)) return undefined;
    // A folder the system refused to watch (inotify limits) is tried again after a while only.
    const refused = this.#refused.get(ref.root);
    if (refused !== undefined && Date.now() - refused < RETRY_REFUSED_MS) return undefined;
    const w = new ProjectWatcher(this.session, ref, { ...this.opts, ...pinned });
    this.#byRoot.set(ref.root, w);
    w.start().catch((err) => {
      log.warn(
        `watch: cannot watch ${ref.root} (its graph keeps the staleness header): ${
          describeError(err)
        }`,
      );
      this.#refused.set(ref.root, Date.now());
      if (this.#byRoot.get(ref.root) === w) this.#byRoot.delete(ref.root);
      void w.close();
    });
    return w;
  }

  #refused = new Map<string, number>();
}

/**
 * The session options' `freshness` factory for a server: watching unless CODE_GRAPH_WATCH=false,
 * starting with the default repository.
 */
export function serverFreshness(): ((session: Session) => Freshness) | undefined {
  if (!watchEnabled()) return undefined;
  return (session) => {
    const watches = new Watches(session);
    // After the constructor returns (the session's fields are set by then).
    queueMicrotask(() => void watches.watchDefault());
    return watches;
  };
}
