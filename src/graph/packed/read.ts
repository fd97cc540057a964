/** Reading the packed encoding (see format.ts): values by their offsets. */
import { MAGIC, T_ARR, T_CONST, T_INT, T_NEG, T_NUM, T_OBJ, T_STR } from "./format.ts";

/**
 * `s` as a string of its own: V8 keeps a slice of a longer string as a view that holds the whole
 * of it alive; a concatenation, once read, is copied into one new string.
 */
function ownString(s: string): string {
  return (" " + s).slice(1);
}

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
