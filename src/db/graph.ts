/**
 * Graph queries through falkordb's Graph class, for its reply parsing (the compact result set:
 * typed values, nodes, edges and paths with their labels, types and property names looked up),
 * over whatever sends the commands: our own connection (client.ts) or the cluster routing
 * (cluster.ts). Only the Graph module is loaded, on the first query, never the falkordb package's
 * root: that one loads the whole `redis` package (its client and every module), over 100 ms.
 */
import type * as GraphModule from "falkordb/dist/src/graph.js";
import { cypherParams } from "./params.ts";

type GraphClass = typeof GraphModule.default.default;
export type Graph = InstanceType<GraphClass>;

/** Sends one graph command (args[1] is the graph's name); resolves with its raw reply. */
export type GraphSend = (args: string[], readOnly: boolean) => Promise<unknown>;

interface Loaded {
  Graph: GraphClass;
  pushQueryArguments: (
    args: string[],
    graph: string,
    query: string,
    options?: unknown,
    compact?: boolean,
  ) => string[];
}

let loading: Promise<Loaded> | undefined;

function load(): Promise<Loaded> {
  loading ??= Promise.all([
    import("falkordb/dist/src/graph.js"),
    import("falkordb/dist/src/commands/index.js"),
  ]).then(([graph, commands]) => ({
    // A CommonJS module: under Deno `default` is its exports object, whose own `default` is the
    // class; in the single-file build (esbuild's interop) `default` is the class itself.
    Graph: graph.default.default ?? (graph.default as unknown as GraphClass),
    pushQueryArguments: commands.pushQueryArguments as Loaded["pushQueryArguments"],
  }));
  loading.catch(() => loading = undefined);
  return loading;
}

/**
 * Starts loading the Graph module without waiting for it: a caller that will query graphs soon
 * (a session) lets it load while it waits for git and the network, not after.
 */
export function preloadGraph(): void {
  load().catch(() => {});
}

/** A falkordb Graph named `name` whose commands go through `send`. */
export async function graphOver(name: string, send: GraphSend): Promise<Graph> {
  const { Graph, pushQueryArguments } = await load();
  const query =
    (ro: boolean) => async (graph: string, cypher: string, options?: unknown, compact = true) => {
      // Parameters are written here (params.ts: the same text, faster); the rest of the
      // arguments (a timeout, --compact) as the package writes them.
      let text = cypher;
      if (options && typeof options === "object" && "params" in options && options.params) {
        const { params, ...rest } = options as { params: Record<string, unknown> };
        text = `CYPHER ${cypherParams(params)} ${cypher}`;
        options = rest;
      }
      const args = pushQueryArguments(
        [ro ? "GRAPH.RO_QUERY" : "GRAPH.QUERY"],
        graph,
        text,
        options,
        compact,
      );
      const reply = await send(args, ro) as unknown[];
      return reply.length === 1
        ? { headers: undefined, data: undefined, metadata: reply[0] }
        : { headers: reply[0], data: reply[1], metadata: reply[2] };
    };
  const client = {
    query: query(false),
    roQuery: query(true),
    delete: async (graph: string) => {
      await send(["GRAPH.DELETE", graph], false);
    },
  };
  return new Graph(client as never, name);
}
