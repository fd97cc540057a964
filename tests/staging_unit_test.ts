/**
 * EdgeStream (src/index/staging.ts): edges are written a chunk at a time while resolution goes on,
 * never before the nodes they join, with a bounded number of chunks unanswered, and a failure
 * reported by `finish()` without losing track of the other writes. No database: the writes are
 * callbacks here.
 */
import assert from "node:assert/strict";
import type { Edge } from "../src/graph/model.ts";
import { EdgeStream } from "../src/index/staging.ts";

const edge = (i: number): Edge => ({ type: "CALLS", from: `a${i}`, to: `b${i}` });
const edges = (from: number, n: number) => Array.from({ length: n }, (_, i) => edge(from + i));

function deferred() {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

Deno.test("edge chunks wait for the nodes, then every edge is written once", async () => {
  const nodes = deferred();
  const written: Edge[] = [];
  const stream = new EdgeStream(nodes.promise, (chunk) => {
    written.push(...chunk);
    return Promise.resolve();
  });
  await stream.add(edges(0, 1600)); // a full chunk: its write starts, behind the nodes
  await stream.add(edges(1600, 10));
  assert.equal(written.length, 0, "nothing is written before the nodes are");
  nodes.resolve();
  await stream.finish();
  assert.equal(written.length, 1610);
  assert.equal(new Set(written.map((e) => e.from)).size, 1610);
});

Deno.test("chunks go out without waiting for the ones before, up to a bound", async () => {
  const replies: ReturnType<typeof deferred>[] = [];
  const stream = new EdgeStream(Promise.resolve(), () => {
    const d = deferred();
    replies.push(d);
    return d.promise;
  });
  // Four chunks are handed over while none is answered.
  for (let i = 0; i < 4; i++) await stream.add(edges(i * 1500, 1500));
  assert.equal(replies.length, 4, "each full chunk's write started at once");
  // Past the bound, adding waits until a write is answered.
  let added = false;
  const fifth = stream.add(edges(6000, 1500)).then(() => stream.add(edges(7500, 1500)))
    .then(() => added = true);
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(added, false, "resolution waits while too many chunks are unanswered");
  // Answers come: the waiting chunks go out in turn.
  while (!added) {
    for (const d of replies) d.resolve();
    await new Promise((r) => setTimeout(r, 0));
  }
  await fifth;
  assert.equal(replies.length, 6);
  for (const d of replies) d.resolve();
  await stream.finish();
});

Deno.test("a failed chunk fails finish(), and later chunks are not written", async () => {
  let calls = 0;
  const stream = new EdgeStream(Promise.resolve(), () => {
    calls++;
    return calls === 1 ? Promise.reject(new Error("disk full")) : Promise.resolve();
  });
  await stream.add(edges(0, 1500));
  await new Promise((r) => setTimeout(r, 0));
  await stream.add(edges(1500, 1500));
  await assert.rejects(stream.finish(), /disk full/);
  assert.equal(calls, 1, "no write after the first failure");
});

Deno.test("nodes that could not be written fail finish(), with no edge written", async () => {
  let calls = 0;
  const stream = new EdgeStream(Promise.reject(new Error("graph gone")), () => {
    calls++;
    return Promise.resolve();
  });
  await stream.add(edges(0, 1500));
  await stream.add(edges(1500, 3));
  await assert.rejects(stream.finish(), /graph gone/);
  assert.equal(calls, 0);
});
