/**
 * The Redis protocol as cgraph speaks it (RESP2): commands encoded as arrays of bulk strings, a
 * streaming reply parser, and a raw connection that never outlives a deadline (probing an address,
 * asking Sentinels). The connection every database call goes through is redis.ts.
 */

const enc = new TextEncoder();
const dec = new TextDecoder();

/** A command's argument: text (sent as UTF-8) or bytes (sent as they are). */
export type Arg = string | Uint8Array;

/** A command as a RESP array of bulk strings (lengths in bytes, so any UTF-8 text is safe). */
export function encodeCommand(args: readonly Arg[]): Uint8Array {
  const parts: Uint8Array[] = [enc.encode(`*${args.length}\r\n`)];
  let size = parts[0].length;
  for (const a of args) {
    const bytes = typeof a === "string" ? enc.encode(a) : a;
    const head = enc.encode(`$${bytes.length}\r\n`);
    parts.push(head, bytes, CRLF);
    size += head.length + bytes.length + 2;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const CRLF = new Uint8Array([13, 10]);

/** One reply: strings are UTF-8 decoded, integers are numbers, nulls null, errors ReplyErrors. */
export type Reply = string | number | null | ReplyError | Reply[];

/** An error reply (`-ERR ...`): the message is the server's line, as it sent it. */
export class ReplyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReplyError";
  }
}

/** Bytes that are not a Redis reply: the connection cannot be trusted any further. */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProtocolError";
  }
}

/** Redis' own bound on a bulk string (proto-max-bulk-len): a larger length is garbage. */
const MAX_BULK = 512 * 1024 * 1024;

/**
 * Reads replies from bytes as they arrive, in chunks of any size (a reply may be split at any byte,
 * many replies may come in one chunk), and hands each whole top-level reply to `onReply` in order.
 * RESP2 only (cgraph never sends HELLO): simple strings, errors, integers, bulk strings (binary-
 * safe, a large one filled in place across reads), null bulk strings and arrays, nested arrays. An
 * error nested in an array is a ReplyError value inside it. `feed` throws a ProtocolError on bytes
 * that are not RESP2; the parser is of no further use then.
 */
export class ReplyParser {
  /** A header line not yet ended by CRLF (copied: the caller may reuse its buffer). */
  #partial: Uint8Array | undefined;
  /** A bulk string being filled, and how much of it has arrived. */
  #bulk: Uint8Array | undefined;
  #filled = 0;
  /** The CRLF after a bulk string still to skip (it may arrive in a later chunk). */
  #trailer = 0;
  /** Arrays being filled, innermost last, and how many items each has so far. */
  #arrays: Reply[][] = [];
  #counts: number[] = [];

  constructor(private readonly onReply: (reply: Reply) => void) {}

