/** One CLI command: a name, a one-line summary for `--help`, and a runner returning an exit code. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { resolve } from "node:path";
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

/** The one optional path argument of a command, resolved (`.` when none); undefined, after saying why, when there are more. */
export function pathArgument(
  command: string,
  positionals: string[],
  usage: string,
): string | undefined {
  if (positionals.length > 1) {
    console.error(`cgraph ${command}: one path at most\nUsage: ${usage}`);
    return undefined;
  }
  return resolve(positionals[0] ?? ".");
}
