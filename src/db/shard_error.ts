/** The error of a cluster whose node holding a key does not answer (see cluster.ts). */
import { CgraphError } from "../errors.ts";

/** A cluster node that holds a key does not answer; the other shards still do. */
export class ShardUnavailableError extends CgraphError {
  constructor(message: string, hint?: string) {
    super(message, hint);
    this.name = "ShardUnavailableError";
  }
}