  feed(chunk: Uint8Array): void {
    let data = chunk;
    let pos = 0;
    while (true) {
      if (this.#bulk) {
        const n = Math.min(this.#bulk.length - this.#filled, data.length - pos);
        this.#bulk.set(data.subarray(pos, pos + n), this.#filled);
        this.#filled += n;
        pos += n;
        if (this.#filled < this.#bulk.length) return;
      }
      while (this.#trailer > 0 && pos < data.length) {
        if (data[pos] !== (this.#trailer === 2 ? 13 : 10)) {
          throw new ProtocolError("a bulk string is not followed by CRLF");
        }
        this.#trailer--;
        pos++;
      }
      if (this.#trailer > 0) return;
      if (this.#bulk) {
        const bulk = this.#bulk;
        this.#bulk = undefined;
        this.#emit(dec.decode(bulk));
      }
      if (pos >= data.length) return;
      if (this.#partial) {
        const rest = data.subarray(pos);
        const joined = new Uint8Array(this.#partial.length + rest.length);
        joined.set(this.#partial);
        joined.set(rest, this.#partial.length);
        // Search for CRLF from where the last search stopped (a CR may end the old part).
        const from = Math.max(0, this.#partial.length - 1);
        this.#partial = undefined;
        data = joined;
        pos = 0;
        if (!this.#header(data, pos, from)) return;
      } else if (!this.#header(data, pos, pos)) return;
      pos = this.#next;
    }
  }

  /** Where the header just read ends (set by #header). */
  #next = 0;

  /**
   * Reads the header line at `pos` (searching its CRLF from `from`) and what it holds; false when
   * the line is not whole yet (kept in #partial).
   */
  #header(data: Uint8Array, pos: number, from: number): boolean {
    // A byte loop, not indexOf: header lines are short, and most replies are many small ones.
    const end = data.length;
    let eol = Math.max(from, pos + 1);
    while (eol + 1 < end && (data[eol] !== 13 || data[eol + 1] !== 10)) eol++;
    if (eol + 1 >= end) {
      this.#partial = data.slice(pos);
      return false;
    }
    const type = data[pos];
    let next = eol + 2;
    switch (type) {
      case 43: // +
        this.#emit(text(data, pos + 1, eol));
        break;
      case 45: // -
        this.#emit(new ReplyError(text(data, pos + 1, eol)));
        break;
      case 58: // :
        this.#emit(integer(data, pos + 1, eol));
        break;
      case 36: { // $
        const len = integer(data, pos + 1, eol);
        if (len < 0) {
          this.#emit(null);
        } else if (len > MAX_BULK) {
          throw new ProtocolError(`a bulk string of ${len} bytes`);
        } else if (end - next >= len + 2) {
          if (data[next + len] !== 13 || data[next + len + 1] !== 10) {
            throw new ProtocolError("a bulk string is not followed by CRLF");
          }
          this.#emit(text(data, next, next + len));
          next += len + 2;
        } else {
          // Not all here: filled in place as the rest arrives.
          this.#bulk = new Uint8Array(len);
          this.#filled = 0;
          this.#trailer = 2;
        }
        break;
      }
      case 42: { // *
        const len = integer(data, pos + 1, eol);
        if (len < 0) this.#emit(null);
        else if (len === 0) this.#emit([]);
        else {
          // Sized up front (no growth as items come), as the replies of a graph query are large.
          this.#arrays.push(new Array(len));
          this.#counts.push(0);
        }
        break;
      }
      default:
        throw new ProtocolError(
          `not a Redis reply: ${JSON.stringify(dec.decode(data.subarray(pos, eol)).slice(0, 60))}`,
        );
    }
    this.#next = next;
    return true;
  }

  #emit(value: Reply): void {
    const arrays = this.#arrays;
    const counts = this.#counts;
    let depth = arrays.length;
    while (depth > 0) {
      const top = arrays[depth - 1];
      const n = counts[depth - 1];
      top[n] = value;
      if (n + 1 < top.length) {
        counts[depth - 1] = n + 1;
        return;
      }
      arrays.pop();
      counts.pop();
      depth--;
      value = top;
    }
    this.onReply(value);
  }
}

/** The integer in data[from, to) (digits, maybe a minus sign), read without decoding text. */
function integer(data: Uint8Array, from: number, to: number): number {
  const negative = data[from] === 45;
  let i = negative ? from + 1 : from;
  if (i >= to) throw new ProtocolError("an empty integer");
  let n = 0;
  for (; i < to; i++) {
    const d = data[i] - 48;
    if (d < 0 || d > 9) {
      throw new ProtocolError(
        `not an integer: ${JSON.stringify(dec.decode(data.subarray(from, to)).slice(0, 40))}`,
      );
    }
    n = n * 10 + d;
  }
  return negative ? -n : n;
}

/** UTF-8 text of data[from, to): short ASCII (most of a graph reply) without a TextDecoder call. */
function text(data: Uint8Array, from: number, to: number): string {
  if (to - from > 32) return dec.decode(data.subarray(from, to));
  let out = "";
  for (let i = from; i < to; i++) {
    const b = data[i];
    if (b >= 128) return dec.decode(data.subarray(from, to));
    out += String.fromCharCode(b);
  }
  return out;
}

/** Resolves or rejects like `p`, or rejects with `onTimeout()` after `ms`. */
export function deadline<T>(p: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}

/** Nothing answered within the deadline (connecting, or reading what `use` waits for). */
export class NoAnswerError extends Error {}

/**
 * Connects to `at` and runs `use` on the connection, all within `timeoutMs`: past it the socket is
 * closed (a connect that completes late is closed at once) and NoAnswerError thrown. The
 * connection is closed afterwards in every case.
 */
export async function withConnection<T>(
  at: { host: string; port: number; tls?: boolean },
  timeoutMs: number,
  use: (conn: Deno.Conn) => Promise<T>,
): Promise<T> {
  let conn: Deno.Conn | undefined;
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    try {
      conn?.close();
    } catch {
      // already closed
    }
  }, timeoutMs);
  const noAnswer = () => new NoAnswerError(`no answer within ${timeoutMs} ms`);
  try {
    const connecting: Promise<Deno.Conn> = at.tls
      ? Deno.connectTls({ hostname: at.host, port: at.port })
      : Deno.connect({ hostname: at.host, port: at.port });
    connecting.then((c) => {
      if (timedOut) c.close();
    }, () => {});
    conn = await deadline(connecting, timeoutMs, noAnswer);
    if (timedOut) throw noAnswer();
    return await use(conn);
  } catch (err) {
    if (timedOut) throw noAnswer();
    throw err;
  } finally {
    clearTimeout(timer);
    try {
      conn?.close();
    } catch {
      // closed by the timer
    }
  }
}

// ---- a few commands on a fresh connection (a Sentinel asked, a graph copied) ----

/**
 * Sends the commands on one connection and reads one reply each, within `timeoutMs` in all;
 * `sent` is called once every command is written.
 */
export function respCommands(
  at: { host: string; port: number; tls?: boolean },
  commands: string[][],
  timeoutMs: number,
  sent?: () => void,
): Promise<Reply[]> {
  return withConnection(at, timeoutMs, async (conn) => {
    for (const c of commands) await conn.write(encodeCommand(c));
    sent?.();
    const replies: Reply[] = [];
    const parser = new ReplyParser((r) => replies.push(r));
    const buf = new Uint8Array(16384);
    while (replies.length < commands.length) {
      const n = await conn.read(buf);
      if (n === null) throw new Error("the connection was closed without an answer");
      parser.feed(buf.subarray(0, n));
    }
    return replies.slice(0, commands.length);
  }).catch((err) => {
    if (err instanceof Deno.errors.ConnectionRefused) {
      throw new Error("nothing is listening there (connection refused)");
    }
    throw err;
  });
}
