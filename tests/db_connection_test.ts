/**
 * Our RESP connection (src/db/redis.ts) and the Db over it: against stand-in servers that misbehave
 * on purpose (close mid-reply, send garbage, answer late, never answer) and against a real FalkorDB
 * (pipelining, error replies, AUTH with a password and with an ACL user, large values). Every
 * failure must reject the calls it concerns with a clear error, promptly, leaving no socket or
 * pending operation behind (these tests keep Deno's sanitizers on).
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import { Db, DbQueryError, DbUnavailableError } from "../src/db/client.ts";
import { ConnectionLostError, RedisConnection, ReplyError } from "../src/db/redis.ts";
import { encodeCommand, type Reply, ReplyParser } from "../src/db/resp.ts";
import { CgraphError } from "../src/errors.ts";
import { silentListener, startServer } from "./helpers/db.ts";

const enc = new TextEncoder();

interface FakeServer {
  port: number;
  /** Closes the listener and every connection, and waits for their handlers. */
  close(): Promise<void>;
}

/**
 * A stand-in server on a free loopback port: `onCommand` is called with each command a client
 * sends (parsed) and the connection, and writes whatever it likes back (or closes it).
 */
function fakeServer(
  onCommand: (args: string[], conn: Deno.Conn, index: number) => Promise<void> | void,
): FakeServer {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const conns = new Set<Deno.Conn>();
  const handlers: Promise<void>[] = [];
  const serve = async (conn: Deno.Conn) => {
    let index = 0;
    const commands: string[][] = [];
    const parser = new ReplyParser((r) => commands.push((r as Reply[]).map(String)));
    const buf = new Uint8Array(65536);
    try {
      while (true) {
        const n = await conn.read(buf);
        if (n === null) break;
        parser.feed(buf.subarray(0, n));
        while (commands.length) await onCommand(commands.shift()!, conn, index++);
      }
    } catch {
      // closed by the handler or by close()
    } finally {
      conns.delete(conn);
      try {
        conn.close();
      } catch {
        // already closed
      }
    }
  };
  const accepting = (async () => {
    try {
      for await (const conn of listener) {
        conns.add(conn);
        handlers.push(serve(conn));
      }
    } catch {
      // listener closed
    }
  })();
  return {
    port: (listener.addr as Deno.NetAddr).port,
    async close() {
      listener.close();
      for (const c of conns) {
        try {
          c.close();
        } catch {
          // already closed
        }
      }
      await accepting;
      await Promise.all(handlers);
    },
  };
}

/** A standalone server's INFO answer, for Db.connect. */
const INFO = "# Server\r\nredis_version:7.2.0\r\nredis_mode:standalone\r\n";
const bulk = (s: string) => `$${enc.encode(s).length}\r\n${s}\r\n`;

async function write(conn: Deno.Conn, text: string): Promise<void> {
  const bytes = enc.encode(text);
  for (let at = 0; at < bytes.length;) at += await conn.write(bytes.subarray(at));
}

function rejectsWith(re: RegExp, cls: new (...a: never[]) => Error = Error) {
  return (err: unknown) => {
    assert.ok(err instanceof cls, `not a ${cls.name}: ${err}`);
    assert.match((err as Error).message, re);
    return true;
  };
}

Deno.test("a server closing the socket mid-reply rejects every pending call at once", async () => {
  const server = fakeServer(async (args, conn) => {
    if (args[0] === "INFO") return await write(conn, bulk(INFO));
    // Half of a bulk string, then the socket closes.
    await write(conn, "*2\r\n$10\r\nhalf");
    conn.close();
  });
  const db = await Db.connect({ host: "127.0.0.1", port: server.port, origin: "stand-in" });
  try {
    const t0 = performance.now();
    const calls = [
      db.command(["GET", "a"], 30_000),
      db.command(["GET", "b"], 30_000),
      db.query("g", "RETURN 1", undefined, { timeoutMs: 30_000 }),
    ];
    for (const call of calls) {
      await assert.rejects(
        call,
        rejectsWith(
          /^FalkorDB at 127\.0\.0\.1:\d+ \(stand-in\) stopped answering: the server closed the connection$/,
          DbUnavailableError,
        ),
      );
    }
    assert.ok(performance.now() - t0 < 5000, "rejected long before any deadline");
    // And every later call, without trying to write.
    await assert.rejects(
      db.command(["PING"]),
      rejectsWith(/stopped answering/, DbUnavailableError),
    );
  } finally {
    await db.close();
    await server.close();
  }
});

