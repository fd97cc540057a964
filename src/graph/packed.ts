/**
 * A compact text encoding of JSON-like values (what JSON.stringify keeps: objects, arrays,
 * strings, finite numbers, booleans, null), for data stored in bulk and read back often: every
 * distinct string once (a table, as JSON), every object's keys once per distinct key list (a
 * shape), the rest a stream of small integers written 6 bits to an ASCII character. Any value can
 * be read on its own, by its offset in the stream (`Packer.offset()` before adding it), so a
 * reader decodes the parts it needs and leaves the rest as text. Decoding builds each object with
 * a function made for its shape (an object literal: V8 gives objects of one shape one hidden
 * class, as JSON.parse does), and equal strings are one string.
 *
 * `PackedReader.at(offset)` deep-equals `JSON.parse(JSON.stringify(v))` for the value `v` added
 * there, for any value JSON accepts (undefined properties left out, non-finite numbers as null,
 * key order kept, toJSON applied).
 *
 * Layout: `P1 <length of the table's JSON>\n<table JSON><shapes><values>`. The shapes are a count,
 * then per shape its key count and key string indexes. A value is one integer
 * `payload * 8 + tag`, then what the tag says follows:
 *   0 int `payload`, 1 int `-payload - 1`, 2 string `table[payload]`, 3 array of `payload` values,
 *   4 object of shape `payload` (its values follow in key order), 5 false / true / null
 *   (payload 0 / 1 / 2), 6 another number, `Number(table[payload])`.
 * An integer is written in 6-bit groups, lowest first, as characters 0x40 + group while more
 * follow and 0x00 + group for the last (so the text is ASCII, and binary safe as a Redis value).
 */

const MAGIC = "P1 ";

const T_INT = 0;
const T_NEG = 1;
const T_STR = 2;
const T_ARR = 3;
const T_OBJ = 4;
const T_CONST = 5;
const T_NUM = 6;

/** Strings longer than this are not looked for among those already in the table. */
const LONG = 22;

/** Above this, integers are written as numbers in the table (a payload stays a safe integer). */
const MAX_INLINE = 2 ** 40;

interface ShapeNode {
  id: number;
  next: Map<string, ShapeNode> | undefined;
}

export class Packer {
  private readonly strings = new Map<string, number>();
  private readonly table: string[] = [];
  private readonly shapes: ShapeNode = { id: -1, next: undefined };
  private readonly shapeKeys: number[][] = [];
  private buf = new Uint8Array(1 << 14);
  private len = 0;

  /** Where the next value added starts (what `PackedReader.at` takes). */
  offset(): number {
    return this.len;
  }

  /** Appends a value. */
  add(value: unknown): void {
    this.value(value);
  }

  /** Appends an object's own properties but some (its toJSON, if any, is not called). */
  addObject(o: object, skip: ReadonlySet<string>): void {
    this.object(o as Record<string, unknown>, skip);
  }

  /** The encoded text of every value added. */
  pack(): string {
    let head = "";
    const h = (n: number) => (head += varint(n));
    h(this.shapeKeys.length);
    for (const keys of this.shapeKeys) {
      h(keys.length);
      for (const k of keys) h(k);
    }
    const table = JSON.stringify(this.table);
    return `${MAGIC}${table.length}\n${table}${head}${
      ascii.decode(this.buf.subarray(0, this.len))
    }`;
  }

