/**
 * How a graph's per-file facts are stored (the `_facts` hash): files in segments of a few hundred,
 * each segment one field holding its files' facts in the packed encoding (src/graph/packed.ts), so
 * a run that needs every file's facts reads about a third of what JSON took in one command and
 * decodes only what it reads. A file's definitions and the rest of its head are decoded when its
 * segment is loaded; its calls, imports, inheritance and type hints (most of its facts) when
 * something first reads them: resolving a one-file edit reads those of the few files it
 * re-resolves. What the repository's structure needs of every file's calls (the bare names passed
 * as arguments) is stored beside them.
 *
 * A segment's field value: `F1 <fingerprint> <index offset>\n<packed text>`. The packed values
 * are, per file, its head then its four lazy parts, and last the index: per file its path, its
 * hash, the offsets of its head, of each lazy part and of its end, and its bare argument names.
 * The fingerprint names how those names were computed (a cgraph that computes them otherwise reads
 * the calls instead).
 *
 * Segments are fields `s<n>`. A file's facts are those of an entry with its path and its current
 * hash (the `_files` hash), from the highest-numbered segment that has one: entries of files since
 * changed or removed are skipped. A full run writes one segment per batch of files as they are
 * parsed. An incremental run writes one new segment with the files it parsed, whatever segments
 * their older facts are in, so an edit writes what it changed; the same segment takes the live
 * files of segments that became mostly stale, or of the small ones once there are many, and those
 * are dropped: what is stored stays within a small factor of what is live.
 */
import { createHash } from "node:crypto";
import type { Db } from "../db/client.ts";
import type { CallFact, FileFacts, ImportFact, InheritFact, TypeHint } from "../graph/facts.ts";
import { PackedReader, Packer } from "../graph/packed.ts";
import { BARE_ARG_RULE, bareArgNames, knowBareArgNames } from "./resolve/structure.ts";

/** The parts of a file's facts decoded only when read. */
const LAZY = ["calls", "imports", "inherits", "hints"] as const;
const LAZY_KEYS: ReadonlySet<string> = new Set(LAZY);

/** Files per segment written by a full run. */
export const SEGMENT_FILES = 250;
/** Segments of fewer live files than this are merged once there are more than MAX_SMALL. */
const SMALL = SEGMENT_FILES / 2;
const MAX_SMALL = 8;

const FORMAT = "F1";

/** How bare argument names are computed: stored names are used only by the same computation. */
const FINGERPRINT = createHash("sha1").update(BARE_ARG_RULE).digest("hex").slice(0, 12);

/** Which segment holds each file's facts, and per segment its live files and its entries. */
export interface FactsLayout {
  segmentOf: Map<string, number>;
  live: Map<number, Set<string>>;
  /**
   * Some segment stores bare argument names by another rule (written by another cgraph): its
   * files' calls are read to compute them, and the next write rewrites every segment.
   */
  stale?: boolean;
  /** Entries a segment holds, live or not. */
  entries: Map<number, number>;
}

export function emptyLayout(): FactsLayout {
  return { segmentOf: new Map(), live: new Map(), entries: new Map() };
}

/** Records a segment just written, with these files (its entries). */
function record(layout: FactsLayout, segment: number, files: string[]): void {
  for (const p of files) {
    const was = layout.segmentOf.get(p);
    if (was !== undefined) layout.live.get(was)?.delete(p);
    layout.segmentOf.set(p, segment);
  }
  layout.live.set(segment, new Set(files));
  layout.entries.set(segment, files.length);
}

/**
 * A file's facts read from a segment: the lazy parts decoded when first read, and kept until
 * `release` (in private fields: an own property deleted again would leave the object's other
 * properties in a slower, larger dictionary). A part assigned is an own property from then on.
 */
class StoredFacts {
  readonly #reader: PackedReader;
  readonly #at: number[];
  #calls?: CallFact[];
  #imports?: ImportFact[];
  #inherits?: InheritFact[];
  #hints?: TypeHint[];

  constructor(reader: PackedReader, at: number[]) {
    this.#reader = reader;
    this.#at = at;
  }