Deno.test("the connection: pending calls, later calls and close after the server left", async () => {
  const server = fakeServer((args, conn) => {
    if (args[0] === "PING") return write(conn, "+PONG\r\n");
    conn.close();
  });
  const conn = await RedisConnection.connect({ host: "127.0.0.1", port: server.port }, 2000);
  try {
    assertEquals(await conn.send(["PING"]), "PONG");
    const pending = [conn.send(["QUIT?"]), conn.send(["PING"])];
    for (const p of pending) {
      await assert.rejects(
        p,
        rejectsWith(/^the server closed the connection$/, ConnectionLostError),
      );
    }
    assert.equal(conn.isOpen, false);
    await assert.rejects(conn.send(["PING"]), ConnectionLostError);
  } finally {
    await conn.close();
    await conn.close(); // twice is fine
    await server.close();
  }
});

Deno.test("the connection: garbage from the server ends it with a clear error", async () => {
  const server = fakeServer((_args, conn) => write(conn, "HTTP/1.1 400 Bad Request\r\n\r\n"));
  const conn = await RedisConnection.connect({ host: "127.0.0.1", port: server.port }, 2000);
  const lost: string[] = [];
  conn.onLost = (err) => lost.push(err.message);
  try {
    await assert.rejects(
      conn.send(["PING"]),
      rejectsWith(/^the server sent not a Redis reply: "HTTP\/1\.1 400 Bad Request"/),
    );
    assertEquals(lost.length, 1);
  } finally {
    await conn.close();
    await server.close();
  }
});

Deno.test("a reply that comes after its call's deadline is not given to the next call", async () => {
  let release!: () => void;
  const released = new Promise<void>((r) => release = r);
  const server = fakeServer(async (args, conn) => {
    if (args[0] === "INFO") return await write(conn, bulk(INFO));
    if (args[1] === "slow") await released;
    await write(conn, bulk(`value of ${args[1]}`));
  });
  const db = await Db.connect({ host: "127.0.0.1", port: server.port, origin: "stand-in" });
  try {
    await assert.rejects(
      db.command(["GET", "slow"], 200),
      rejectsWith(/stopped answering: no answer within 200 ms/, DbUnavailableError),
    );
    const next = db.command(["GET", "fast"], 5000);
    release();
    assertEquals(await next, "value of fast");
  } finally {
    await db.close();
    await server.close();
  }
});

Deno.test("a server that accepts and never answers: connect fails within its deadline", async () => {
  const silent = silentListener();
  try {
    const t0 = performance.now();
    await assert.rejects(
      Db.connect({ host: "127.0.0.1", port: silent.port, origin: "test" }, 500),
      rejectsWith(
        new RegExp(
          `^Cannot reach FalkorDB at 127\\.0\\.0\\.1:${silent.port} \\(test\\): no answer within 500 ms$`,
        ),
        CgraphError,
      ),
    );
    await assert.rejects(
      RedisConnection.connect(
        { host: "127.0.0.1", port: silent.port, password: "pw" },
        300,
      ),
      rejectsWith(/^no answer within 300 ms$/),
    );
    assert.ok(performance.now() - t0 < 5000);
  } finally {
    silent.close();
  }
});

Deno.test("close() rejects the calls still waiting and leaves nothing running", async () => {
  const server = fakeServer(() => {}); // never answers
  const conn = await RedisConnection.connect({ host: "127.0.0.1", port: server.port }, 2000);
  const lost: string[] = [];
  conn.onLost = (err) => lost.push(err.message);
  const waiting = assert.rejects(
    conn.send(["BLPOP", "k", "0"]),
    rejectsWith(/^the connection was closed$/, ConnectionLostError),
  );
  await conn.close();
  await waiting;
  assertEquals(lost, [], "closing it here is not a loss");
  await server.close();
});

Deno.test("nothing listening: connect fails at once, naming the address", async () => {
  const server = fakeServer(() => {});
  const port = server.port;
  await server.close();
  await assert.rejects(
    Db.connect({ host: "127.0.0.1", port, origin: "test" }, 2000),
    rejectsWith(new RegExp(`^Cannot reach FalkorDB at 127\\.0\\.0\\.1:${port} \\(test\\): `)),
  );
});