  private emit(n: number): void {
    if (this.len + 8 > this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2);
      bigger.set(this.buf);
      this.buf = bigger;
    }
    const buf = this.buf;
    if (n < 0x80000000) {
      while (n >= 64) {
        buf[this.len++] = 0x40 | (n & 63);
        n >>>= 6;
      }
    } else {
      while (n >= 64) {
        buf[this.len++] = 0x40 | (n % 64);
        n = Math.floor(n / 64);
      }
    }
    buf[this.len++] = n;
  }

  private str(s: string): number {
    // Long strings (ids, signatures, docs) are seldom equal: hashing them costs more than it saves.
    if (s.length > LONG) {
      this.table.push(s);
      return this.table.length - 1;
    }
    let i = this.strings.get(s);
    if (i === undefined) {
      i = this.table.length;
      this.table.push(s);
      this.strings.set(s, i);
    }
    return i;
  }

  private value(v: unknown): void {
    switch (typeof v) {
      case "string":
        this.emit(this.str(v) * 8 + T_STR);
        return;
      case "number":
        if (Number.isInteger(v) && v < MAX_INLINE && v > -MAX_INLINE && !Object.is(v, -0)) {
          this.emit(v >= 0 ? v * 8 + T_INT : (-v - 1) * 8 + T_NEG);
        } else if (Number.isFinite(v)) this.emit(this.str(JSON.stringify(v)) * 8 + T_NUM);
        else this.emit(2 * 8 + T_CONST);
        return;
      case "boolean":
        this.emit((v ? 1 : 0) * 8 + T_CONST);
        return;
      case "object":
        if (v === null) this.emit(2 * 8 + T_CONST);
        else if (Array.isArray(v)) {
          this.emit(v.length * 8 + T_ARR);
          // As JSON: an item it cannot hold (undefined, a function) is null.
          for (let i = 0; i < v.length; i++) {
            const item = v[i];
            this.value(
              item === undefined || typeof item === "function" || typeof item === "symbol"
                ? null
                : item,
            );
          }
        } else this.object(v as Record<string, unknown>);
        return;
      case "bigint":
        throw new TypeError("cannot pack a bigint");
      default:
        // undefined, a function or a symbol at the top: as JSON.stringify([x]), a null.
        this.emit(2 * 8 + T_CONST);
    }
  }

  private object(o: Record<string, unknown>, skip?: ReadonlySet<string>): void {
    if (!skip && typeof (o as { toJSON?: unknown }).toJSON === "function") {
      return this.value((o as { toJSON: () => unknown }).toJSON());
    }
    // One pass: the keys JSON keeps (kept in place), their values, and the shape they make.
    const keys = Object.keys(o);
    const values: unknown[] = new Array(keys.length);
    let n = 0;
    let node = this.shapes;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const v = o[k];
      if (v === undefined || typeof v === "function" || typeof v === "symbol" || skip?.has(k)) {
        continue;
      }
      keys[n] = k;
      values[n++] = v;
      let next = node.next?.get(k);
      if (!next) {
        next = { id: -1, next: undefined };
        (node.next ??= new Map()).set(k, next);
      }
      node = next;
    }
    if (node.id < 0) {
      node.id = this.shapeKeys.length;
      this.shapeKeys.push(keys.slice(0, n).map((k) => this.str(k)));
    }
    this.emit(node.id * 8 + T_OBJ);
    for (let i = 0; i < n; i++) this.value(values[i]);
  }
}

const ascii = new TextDecoder();

/**
 * `s` as a string of its own: V8 keeps a slice of a longer string as a view that holds the whole
 * of it alive; a concatenation, once read, is copied into one new string.
 */
function ownString(s: string): string {
  return (" " + s).slice(1);
}

function varint(n: number): string {
  let s = "";
  while (n >= 64) {
    s += String.fromCharCode(0x40 + (n % 64));
    n = Math.floor(n / 64);
  }
  return s + String.fromCharCode(n);
}

// ---- reading ------------------------------------------------------------------------------------

/** Object builders by key list, shared by every reader: each is compiled once. */
const builders = new Map<string, (v: () => unknown) => unknown>();

function builder(keys: string[]): (v: () => unknown) => unknown {
  const id = keys.join("\0");
  let make = builders.get(id);
  if (!make) {
    if (keys.includes("__proto__")) {
      make = (v) => {
        const o: Record<string, unknown> = {};
        for (const k of keys) {
          Object.defineProperty(o, k, {
            value: v(),
            writable: true,
            enumerable: true,
            configurable: true,
          });
        }
        return o;
      };
    } else {
      const body = keys.map((k) => `${JSON.stringify(k)}: v()`).join(", ");
      make = new Function("v", `return {${body}};`) as (v: () => unknown) => unknown;
    }
    builders.set(id, make);
  }
  return make;
}

