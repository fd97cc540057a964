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
