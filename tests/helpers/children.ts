/** Server processes a test starts, with the folder they keep their data in: ended together. */
export class Children {
  readonly list: Deno.ChildProcess[] = [];

  constructor(readonly dir: string) {}

  /** A child started from `command`, ended by stop(). */
  spawn(command: string, args: string[]): Deno.ChildProcess {
    const child = new Deno.Command(command, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    this.list.push(child);
    return child;
  }

  /** Kills every child (SIGKILL) and removes the folder. */
  stop = async (): Promise<void> => {
    for (const c of this.list) {
      try {
        c.kill("SIGKILL");
      } catch {
        // already gone
      }
      await c.status;
    }
    await Deno.remove(this.dir, { recursive: true }).catch(() => {});
  };
}