  get calls(): CallFact[] {
    return this.#calls ??= this.#part(0) as CallFact[];
  }
  set calls(v: CallFact[]) {
    own(this, "calls", v);
  }
  get imports(): ImportFact[] {
    return this.#imports ??= this.#part(1) as ImportFact[];
  }
  set imports(v: ImportFact[]) {
    own(this, "imports", v);
  }
  get inherits(): InheritFact[] {
    return this.#inherits ??= this.#part(2) as InheritFact[];
  }
  set inherits(v: InheritFact[]) {
    own(this, "inherits", v);
  }
  get hints(): TypeHint[] {
    return this.#hints ??= this.#part(3) as TypeHint[];
  }
  set hints(v: TypeHint[]) {
    own(this, "hints", v);
  }

  /** Drops the decoded lazy parts (decoded again when next read). */
  release(): void {
    this.#calls =
      this.#imports =
      this.#inherits =
      this.#hints =
        undefined;
  }

  /** All of the facts, as JSON.stringify (and a spread of it) would see a plain object. */
  toJSON(): Record<string, unknown> {
    const out: Record<string, unknown> = { ...(this as object) };
    for (const key of LAZY) out[key] = this[key];
    return out;
  }

  /** Whether a string of these facts holds one of `names` (see mayMention). */
  holdsAny(names: ReadonlySet<string>): boolean {
    return this.#reader.holds(
      this.#at[0],
      this.#at[LAZY.length + 1],
      matching(this.#reader, names),
    );
  }

  #part(i: number): unknown {
    return this.#reader.at(this.#at[i + 1]);
  }
}

/**
 * Per segment: the set of names last looked for (a set that only grows while one search lasts),
 * the names of it already tested, and the table indexes of the strings holding one.
 */
const matches = new WeakMap<
  PackedReader,
  { names: ReadonlySet<string>; tried: Set<string>; ids: Set<number> }
>();

/** The table indexes of a segment's strings holding one of `names` (tested once per name). */
function matching(reader: PackedReader, names: ReadonlySet<string>): Set<number> {
  let m = matches.get(reader);
  if (!m || m.names !== names) matches.set(reader, m = { names, tried: new Set(), ids: new Set() });
  if (m.tried.size === names.size) return m.ids;
  const fresh: string[] = [];
  for (const n of names) {
    if (!m.tried.has(n)) {
      m.tried.add(n);
      fresh.push(n);
    }
  }
  const test = holdsOneOf(fresh);
  // Most segments hold none of the names: one search of the table's text says so. (Names JSON
  // would escape, surrogates among them, are looked for string by string.)
  if (fresh.some(escapedInJson) || test(reader.tableText)) {
    for (const id of reader.stringIds(test)) m.ids.add(id);
  }
  return m.ids;
}

/** Whether JSON.stringify writes a string otherwise than as it is (quotes, controls, surrogates). */
function escapedInJson(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return true;
  }
  return false;
}

/**
 * A test of whether a string holds one of `names` as a part: a regular expression of them all
 * (one pass over a string, not one per name), in groups past a few dozen names.
 */
function holdsOneOf(names: string[]): (s: string) => boolean {
  const escape = (n: string) => n.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
  const tests: RegExp[] = [];
  for (let i = 0; i < names.length; i += 48) {
    tests.push(new RegExp(names.slice(i, i + 48).map(escape).join("|")));
  }
  return tests.length === 1 ? (s) => tests[0].test(s) : (s) => tests.some((t) => t.test(s));
}

/** An own property shadowing the lazy getter: a part assigned. */
function own(f: object, key: string, value: unknown): void {
  Object.defineProperty(f, key, { value, writable: true, enumerable: true, configurable: true });
}

/** The facts as a segment stores them: the head, then the lazy parts; returns their offsets. */
function packFile(p: Packer, f: FileFacts): number[] {
  const at = [p.offset()];
  p.addObject(f, LAZY_KEYS);
  for (const key of LAZY) {
    at.push(p.offset());
    p.add(f[key]);
  }
  at.push(p.offset());
  return at;
}

