/**
 * An error meant for a person or an agent: `message` says what went wrong, `hint` what to do next.
 * Everything user-facing throws this; anything else reaching the top is a bug and says so.
 */
export class CgraphError extends Error {
  constructor(message: string, readonly hint?: string) {
    super(message);
    this.name = "CgraphError";
  }

  /** Message and hint as one text, for CLIs and tool answers. */
  full(): string {
    return this.hint ? `${this.message}\n${this.hint}` : this.message;
  }
}

/** Text for any thrown value: a CgraphError's full text, or an Error's message. */
export function describeError(err: unknown): string {
  if (err instanceof CgraphError) return err.full();
  if (err instanceof Error) return err.message;
  return String(err);
}

/** An input quoted back in a message, cut to a length that can never flood an answer. */
export function echo(input: string, max = 120): string {
  const oneLine = input.replace(/\s+/g, " ");
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}