// The reader being decoded (module state: decoding is synchronous and never nested across readers).
let text = "";
let pos = 0;
let table: string[] = [];
let makers: ((v: () => unknown) => unknown)[] = [];
/** Short arrays already read, per length, by their encoding (see `array`); null: none shared. */
let shared: Map<string, unknown[]>[] | null = null;
/** The longest array shared. */
const SHARED_MAX = 4;

function int(): number {
  let c = text.charCodeAt(pos++);
  if (c < 0x40) return c;
  let n = c - 0x40;
  let shift = 6;
  for (;;) {
    c = text.charCodeAt(pos++);
    if (c < 0x40) return shift < 26 ? n | (c << shift) : n + c * 2 ** shift;
    n = shift < 26 ? n | ((c - 0x40) << shift) : n + (c - 0x40) * 2 ** shift;
    shift += 6;
  }
}

function value(): unknown {
  const v = int();
  const tag = v & 7;
  const payload = v < 0x80000000 ? v >>> 3 : Math.floor(v / 8);
  switch (tag) {
    case T_INT:
      return payload;
    case T_STR:
      return table[payload];
    case T_OBJ:
      return makers[payload](value);
    case T_ARR:
      return array(payload);
    case T_CONST:
      return payload === 0 ? false : payload === 1 ? true : null;
    case T_NEG:
      // Not `-payload - 1`: `-0` is a heap number, and so would be the -1 made from it (and every
      // field it is stored in would then hold numbers boxed: `parent: -1` in every definition).
      return -1 - payload;
    case T_NUM:
      return Number(table[payload]);
    default:
      throw new Error(`corrupt packed text at ${pos}`);
  }
}

/**
 * The next `n` values as an array. While `shared` is set (a head being read, see
 * `PackedReader.at`), a short array of strings and numbers is one frozen array per reader for
 * every place that encodes it alike: the parameter counts, names and types of a file's definitions
 * repeat across its segment, and each such array costs 50 to 70 bytes.
 */
function array(n: number): unknown[] {
  if (!shared || n > SHARED_MAX) return items(n);
  const start = pos;
  const a = items(n);
  for (let i = 0; i < n; i++) if (typeof a[i] === "object") return a;
  const span = text.slice(start, pos);
  const known = shared[n].get(span);
  if (known) return known;
  shared[n].set(span, Object.freeze(a) as unknown[]);
  return a;
}

/**
 * An array of the next `n` values, of exactly that size: pushing onto an empty array reserves room
 * for 17 items, which for the many short arrays of facts (parameters, types) costs more memory
 * than their items. Literals evaluate in order.
 */
function items(n: number): unknown[] {
  switch (n) {
    case 0:
      return [];
    case 1:
      return [value()];
    case 2:
      return [value(), value()];
    case 3:
      return [value(), value(), value()];
    case 4:
      return [value(), value(), value(), value()];
    case 5:
      return [value(), value(), value(), value(), value()];
    case 6:
      return [value(), value(), value(), value(), value(), value()];
    default: {
      const a: unknown[] = [value(), value(), value(), value(), value(), value(), value()];
      for (let i = 7; i < n; i++) a.push(value());
      return a;
    }
  }
}

/** Reads the values of a `Packer.pack()` text by their offsets. */
export class PackedReader {
  /** The values' part only (the table's JSON, decoded, is not kept: see `tableText`). */
  private readonly text: string;
  private readonly table: string[];
  private readonly makers: ((v: () => unknown) => unknown)[] = [];
  private readonly shapeKeys: string[][] = [];
  #tableText?: string;
  /** The short arrays of heads read so far (see `array`). */
  #shared?: Map<string, unknown[]>[];