/** One segment's field value: these files' facts. */
export function packSegment(files: Iterable<FileFacts>): string {
  const segment = new SegmentPacker();
  for (const f of files) segment.add(f);
  return segment.pack();
}

/**
 * A segment packed a file at a time: what a file adds is encoded at once, so the facts as parsed
 * need not be held until the segment is complete (a full run's 250 files of them, which the
 * collector copied at every young collection while they waited).
 */
export class SegmentPacker {
  readonly #p = new Packer();
  readonly #index: unknown[] = [];

  /** Files added so far. */
  get size(): number {
    return this.#index.length;
  }

  add(f: FileFacts): void {
    this.#index.push([f.path, f.hash, ...packFile(this.#p, f), bareArgNames(f)]);
  }

  /** The segment's text (packSegment's for the files added, in order). */
  pack(): string {
    const at = this.#p.offset();
    this.#p.add(this.#index);
    return `${FORMAT} ${FINGERPRINT} ${at}\n${this.#p.pack()}`;
  }
}

/** An index entry: path, hash, the offsets of the head, the lazy parts and the end, names. */
type Entry = [string, string, ...unknown[]];
const OFFSETS = 2;

/**
 * A segment's index (its entries' paths and hashes), and a reader of its files' facts; `searched`:
 * its strings will be searched (see mayMention), its table's text is kept for that.
 */
function openSegment(
  text: string,
  searched = false,
): { entries: Entry[]; file: (e: Entry) => FileFacts; current: boolean } {
  const nl = text.indexOf("\n");
  const [format, fingerprint, at] = text.slice(0, nl).split(" ");
  if (format !== FORMAT) throw new Error(`unknown facts format ${format}`);
  const reader = new PackedReader(text.slice(nl + 1), searched);
  const entries = reader.at(Number(at)) as Entry[];
  if (!Array.isArray(entries)) throw new Error("corrupt facts segment");
  const names = fingerprint === FINGERPRINT;
  const file = (e: Entry) => {
    const offsets = e.slice(OFFSETS, OFFSETS + LAZY.length + 2) as number[];
    const f = reader.at(offsets[0], new StoredFacts(reader, offsets)) as unknown as FileFacts;
    if (names) knowBareArgNames(f, e[OFFSETS + LAZY.length + 2] as string[]);
    return f;
  };
  return { entries, file, current: names };
}

/** The files of a segment's field value, in stored order (their lazy parts not decoded yet). */
export function unpackSegment(text: string): FileFacts[] {
  const { entries, file } = openSegment(text);
  return entries.map(file);
}

/**
 * Decodes every lazy part now (a long-lived process reads them all sooner or later: its first
 * edit then does not pay for it).
 */
export function decodeAll(facts: Iterable<FileFacts>): void {
  for (const f of facts) {
    if (f instanceof StoredFacts) { for (const key of LAZY) f[key]; }
  }
}

/**
 * Drops the decoded lazy parts of stored facts (decoded again when next read): a full run has
 * resolved the file and will mostly not read them again. Other facts are left as they are.
 */
export function releaseDecoded(f: FileFacts): void {
  if (f instanceof StoredFacts) f.release();
}

/**
 * Whether a file's facts may mention one of `names` (affected.ts): for stored facts, whether one
 * of their strings holds one as a part, read without decoding them (false means surely not);
 * undefined for other facts (the caller reads them).
 */
export function mayMention(f: FileFacts, names: ReadonlySet<string>): boolean | undefined {
  if (!(f instanceof StoredFacts)) return undefined;
  return f.holdsAny(names);
}

/**
 * The stored facts of the files of `hashes` (path to current hash), with the layout of the
 * segments; undefined when a file's facts are missing.
 */
