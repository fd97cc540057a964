/**
 * HeapGuard (src/index/heap.ts): V8's full collection is obtained at run time, and asked for only
 * past the floor and after the heap grew by the factor (or by the most allowed) since the last one.
 */
import assert from "node:assert/strict";
import v8 from "node:v8";
import { HeapGuard } from "../src/index/heap.ts";

const used = () => v8.getHeapStatistics().used_heap_size;

function garbage(): void {
  let keep: unknown[] = [];
  for (let i = 0; i < 300_000; i++) keep.push({ i, s: `item ${i}` });
  keep = [];
  void keep;
}

Deno.test("heap guard: a boundary past the floor collects what is garbage", () => {
  const guard = new HeapGuard(0, 1.4);
  garbage();
  const before = used();
  guard.boundary();
  assert.ok(used() < before - 10 * 1024 * 1024, `${before} -> ${used()}`);
});

Deno.test("heap guard: below the floor, or before the heap grew by the factor, nothing is asked", () => {
  const high = new HeapGuard(Number.MAX_SAFE_INTEGER, 1.4);
  garbage();
  high.boundary();
  high.check();
  assert.equal(high.collections, 0, "no collection below the floor");

  const guard = new HeapGuard(0, 100);
  guard.boundary(); // past the floor: collects, and the heap in use is its baseline
  assert.equal(guard.collections, 1);
  garbage();
  guard.check(); // far below 100 times the baseline
  assert.equal(guard.collections, 1, "no collection before the heap grew by the factor");
  const grows = new HeapGuard(0, 1.01);
  grows.boundary();
  const held = Array.from({ length: 400_000 }, (_, i) => ({ i })); // live: the heap grows
  grows.check();
  assert.equal(grows.collections, 2, "a collection once the heap grew by the factor");
  assert.equal(held.length, 400_000);
});

Deno.test("heap guard: a large heap is collected once it grew by the most allowed, before the factor", () => {
  const guard = new HeapGuard(0, 100, 4 * 1024 * 1024);
  guard.boundary();
  assert.equal(guard.collections, 1);
  guard.check();
  assert.equal(guard.collections, 1, "not before it grew");
  const held = Array.from({ length: 400_000 }, (_, i) => ({ i })); // about 10 MB live
  guard.check();
  assert.equal(guard.collections, 2, "grown by more than 4 MB, far below 100 times");
  assert.equal(held.length, 400_000);
});
