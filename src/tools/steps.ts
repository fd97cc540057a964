/**
 * What runs after each index run: memory brings the graph's decisions to what the repository's
 * records say (src/memory/decisions.ts). Registered here, where features meet, so src/index/
 * knows nothing of them. Apart from the tool table (registry.ts, which imports this too) so that
 * `cgraph index` and `cgraph watch` register the steps without loading every tool and zod.
 */
import { registerPostIndexStep } from "../index/post_index.ts";
import { syncDecisions } from "../memory/decisions.ts";

registerPostIndexStep(
  "decisions",
  (c) =>
    syncDecisions(c.db, c.graph, c.root, c.facts, {
      codeUnchanged: c.codeUnchanged,
      paths: c.paths,
    }),
);