export async function loadFacts(
  db: Db,
  key: string,
  hashes: ReadonlyMap<string, string>,
): Promise<{ facts: Map<string, FileFacts>; layout: FactsLayout } | undefined> {
  const raw = await db.hashGetAll(key);
  const layout = emptyLayout();
  const facts = new Map<string, FileFacts>();
  const segments: [number, string][] = [];
  for (const [field, text] of Object.entries(raw)) {
    if (!/^s\d+$/.test(field)) return undefined;
    segments.push([Number(field.slice(1)), text]);
  }
  // Newest first: a file's facts are those of the last segment with its current hash.
  segments.sort((a, b) => b[0] - a[0]);
  for (const [segment, text] of segments) {
    // An incremental run searches the strings of every segment for the names an edit changed.
    const { entries, file, current } = openSegment(text, true);
    if (!current) layout.stale = true;
    const live = new Set<string>();
    for (const e of entries) {
      const path = e[0];
      if (hashes.get(path) !== e[1] || facts.has(path)) continue;
      facts.set(path, file(e));
      live.add(path);
      layout.segmentOf.set(path, segment);
    }
    layout.live.set(segment, live);
    layout.entries.set(segment, entries.length);
  }
  return facts.size === hashes.size ? { facts, layout } : undefined;
}

/**
 * Writes what an incremental run changed: one new segment with the files of `changed` (added or
 * modified: their facts are in `facts`, which holds every file after the run), and with it the
 * live files of segments worth compacting, which are dropped. Files of `gone` (removed) just lose
 * their entries. Returns the layout after.
 */
export async function writeChanged(
  db: Db,
  key: string,
  before: FactsLayout | undefined,
  facts: ReadonlyMap<string, FileFacts>,
  changed: Iterable<string>,
  gone: Iterable<string>,
): Promise<FactsLayout> {
  if (!before || before.stale) return await writeAll(db, key, facts);
  const layout: FactsLayout = {
    segmentOf: new Map(before.segmentOf),
    live: new Map([...before.live].map(([s, paths]) => [s, new Set(paths)])),
    entries: new Map(before.entries),
  };
  for (const path of gone) {
    const was = layout.segmentOf.get(path);
    if (was !== undefined) layout.live.get(was)?.delete(path);
    layout.segmentOf.delete(path);
  }
  const files = new Set(changed);
  // Segments mostly stale, and the small ones once there are many: their live files move into
  // the new segment.
  const drop = new Set<number>();
  for (const [s, live] of layout.live) {
    const stale = [...live].filter((p) => files.has(p)).length;
    if ((live.size - stale) * 2 < (layout.entries.get(s) ?? 0)) drop.add(s);
  }
  const small = [...layout.live].filter(([s, live]) => !drop.has(s) && live.size < SMALL);
  if (small.length > MAX_SMALL) { for (const [s] of small) drop.add(s); }
  for (const s of drop) {
    for (const p of layout.live.get(s)!) files.add(p);
    layout.live.delete(s);
    layout.entries.delete(s);
  }
  const next = Math.max(-1, ...layout.entries.keys(), ...drop) + 1;
  const paths = [...files];
  record(layout, next, paths);
  if (paths.length) {
    await db.hashSet(key, { [`s${next}`]: packSegment(paths.map((p) => facts.get(p)!)) });
  } else {
    layout.live.delete(next);
    layout.entries.delete(next);
  }
  const fields = [...drop].map((s) => `s${s}`);
  if (fields.length) await db.command(["HDEL", key, ...fields]);
  return layout;
}

/** Writes every file's facts anew (the segments there were are dropped). */
export async function writeAll(
  db: Db,
  key: string,
  facts: ReadonlyMap<string, FileFacts>,
): Promise<FactsLayout> {
  const layout = emptyLayout();
  const paths = [...facts.keys()];
  const set: Record<string, string> = {};
  for (let i = 0, s = 0; i < paths.length; i += SEGMENT_FILES, s++) {
    const members = paths.slice(i, i + SEGMENT_FILES);
    record(layout, s, members);
    set[`s${s}`] = packSegment(members.map((p) => facts.get(p)!));
  }
  await db.command(["DEL", key]);
  await db.hashSet(key, set);
  return layout;
}

/** The layout of segments written one per batch, in order (what a full run writes). */
export class LayoutRecorder {
  readonly layout = emptyLayout();
  #next = 0;

  /** The field of the next batch's segment, recorded as holding these files. */
  next(files: string[]): string {
    const s = this.#next++;
    record(this.layout, s, files);
    return `s${s}`;
  }
}
