/**
 * What tool calls share, in the MCP server (long-lived) and in a CLI run (one call): the database
 * connection (opened on first use, dropped when it dies so the next call reconnects), the default
 * project (a path), which graph a call means, automatic first indexing, and staleness checks.
 */
import { resolve, sep } from "node:path";
import type { Db } from "../db/client.ts";
import { DbUnavailableError } from "../db/client.ts";
import { ensureDb } from "../db/ensure.ts";
import { preloadGraph } from "../db/graph.ts";
import { CgraphError, echo } from "../errors.ts";
import type { IndexSummary, Progress } from "../index/indexer.ts";
import { type GraphInfo, listCatalog, migrateOnce, readInfo } from "../project/catalog.ts";
import { gitHasRevision, type ProjectRef, resolveProject } from "../project/identity.ts";
import { displayName, type GraphKeys, keysFor, sanitizeName } from "../project/names.ts";
import { FILE_BY_PATH } from "../db/queries.ts";
import { touchGraph } from "../project/retention.ts";
import { GraphReader } from "./graph.ts";
import { log } from "../log.ts";

/** A graph's last use is recorded at most this often per server (for the per-project cap). */
const TOUCH_EVERY_MS = 60_000;
/** How long a tool call waits for an indexer of the same graph elsewhere (CLI, another server). */
const SERVER_LOCK_WAIT_MS = 60_000;
/** How long the default (project, branch) is kept when a watcher reports HEAD moves. */
const REF_TTL_WATCHED_MS = 30_000;
import { indexedSummary } from "./projects.ts";
import { checkStaleness, type Staleness, stalenessNote } from "./staleness.ts";

/** Arguments every tool takes. */
export interface ProjectArgs {
  project?: string;
  branch?: string;
  path?: string;
}

/** A model request through MCP sampling (ask): system prompt, conversation, output budget. */
export interface SampleRequest {
  system: string;
  messages: { role: "user" | "assistant"; text: string }[];
  maxTokens: number;
  timeoutMs: number;
}

/** Per-call hooks. */
export interface CallOptions {
  onProgress?: (p: Progress) => void;
  /** The MCP client's own model (sampling/createMessage), set when the client declared sampling. */
  sample?: (req: SampleRequest) => Promise<string>;
  /** The MCP client (its clientInfo), recorded with notes; absent on the command line. */
  client?: { name: string; version?: string };
}

export interface Target {
  project: string;
  branch: string;
  keys: GraphKeys;
  info: GraphInfo;
  root?: string;
  reader: GraphReader;
  /** Header notes: automatic indexing, staleness. */
  notes: string[];
  staleness?: Staleness;
  /** Set when this call indexed the project first. */
  indexed?: IndexSummary;
}

export interface SessionOptions {
  /** The default project: a path (the MCP server's argument, the CLI's -C or cwd). */
  defaultPath: string;
  /** Default project / branch names for that path. */
  project?: string;
  branch?: string;
  /** Index a project on first use (CODE_GRAPH_AUTO_INDEX, default true). */
  autoIndex?: boolean;
  /** How to get a database (tests may pass their own). */
  connect?: () => Promise<Db>;
  /** Keep staleness answers this long (ms); 0 in a one-shot CLI run. */
  cacheMs?: number;
  /**
   * The HTTP server's roots (`--root`): a `path` argument must lie inside one of them (or be the
   * root of a project already in the catalogue). Unset: any path (stdio, the CLI).
   */
  roots?: string[];
  /** Keep indexed state in memory between runs (a long-lived server; see IndexOptions.resident). */
  resident?: boolean;
  /** Keeps graphs current as files change (src/watch/), made once the session exists. */
  freshness?: (session: Session) => Freshness;
}

/**
 * What keeps graphs current in a long-lived server (src/watch/ implements it): the session tells it
 * which projects it serves, and asks it before answering whether a graph is being updated.
 */
export interface Freshness {
  /** A graph of this repository exists now (found or just indexed): keep it current. */
  watch(ref: ProjectRef): void;
  /**
   * For a graph kept current: waits for an update under way (up to a short deadline) and returns
   * the header note to add ("" when current). Undefined for a graph nobody keeps current.
   */
  settle(graph: string): Promise<string | undefined>;
  close(): Promise<void>;
}