Deno.test("a real FalkorDB: pipelined calls, error replies, large values, AUTH", async () => {
  const server = await startServer({ password: "s3cret" });
  const ep = { host: "127.0.0.1", port: server.port, origin: "test server" };
  try {
    // Without the password, and with a wrong one: refused with the server's words.
    await assert.rejects(Db.connect(ep), rejectsWith(/\(test server\): NOAUTH/, CgraphError));
    await assert.rejects(
      Db.connect({ ...ep, password: "wrong" }),
      rejectsWith(/\(test server\): (WRONGPASS|ERR invalid password)/, CgraphError),
    );
    const conn = await RedisConnection.connect({ ...ep, password: "s3cret" }, 2000);
    try {
      // 500 commands written without waiting: each reply goes to its own call, in order.
      const n = 500;
      const calls = Array.from({ length: n }, () => conn.send(["INCR", "s6:counter"]));
      assertEquals(await Promise.all(calls), Array.from({ length: n }, (_, i) => i + 1));
      // An error reply rejects its own call only.
      const mixed = [
        conn.send(["SET", "s6:k", "v"]),
        conn.send(["NOSUCHCOMMAND"]),
        conn.send(["GET", "s6:k"]),
      ];
      assertEquals(await mixed[0], "OK");
      await assert.rejects(mixed[1], rejectsWith(/^ERR unknown command/, ReplyError));
      assertEquals(await mixed[2], "v");
      // 8 MB of multi-byte text each way (written and read in many pieces).
      const big = "graph ∑ 😀 ".repeat(600_000);
      assertEquals(await conn.send(["SET", "s6:big", big]), "OK");
      assert.ok((await conn.send(["GET", "s6:big"])) === big);
      assertEquals(await conn.send(["GET", "s6:none"]), null);
      assertEquals(await conn.send(["HSET", "s6:h", "a", "1", "b", "2"]), 2);
      assertEquals(await conn.send(["HGETALL", "s6:h"]), ["a", "1", "b", "2"]);
      // An ACL user: AUTH username password.
      assertEquals(
        await conn.send(["ACL", "SETUSER", "cg", "on", ">pw2", "~*", "&*", "+@all"]),
        "OK",
      );
    } finally {
      await conn.close();
    }
    const db = await Db.connect({ ...ep, username: "cg", password: "pw2" });
    try {
      assertEquals(await db.query("s6g", "RETURN 1 AS one, 'é' AS s, [1, 2.5] AS a"), [
        { one: 1, s: "é", a: [1, 2.5] },
      ]);
      assertEquals(await db.hashGetAll("s6:h"), { a: "1", b: "2" });
      await db.query("s6g", "CREATE (:P {name: 'x'})-[:R {w: 2}]->(:Q)");
      const [row] = await db.query("s6g", "MATCH (p:P)-[r:R]->(q) RETURN p, r, q.name AS qn");
      const p = row.p as { labels: string[]; properties: Record<string, unknown> };
      assertEquals([p.labels, p.properties], [["P"], { name: "x" }]);
      assertEquals((row.r as { relationshipType: string }).relationshipType, "R");
      assert.ok((await db.listGraphs()).includes("s6g"));
      await assert.rejects(db.query("s6g", "RETURN nosuchfunction(1)"), DbQueryError);
      await db.deleteGraph("s6g");
      assert.ok(!(await db.graphExists("s6g")));
    } finally {
      await db.close();
    }
    await assert.rejects(
      Db.connect({ ...ep, username: "cg", password: "nope" }),
      rejectsWith(/WRONGPASS/, CgraphError),
    );
  } finally {
    await server.stop();
  }
});

Deno.test("encodeCommand and the connection agree on what a command is", async () => {
  const seen: string[][] = [];
  const server = fakeServer(async (args, conn) => {
    seen.push(args);
    await write(conn, ":1\r\n");
  });
  const conn = await RedisConnection.connect({ host: "127.0.0.1", port: server.port }, 2000);
  try {
    await Promise.all([conn.send(["A", "é\r\n", ""]), conn.send(["B"])]);
    assertEquals(seen, [["A", "é\r\n", ""], ["B"]]);
    assertEquals(encodeCommand(["B"]), enc.encode("*1\r\n$1\r\nB\r\n"));
  } finally {
    await conn.close();
    await server.close();
  }
});