  /**
   * @param keepTable keep the table's JSON (a reader whose strings will be searched, see
   *   `tableText`), else it is written again when first asked for
   */
  constructor(packed: string, keepTable = false) {
    if (!packed.startsWith(MAGIC)) throw new Error("not a packed text");
    const nl = packed.indexOf("\n", MAGIC.length);
    const tableLength = Number(packed.slice(MAGIC.length, nl));
    const tableEnd = nl + 1 + tableLength;
    if (!(nl > 0) || !Number.isInteger(tableLength) || tableEnd > packed.length) {
      throw new Error("corrupt packed text: its header");
    }
    this.table = JSON.parse(packed.slice(nl + 1, tableEnd)) as string[];
    const saved = save();
    let base: number;
    try {
      text = packed;
      pos = tableEnd;
      table = this.table;
      for (let s = int(); s > 0; s--) {
        const keys: string[] = [];
        for (let k = int(); k > 0; k--) keys.push(this.table[int()]);
        this.shapeKeys.push(keys);
        this.makers.push(builder(keys));
      }
      base = pos;
    } finally {
      restore(saved);
    }
    // The table's JSON is most of a packed text (60% of a facts segment) and the decoded table
    // holds every string of it: only the values are kept, as a string of their own.
    this.text = ownString(packed.slice(base));
    if (keepTable) this.#tableText = ownString(packed.slice(nl + 1, tableEnd));
  }

  /** Length of the values' part (offsets are below it). */
  get length(): number {
    return this.text.length;
  }

  /**
   * The value that starts at `offset`. With `into`, an object value's properties are set on
   * `into` (in its key order), which is returned; its short arrays of strings and numbers are
   * frozen, and shared with other heads of this reader that hold an equal one.
   */
  at(offset: number, into?: object): unknown {
    const saved = save();
    try {
      text = this.text;
      table = this.table;
      makers = this.makers;
      pos = offset;
      let v: unknown;
      shared = into
        ? this.#shared ??= Array.from({ length: SHARED_MAX + 1 }, () => new Map())
        : null;
      if (into) {
        const head = int();
        if ((head & 7) !== T_OBJ) throw new Error("corrupt packed text: not an object");
        const target = into as Record<string, unknown>;
        for (const k of this.shapeKeys[head >>> 3]) target[k] = value();
        v = into;
      } else v = value();
      if (pos > this.text.length) throw new Error("corrupt packed text: past its end");
      return v;
    } finally {
      restore(saved);
    }
  }

  /**
   * The string table as stored (JSON): a text search that finds nothing there finds nothing in
   * any string (for text JSON does not escape). Kept if asked for, else written again when first
   * asked for, and kept from then on.
   */
  get tableText(): string {
    return this.#tableText ??= JSON.stringify(this.table);
  }

  /** The table indexes of the strings `test` accepts. */
  stringIds(test: (s: string) => boolean): Set<number> {
    const out = new Set<number>();
    for (let i = 0; i < this.table.length; i++) if (test(this.table[i])) out.add(i);
    return out;
  }

  /** Whether a string of `ids` (table indexes) is among the values between two offsets. */
  holds(from: number, to: number, ids: ReadonlySet<number>): boolean {
    if (!ids.size) return false;
    const saved = save();
    try {
      text = this.text;
      pos = from;
      const end = to;
      while (pos < end) {
        const v = int();
        if ((v & 7) === T_STR && ids.has(v < 0x80000000 ? v >>> 3 : Math.floor(v / 8))) return true;
      }
      return false;
    } finally {
      restore(saved);
    }
  }
}

type Saved = [
  string,
  number,
  string[],
  ((v: () => unknown) => unknown)[],
  Map<string, unknown[]>[] | null,
];

function save(): Saved {
  return [text, pos, table, makers, shared];
}

function restore(s: Saved): void {
  [text, pos, table, makers, shared] = s;
}