export function autoIndexFromEnv(): boolean {
  const raw = (Deno.env.get("CODE_GRAPH_AUTO_INDEX") ?? "").trim().toLowerCase();
  return !["false", "0", "no", "off"].includes(raw);
}

export class Session {
  #db: Promise<Db> | undefined;
  #indexing = new Map<string, Promise<IndexSummary>>();
  #stale = new Map<string, { at: number; key: string; value: Staleness | undefined }>();
  #defaultRef = new Map<string, { at: number; ref: Promise<ProjectRef> }>();
  #touched = new Map<string, number>();
  readonly autoIndex: boolean;
  readonly freshness: Freshness | undefined;

  constructor(readonly opts: SessionOptions) {
    this.autoIndex = opts.autoIndex ?? autoIndexFromEnv();
    this.freshness = opts.freshness?.(this);
  }

  /** The database, connected on first use. */
  db(): Promise<Db> {
    if (!this.#db) {
      preloadGraph(); // every call of a session queries a graph
      const connect = this.opts.connect ?? (() => ensureDb({ quiet: true }));
      // Graphs named by an earlier scheme are renamed once per connection (no re-index).
      const p = connect().then(async (db) => {
        await migrateOnce(db).catch((err) => log.warn(`renaming old graph names: ${err}`));
        return db;
      });
      this.#db = p;
      p.catch(() => {
        if (this.#db === p) this.#db = undefined;
      });
    }
    return this.#db.then((db) => {
      if (!db.closed) return db;
      this.#db = undefined;
      return this.db();
    });
  }

  /** After a failure: a lost connection is dropped, so the next call connects again. */
  async noteError(err: unknown): Promise<void> {
    // Only a dead connection is dropped (the next call reconnects); refusals keep it.
    if (!(err instanceof DbUnavailableError)) return;
    const p = this.#db;
    this.#db = undefined;
    if (p) await p.then((db) => db.close()).catch(() => {});
  }

  async close(): Promise<void> {
    await this.freshness?.close().catch(() => {});
    const p = this.#db;
    this.#db = undefined;
    if (p) await p.then((db) => db.close()).catch(() => {});
  }

  /** Forgets the cached default (project, branch): HEAD moved. */
  forgetRefs(): void {
    this.#defaultRef.clear();
  }

  /** The default path's (project, branch), cached briefly (each resolution runs git). */
  defaultRef(branch?: string): Promise<ProjectRef> {
    const key = branch ?? "";
    const hit = this.#defaultRef.get(key);
    const now = Date.now();
    // Kept longer while a watcher follows HEAD (it calls forgetRefs when HEAD moves).
    const ttl = this.freshness ? REF_TTL_WATCHED_MS : (this.opts.cacheMs ?? 2000);
    if (hit && now - hit.at < ttl) return hit.ref;
    const ref = resolveProject(this.opts.defaultPath, {
      project: this.opts.project,
      branch: branch ?? this.opts.branch,
    });
    this.#defaultRef.set(key, { at: now, ref });
    ref.catch(() => this.#defaultRef.delete(key));
    return ref;
  }

  /** Which project a call's arguments mean, as a ref when it comes from a path. */
  async refFor(args: ProjectArgs): Promise<ProjectRef | { project: string; branch: string }> {
    const ref = await this.refForUnchecked(args);
    if (args.branch && "root" in ref) await this.checkBranch(ref, args.branch);
    return ref;
  }

  /**
   * A `branch` argument must name a graph that exists, or a branch, tag or commit the repository
   * has: any other string would build a whole new graph (a way to fill the database).
   */
  async checkBranch(ref: ProjectRef, branch: string): Promise<void> {
    if (await (await this.db()).graphExists(ref.keys.graph)) return;
    if (await gitHasRevision(ref.root, branch)) return;
    throw new CgraphError(
      `No branch, tag or commit '${echo(branch)}' in ${ref.root}${
        ref.commit ? "" : " (not a git repository: only its indexed branches can be named)"
      }.`,
      "Leave branch out for the checked-out one, or name one the repository has.",
    );
  }

  /**
   * A path outside the server's roots is refused before anything touches it (no stat, so no
   * answer says whether it exists), unless it is the root of a project already indexed here. A
   * path inside a root whose real location (symlinks followed) is outside is refused too.
   */
  async checkRoots(path: string): Promise<void> {
    const roots = this.opts.roots ?? [];
    const abs = resolve(path);
    const inside = (p: string, rs: string[]) =>
      rs.some((r) => p === r || p.startsWith(r.endsWith(sep) ? r : r + sep));
    if (inside(abs, roots)) {
      const real = await Deno.realPath(abs).catch(() => undefined);
      const realRoots = await Promise.all(roots.map((r) => Deno.realPath(r).catch(() => r)));
      if (real === undefined || inside(real, realRoots)) return;
    } else {
      const { graphs } = await listCatalog(await this.db());
      if (graphs.some((g) => g.root !== undefined && resolve(g.root) === abs)) return;
    }
    throw new CgraphError(
      `Path '${echo(path)}' is outside the roots this server serves (${roots.join(", ")}).`,
      "Pass a path inside one of them, or a project already indexed here (list_projects); the server's operator adds roots with 'cgraph mcp --http --root <dir>'.",
    );
  }

  async refForUnchecked(
    args: ProjectArgs,
  ): Promise<ProjectRef | { project: string; branch: string }> {
    if (args.path) {
      if (this.opts.roots) await this.checkRoots(args.path);
      const ref = await resolveProject(args.path, { project: args.project, branch: args.branch });
      if (args.project || !this.opts.project) return ref;
      // The default repository named by path keeps the default project name.
      const def = await this.defaultRef(args.branch).catch(() => undefined);
      return def && def.root === ref.root ? def : ref;
    }
    if (!args.project) return await this.defaultRef(args.branch);
    const project = sanitizeName(args.project);
    const def = await this.defaultRef(args.branch).catch(() => undefined);
    if (def && def.project === project) return def;
    if (args.branch) return { project, branch: sanitizeName(args.branch) };
    const { graphs, unreachable } = await listCatalog(await this.db());
    const branches = graphs.filter((g) => g.project === project).map((g) => g.branch);
    if (branches.length === 1) return { project, branch: branches[0] };
    if (branches.length > 1) {
      throw new CgraphError(
        `Project '${args.project}' is indexed on several branches: ${
          branches.map(displayName).join(", ")
        }.`,
        "Pass branch to choose one.",
      );
    }
    if (unreachable.length) throw unreachableError(args.project, unreachable);
    throw new CgraphError(
      `Project '${args.project}' is not indexed. Indexed: ${indexedSummary(named(graphs))}.`,
      "Pass one of those as project, or call index_repo with path=<repository root> to index it.",
    );
  }

  /**
   * The graph a call reads, indexed first when it does not exist yet and comes from a path (and
   * auto-indexing is on); otherwise an error saying what is indexed and what to do.
   */
  async target(args: ProjectArgs, call: CallOptions = {}): Promise<Target> {
    const db = await this.db();
    const ref = await this.refFor(args);
    const keys = keysFor(ref.project, ref.branch);
    const notes: string[] = [];
    let indexed: IndexSummary | undefined;
    if (!(await db.graphExists(keys.graph))) {
      const what = `'${displayName(ref.project)}' (branch ${displayName(ref.branch)})`;
      if (!isRef(ref)) {
        const catalog = await listCatalog(db);
        if (catalog.unreachable.length) throw unreachableError(ref.project, catalog.unreachable);
        const graphs = named(catalog.graphs);
        throw new CgraphError(
          `Project ${what} is not indexed. Indexed: ${indexedSummary(graphs)}.`,
          "Pass one of those as project/branch, or call index_repo with path=<repository root>.",
        );
      }
      if (!this.autoIndex) {
        throw new CgraphError(
          `Project ${what} at ${ref.root} is not indexed yet (automatic indexing is off).`,
          "Call index_repo first (CLI: cgraph index <path>).",
        );
      }
      indexed = await this.index(ref, { onProgress: call.onProgress });
      notes.push(`indexed now (first use): ${plural(indexed.files.scanned, "file")}`);
    }
    // A graph kept current needs no staleness check: an update under way is waited for instead.
    let updating: string | undefined;
    if (this.freshness && isRef(ref) && !args.branch) {
      this.freshness.watch(ref);
      updating = await this.freshness.settle(keys.graph);
    }
    const info = (await readInfo(db, ref.project, ref.branch)) ??
      { project: ref.project, branch: ref.branch, graph: keys.graph };
    if (!indexed) await this.touch(db, keys);
    const staleness = indexed || updating !== undefined
      ? undefined
      : await this.staleness(db, info);
    const note = updating || stalenessNote(staleness);
    if (note) notes.push(note);
    return {
      project: ref.project,
      branch: ref.branch,
      keys,
      info,
      root: info.root ?? (isRef(ref) ? ref.root : undefined),
      reader: new GraphReader(db, keys.graph),
      notes,
      staleness,
      indexed,
    };
  }

  /** Indexes a project; concurrent calls for one graph share one run. */
  async index(
    ref: ProjectRef,
    opts: {
      full?: boolean;
      onProgress?: (p: Progress) => void;
      resident?: boolean;
      changed?: string[];
    } = {},
  ): Promise<IndexSummary> {
    const running = this.#indexing.get(ref.keys.graph);
    if (running) return await running;
    // Registered before any await, so a concurrent call (another MCP session) joins this run.
    // The indexer loads on first use: a question to an indexed graph never needs it.
    const p = this.db().then(async (db) =>
      // An indexer elsewhere (the CLI, another server) is waited for a while, not failed on.
      (await import("../index/indexer.ts")).indexProject(db, ref, {
        full: opts.full,
        onProgress: opts.onProgress,
        resident: opts.resident ?? this.opts.resident,
        changed: opts.changed,
        waitMs: SERVER_LOCK_WAIT_MS,
        onLock: (message) => log.info(message),
      })
    );
    this.#indexing.set(ref.keys.graph, p);
    try {
      return await p;
    } finally {
      this.#indexing.delete(ref.keys.graph);
      this.#stale.clear();
    }
  }

  /** Records a use of a graph for the per-project cap (LRU), at most once a minute per graph. */
  async touch(db: Db, keys: GraphKeys): Promise<void> {
    const now = Date.now();
    if (now - (this.#touched.get(keys.graph) ?? 0) < TOUCH_EVERY_MS) return;
    this.#touched.set(keys.graph, now);
    await touchGraph(db, keys).catch((err) => log.debug(`touch ${keys.graph}: ${err}`));
  }

  /** Loads a graph's stored state into memory for the next resident run (see warmResident). */
  async warm(ref: ProjectRef): Promise<boolean> {
    const { warmResident } = await import("../index/indexer.ts");
    return await warmResident(await this.db(), ref);
  }

  /** Whether a project's graph has a File node for `path`. */
  async inGraph(ref: ProjectRef, path: string): Promise<boolean> {
    const db = await this.db();
    if (!(await db.graphExists(ref.keys.graph))) return false;
    const reader = new GraphReader(db, ref.keys.graph);
    return (await reader.rows(FILE_BY_PATH, { path })).length > 0;
  }

  async staleness(db: Db, info: GraphInfo): Promise<Staleness | undefined> {
    const key = `${info.indexed_at ?? ""}|${info.stat_digest ?? ""}`;
    const hit = this.#stale.get(info.graph);
    const now = Date.now();
    if (hit && hit.key === key && now - hit.at < (this.opts.cacheMs ?? 2000)) return hit.value;
    const value = await checkStaleness(db, info).catch(() => undefined);
    this.#stale.set(info.graph, { at: now, key, value });
    return value;
  }
}

function unreachableError(project: string, nodes: string[]): CgraphError {
  return new CgraphError(
    `Project '${displayName(project)}' was not found on the FalkorDB cluster nodes that answered; ${
      nodes.length === 1 ? "node" : "nodes"
    } ${nodes.join(", ")} did not answer and may hold it.`,
    "Restart the node (or fail over to a replica), then try again; projects on other nodes still answer.",
  );
}

function isRef(r: ProjectRef | { project: string; branch: string }): r is ProjectRef {
  return "root" in r;
}

function named(graphs: GraphInfo[]): { project: string; branch: string }[] {
  return graphs.map((g) => ({ project: displayName(g.project), branch: displayName(g.branch) }));
}

function plural(n: number, one: string): string {
  return `${n} ${n === 1 ? one : `${one}s`}`;
}
