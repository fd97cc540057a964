/**
 * Keeps a large full index's heap near what it holds. V8 lets garbage grow the heap well past the
 * live data before it collects: a 100,000-file index held 1.4 GB live (measured after forced
 * collections) and peaked at 3.1 GB of RSS. A full run asks for a full collection at its phase
 * boundaries, and along the way whenever the heap in use has grown by 40% or by 320 MB since the
 * last one, whichever comes first, once the heap is large (below the floor, nothing is ever asked:
 * small runs pay nothing). At 100,000 generated files (about 1.1 GB live while resolving) that is
 * five collections of 1.2 to 2.6 s and a 1.8 GB peak; with the 40% rule alone, 540 MB of garbage
 * piled up on the live heap between collections, and the peak was 2.3 GB.
 *
 * The collector is V8's own `gc`, made available at run time (the `--expose-gc` flag set, then read
 * from a fresh context, which is when V8 installs it); where that is refused, `HeapGuard` does
 * nothing and V8 collects as it would.
 */
import v8 from "node:v8";
import vm from "node:vm";
import { log } from "../log.ts";

const MB = 1024 * 1024;

let collector: (() => void) | null | undefined;

/** V8's full collection, or null where it cannot be had. */
function fullCollection(): (() => void) | null {
  if (collector === undefined) {
    try {
      v8.setFlagsFromString("--expose-gc");
      const gc = vm.runInNewContext("gc");
      collector = typeof gc === "function" ? gc as () => void : null;
    } catch {
      collector = null;
    }
  }
  return collector;
}

function heapUsed(): number {
  return v8.getHeapStatistics().used_heap_size;
}

export class HeapGuard {
  /** The heap in use after the last collection asked for (0: none yet). */
  private live = 0;
  /** Collections asked for so far. */
  collections = 0;

  /**
   * @param floor below this much heap in use, no collection is asked for
   * @param growth a collection is asked for once the heap in use is this many times `live`...
   * @param most ...or `live` and this much more, whichever comes first
   */
  constructor(
    private readonly floor = 512 * MB,
    private readonly growth = 1.4,
    private readonly most = 320 * MB,
  ) {}

  /** At a phase boundary: collects if the heap is past the floor. */
  boundary(): void {
    if (heapUsed() >= this.floor) this.collect();
  }

  /** Along a phase: collects if the heap is past the floor and grew by `growth` or `most` since. */
  check(): void {
    const used = heapUsed();
    if (used < this.floor) return;
    if (used >= this.live * this.growth || used >= this.live + this.most) this.collect();
  }

  private collect(): void {
    const gc = fullCollection();
    if (!gc) return;
    const before = heapUsed();
    const start = performance.now();
    gc();
    this.collections++;
    this.live = heapUsed();
    const ms = Math.round(performance.now() - start);
    const m = Deno.memoryUsage();
    log.debug(
      `heap: ${Math.round(before / MB)} MB in use, ${
        Math.round(this.live / MB)
      } MB after a full collection (${ms} ms); rss ${Math.round(m.rss / MB)} MB, external ${
        Math.round(m.external / MB)
      } MB`,
    );
  }
}
