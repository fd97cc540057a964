/**
 * The little of the Redis protocol cgraph speaks on raw sockets (probing an address, asking
 * Sentinels): commands encoded as RESP arrays, and a connection that never outlives a deadline.
 */
import { deadline } from "./client.ts";

const enc = new TextEncoder();

/** A command as a RESP array of bulk strings. */
export function encodeCommand(args: string[]): Uint8Array {
  let out = `*${args.length}\r\n`;
  for (const a of args) out += `$${enc.encode(a).length}\r\n${a}\r\n`;
  return enc.encode(out);
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

// ---- a minimal RESP2 client: a few commands on a fresh connection (a Sentinel asked, a graph copied) ----

export type Resp = string | number | null | Error | Resp[];

/**
 * Sends the commands on one connection and reads one reply each, within `timeoutMs` in all;
 * `sent` is called once every command is written.
 */
export function respCommands(
  at: { host: string; port: number; tls?: boolean },
  commands: string[][],
  timeoutMs: number,
  sent?: () => void,
): Promise<Resp[]> {
  return withConnection(at, timeoutMs, async (conn) => {
    for (const c of commands) await conn.write(encodeCommand(c));
    sent?.();
    let data = new Uint8Array(0);
    const buf = new Uint8Array(16384);
    while (true) {
      const parsed = parseAll(data, commands.length);
      if (parsed) return parsed;
      const n = await conn.read(buf);
      if (n === null) throw new Error("the connection was closed without an answer");
      const next = new Uint8Array(data.length + n);
      next.set(data);
      next.set(buf.subarray(0, n), data.length);
      data = next;
    }
  }).catch((err) => {
    if (err instanceof Deno.errors.ConnectionRefused) {
      throw new Error("nothing is listening there (connection refused)");
    }
    throw err;
  });
}

/** `count` whole replies from `data`, or undefined when more bytes are needed. */
export function parseAll(data: Uint8Array, count: number): Resp[] | undefined {
  const out: Resp[] = [];
  let pos = 0;
  for (let i = 0; i < count; i++) {
    const r = parseOne(data, pos);
    if (!r) return undefined;
    out.push(r.value);
    pos = r.next;
  }
  return out;
}

function parseOne(data: Uint8Array, pos: number): { value: Resp; next: number } | undefined {
  const eol = data.indexOf(13, pos);
  if (eol < 0 || eol + 1 >= data.length) return undefined;
  const line = new TextDecoder().decode(data.subarray(pos + 1, eol));
  const next = eol + 2;
  switch (String.fromCharCode(data[pos])) {
    case "+":
      return { value: line, next };
    case "-":
      return { value: new Error(line), next };
    case ":":
      return { value: Number(line), next };
    case "$": {
      const len = Number(line);
      if (len < 0) return { value: null, next };
      if (data.length < next + len + 2) return undefined;
      return {
        value: new TextDecoder().decode(data.subarray(next, next + len)),
        next: next + len + 2,
      };
    }
    case "*": {
      const len = Number(line);
      if (len < 0) return { value: null, next };
      const items: Resp[] = [];
      let at = next;
      for (let i = 0; i < len; i++) {
        const r = parseOne(data, at);
        if (!r) return undefined;
        items.push(r.value);
        at = r.next;
      }
      return { value: items, next: at };
    }
    default:
      throw new Error(`not a Redis answer: ${JSON.stringify(line.slice(0, 40))}`);
  }
}
