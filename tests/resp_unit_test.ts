/**
 * The RESP2 reply parser (src/db/resp.ts) and encoder, without a server: replies split at every
 * byte boundary and fed a byte at a time, nested arrays, errors, nulls, large and binary bulk
 * strings across many reads, and garbage refused.
 */
import assert, { deepStrictEqual as assertEquals } from "node:assert/strict";
import {
  encodeCommand,
  ProtocolError,
  type Reply,
  ReplyError,
  ReplyParser,
} from "../src/db/resp.ts";

const enc = new TextEncoder();

/** Every reply `chunks` make, fed in that order. */
function parse(...chunks: Uint8Array[]): Reply[] {
  const out: Reply[] = [];
  const parser = new ReplyParser((r) => out.push(r));
  for (const c of chunks) parser.feed(c);
  return out;
}

/** Errors compared by class and message (deepStrictEqual would compare Error objects loosely). */
function plain(r: Reply): unknown {
  if (r instanceof ReplyError) return { error: r.message };
  if (Array.isArray(r)) return r.map(plain);
  return r;
}

/** A stream of several replies of every kind, and what it parses to. */
const MIXED = enc.encode(
  "+OK\r\n" +
    "-ERR unknown command 'NOPE'\r\n" +
    ":42\r\n" +
    ":-7\r\n" +
    "$5\r\nhello\r\n" +
    "$0\r\n\r\n" +
    "$-1\r\n" +
    "*-1\r\n" +
    "*0\r\n" +
    "*3\r\n:1\r\n*2\r\n$3\r\nfoo\r\n*1\r\n$-1\r\n-WRONGTYPE nested\r\n" +
    "$8\r\nwith\r\nCR\r\n" +
    "+\r\n",
);
const MIXED_PARSED = [
  "OK",
  { error: "ERR unknown command 'NOPE'" },
  42,
  -7,
  "hello",
  "",
  null,
  null,
  [],
  [1, ["foo", [null]], { error: "WRONGTYPE nested" }],
  "with\r\nCR",
  "",
];

Deno.test("RESP parser: every kind of reply, in one chunk", () => {
  assertEquals(parse(MIXED).map(plain), MIXED_PARSED);
});

Deno.test("RESP parser: the same bytes split in two at every boundary", () => {
  for (let cut = 0; cut <= MIXED.length; cut++) {
    const got = parse(MIXED.subarray(0, cut), MIXED.subarray(cut)).map(plain);
    assertEquals(got, MIXED_PARSED, `cut at ${cut}`);
  }
});

Deno.test("RESP parser: fed one byte at a time, and in three pieces at every pair of cuts", () => {
  const bytes = [...MIXED].map((b) => new Uint8Array([b]));
  assertEquals(parse(...bytes).map(plain), MIXED_PARSED);
  for (let a = 0; a <= MIXED.length; a += 3) {
    for (let b = a; b <= MIXED.length; b += 5) {
      const got = parse(MIXED.subarray(0, a), MIXED.subarray(a, b), MIXED.subarray(b)).map(plain);
      assertEquals(got, MIXED_PARSED, `cuts at ${a} and ${b}`);
    }
  }
});

Deno.test("RESP parser: a reply is handed over only once whole", () => {
  const reply = enc.encode("*2\r\n$9\r\n127.0.0.1\r\n$4\r\n6380\r\n");
  for (let cut = 0; cut < reply.length; cut++) {
    const got: Reply[] = [];
    const parser = new ReplyParser((r) => got.push(r));
    parser.feed(reply.subarray(0, cut));
    assertEquals(got, [], `cut at ${cut}`);
    parser.feed(reply.subarray(cut));
    assertEquals(got, [["127.0.0.1", "6380"]], `cut at ${cut}`);
  }
});

Deno.test("RESP parser: the caller's buffer may be reused between feeds", () => {
  const reply = enc.encode("*2\r\n$11\r\nhello world\r\n+fine\r\n");
  const got: Reply[] = [];
  const parser = new ReplyParser((r) => got.push(r));
  const buf = new Uint8Array(4);
  for (let at = 0; at < reply.length; at += buf.length) {
    const piece = reply.subarray(at, at + buf.length);
    buf.set(piece);
    parser.feed(buf.subarray(0, piece.length));
    buf.fill(0x21); // overwrite what was fed
  }
  assertEquals(got, [["hello world", "fine"]]);
});

Deno.test("RESP parser: a large bulk string over many reads; lengths count bytes, not characters", () => {
  // 3 MB of multi-byte UTF-8 (and CR LF inside), in 64 KB reads, followed by another reply.
  const text = "añ€😀\r\n".repeat(300_000);
  const body = enc.encode(text);
  const head = enc.encode(`*2\r\n$${body.length}\r\n`);
  const tail = enc.encode("\r\n:5\r\n+next\r\n");
  const bytes = new Uint8Array(head.length + body.length + tail.length);
  bytes.set(head);
  bytes.set(body, head.length);
  bytes.set(tail, head.length + body.length);
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += 65536) chunks.push(bytes.subarray(at, at + 65536));
  const got = parse(...chunks);
  assertEquals(got.length, 2);
  const [arr, next] = got as [Reply[], Reply];
  assert.ok(arr[0] === text, "the bulk string came back whole");
  assertEquals([arr[1], next], [5, "next"]);
});

Deno.test("RESP parser: deeply nested arrays need no recursion", () => {
  const depth = 50_000;
  const got = parse(enc.encode("*1\r\n".repeat(depth) + ":1\r\n"));
  let r = got[0];
  for (let i = 0; i < depth; i++) {
    assert.ok(Array.isArray(r) && r.length === 1);
    r = r[0];
  }
  assertEquals(r, 1);
});

Deno.test("RESP parser: an error reply keeps the server's message", () => {
  const [err] = parse(enc.encode("-READONLY You can't write against a read only replica.\r\n"));
  assert.ok(err instanceof ReplyError);
  assertEquals(err.message, "READONLY You can't write against a read only replica.");
});

Deno.test("RESP parser: bytes that are not RESP2 are a ProtocolError", () => {
  const bad = [
    "HTTP/1.1 400 Bad Request\r\n",
    ":12a\r\n",
    ":\r\n",
    ":-\r\n",
    "*1x\r\n",
    "$abc\r\n",
    "$3\r\nabcXY",
    `$${1024 * 1024 * 1024}\r\n`,
  ];
  for (const text of bad) {
    assert.throws(() => parse(enc.encode(text)), ProtocolError, JSON.stringify(text));
  }
});

Deno.test("RESP encoder: arrays of bulk strings, lengths in bytes", () => {
  const text = new TextDecoder().decode(encodeCommand(["SET", "k€", "", "a\r\nb"]));
  assertEquals(text, "*4\r\n$3\r\nSET\r\n$4\r\nk€\r\n$0\r\n\r\n$4\r\na\r\nb\r\n");
  // What the encoder writes, the parser reads back (a command is an array of bulk strings).
  assertEquals(parse(encodeCommand(["GRAPH.QUERY", "g", "RETURN 'é'"])), [
    ["GRAPH.QUERY", "g", "RETURN 'é'"],
  ]);
});
