/**
 * nextTurn (src/index/turn.ts): a turn of the event loop, so I/O that is ready completes while a
 * long synchronous job yields, and nothing is left open (the test sanitizers check resources).
 */
import assert from "node:assert/strict";
import { nextTurn } from "../src/index/turn.ts";

Deno.test("next turn: a pending read completes while a loop only yields turns", async () => {
  let done = false;
  const read = Deno.readTextFile(new URL(import.meta.url)).then((t) => {
    done = true;
    return t;
  });
  let turns = 0;
  while (!done && turns < 10_000) {
    await nextTurn();
    turns++;
  }
  assert.ok(done, `the read did not complete in ${turns} turns`);
  assert.match(await read, /nextTurn/);
});

Deno.test("next turn: a timer due now runs between turns, as after a timer of its own", async () => {
  let fired = false;
  setTimeout(() => fired = true, 0);
  for (let i = 0; i < 10_000 && !fired; i++) await nextTurn();
  assert.ok(fired);
});
