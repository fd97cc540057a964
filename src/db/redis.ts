/**
 * One connection to a Redis server (FalkorDB is a Redis module), our own: loading a Redis client
 * library costs more than 100 ms of every command's start (the `redis` package with all its
 * modules), which is most of what a quick `cgraph callers` takes. This speaks RESP2 over
 * Deno.connect / Deno.connectTls, authenticates as client.ts is told to, and pipelines: commands
 * are written as they come, and replies are matched to them in order (a FIFO of pending calls).
 *
 * Failures are plain: an error reply rejects its own call with a ReplyError carrying the server's
 * message; a connection that closes, resets or receives bytes that are not RESP rejects every
 * pending call (and every later one) with a ConnectionLostError saying which. The connection never
 * reconnects. Deadlines are the caller's (client.ts races every call against one); a call given up
 * that way still takes its reply off the queue when it comes. close() ends the socket and its read
 * loop, leaving no operation behind.
 */
import {
  type Arg,
  deadline,
  encodeCommand,
  NoAnswerError,
  ProtocolError,
  type Reply,
  ReplyError,
  ReplyParser,
} from "./resp.ts";

export { NoAnswerError, ReplyError };

/** The connection is gone (closed by the server, reset, or closed here): no reply will come. */
export class ConnectionLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConnectionLostError";
  }
}

export interface RedisConnectOptions {
  host: string;
  port: number;
  tls?: boolean;
  /** AUTH username password (an ACL user), or AUTH password alone without a user name. */
  username?: string;
  password?: string;
}

interface Pending {
  resolve(reply: Reply): void;
  reject(err: Error): void;
}

const READ_SIZE = 64 * 1024;

export class RedisConnection {
  readonly #conn: Deno.Conn;
  readonly #parser: ReplyParser;
  /** Calls waiting for their reply, in the order their commands were written. */
  readonly #pending: Pending[] = [];
  /** Encoded commands not yet handed to the socket. */
  #queued: Uint8Array[] = [];
  #writing = false;
  /** Why the connection is of no further use; set once. */
  #gone: ConnectionLostError | undefined;
  #closedHere = false;
  readonly #reading: Promise<void>;
  /** Told why the connection was lost (not called for close()). */
  onLost: ((err: ConnectionLostError) => void) | undefined;

  private constructor(conn: Deno.Conn) {
    this.#conn = conn;
    this.#parser = new ReplyParser((reply) => this.#reply(reply));
    this.#reading = this.#readLoop();
  }

  /**
   * Connects, then authenticates when a password is given, all within `timeoutMs`. Throws what
   * failed: the socket's error, AUTH's ReplyError (e.g. WRONGPASS), or a NoAnswerError past the
   * deadline (a connection that completes after it is closed at once).
   */
  static async connect(opts: RedisConnectOptions, timeoutMs: number): Promise<RedisConnection> {
    let conn: RedisConnection | undefined;
    let gaveUp = false;
    const noAnswer = () => new NoAnswerError(`no answer within ${timeoutMs} ms`);
    const connecting = (async () => {
      const raw = opts.tls
        ? await Deno.connectTls({ hostname: opts.host, port: opts.port })
        : await Deno.connect({ hostname: opts.host, port: opts.port });
      if (gaveUp) {
        raw.close();
        throw noAnswer();
      }
      if (!opts.tls) {
        try {
          (raw as Deno.TcpConn).setNoDelay(true);
          (raw as Deno.TcpConn).setKeepAlive(true);
        } catch {
          // not settable here: latency only
        }
      }
      conn = new RedisConnection(raw);
      // As @redis/client did: AUTH when a user name or a password is given (a user without a
      // password authenticates with an empty one).
      if (opts.username || opts.password) {
        await conn.send(
          opts.username
            ? ["AUTH", opts.username, opts.password ?? ""]
            : ["AUTH", opts.password ?? ""],
        );
      }
      return conn;
    })();
    try {
      return await deadline(connecting, timeoutMs, noAnswer);
    } catch (err) {
      gaveUp = true;
      connecting.catch(() => {});
      await conn?.close();
      throw err;
    }
  }

  /** False once the connection is lost or closed. */
  get isOpen(): boolean {
    return this.#gone === undefined;
  }

  /**
   * Sends one command; resolves with its reply, rejects with a ReplyError (the server refused it)
   * or a ConnectionLostError (no reply can come).
   */
  send(args: readonly Arg[]): Promise<Reply> {
    if (this.#gone) return Promise.reject(this.#gone);
    let bytes: Uint8Array;
    try {
      bytes = encodeCommand(args);
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise<Reply>((resolve, reject) => {
      this.#pending.push({ resolve, reject });
      this.#queued.push(bytes);
      if (!this.#writing) this.#flush();
    });
  }

  /**
   * Closes the socket: pending and later calls reject with "the connection was closed". Resolves
   * once the read loop has ended. Safe to call more than once.
   */
  async close(): Promise<void> {
    if (!this.#gone) {
      this.#closedHere = true;
      this.#lose(new ConnectionLostError("the connection was closed"));
    }
    await this.#reading;
  }

  /** Writes what is queued, in order, batching commands sent while a write was under way. */
  async #flush(): Promise<void> {
    this.#writing = true;
    try {
      while (this.#queued.length > 0 && !this.#gone) {
        const batch = this.#queued;
        this.#queued = [];
        let bytes = batch[0];
        if (batch.length > 1) {
          bytes = new Uint8Array(batch.reduce((n, b) => n + b.length, 0));
          let at = 0;
          for (const b of batch) {
            bytes.set(b, at);
            at += b.length;
          }
        }
        for (let at = 0; at < bytes.length;) at += await this.#conn.write(bytes.subarray(at));
      }
    } catch (err) {
      this.#lose(lostBy(err, "writing"));
    } finally {
      this.#writing = false;
    }
  }

  async #readLoop(): Promise<void> {
    const buf = new Uint8Array(READ_SIZE);
    try {
      while (true) {
        const n = await this.#conn.read(buf);
        if (n === null) {
          this.#lose(new ConnectionLostError("the server closed the connection"));
          return;
        }
        this.#parser.feed(buf.subarray(0, n));
      }
    } catch (err) {
      if (err instanceof ProtocolError) {
        this.#lose(new ConnectionLostError(`the server sent ${err.message}`));
      } else {
        this.#lose(lostBy(err, "reading"));
      }
    }
  }

  #reply(reply: Reply): void {
    const call = this.#pending.shift();
    if (!call) throw new ProtocolError("a reply to no command");
    if (reply instanceof ReplyError) call.reject(reply);
    else call.resolve(reply);
  }

  /** Ends the connection for `why` (the first reason wins); rejects every pending call. */
  #lose(why: ConnectionLostError): void {
    if (this.#gone) return;
    this.#gone = why;
    this.#queued = [];
    try {
      this.#conn.close();
    } catch {
      // already closed
    }
    for (const call of this.#pending.splice(0)) call.reject(why);
    if (!this.#closedHere) this.onLost?.(why);
  }
}

function lostBy(err: unknown, doing: string): ConnectionLostError {
  if (err instanceof ConnectionLostError) return err;
  if (err instanceof Deno.errors.ConnectionReset) {
    return new ConnectionLostError("the connection was reset by the server");
  }
  if (err instanceof Deno.errors.BrokenPipe) {
    return new ConnectionLostError("the server closed the connection");
  }
  const msg = err instanceof Error ? err.message || err.name : String(err);
  return new ConnectionLostError(`the connection failed while ${doing}: ${msg}`);
}
