/** Writing the packed encoding (see format.ts). */
import { MAGIC, T_ARR, T_CONST, T_INT, T_NEG, T_NUM, T_OBJ, T_STR } from "./format.ts";

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

function varint(n: number): string {
  let s = "";
  while (n >= 64) {
    s += String.fromCharCode(0x40 + (n % 64));
    n = Math.floor(n / 64);
  }
  return s + String.fromCharCode(n);
}
