/** One CLI command: a name, a one-line summary for `--help`, and a runner returning an exit code. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { CgraphError } from "../errors.ts";

export interface Command {
  name: string;
  summary: string;
  run(args: string[]): Promise<number>;
}

/** node:util parseArgs in strict mode, with its errors turned into a CgraphError naming the usage. */
export function parseCommandArgs<T extends ParseArgsConfig["options"]>(
  args: string[],
  options: T,
  usage: string,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CgraphError((err as Error).message, `Usage: ${usage}`);
  }
}
