/**
 * `cgraph view`'s own server: the page and its API on 127.0.0.1 only, at a free port (or
 * `port`), behind a random token carried by the URL it prints. Serves until SIGINT / SIGTERM (or
 * `signal`).
 */
import { CgraphError } from "../errors.ts";
import { log } from "../log.ts";
import { originAllowed } from "../origin.ts";
import { Session, type SessionOptions } from "../query/session.ts";
import { viewHandler } from "./handler.ts";

export interface ServeViewOptions {
  port: number;
  /** Fixed token (tests); default: 32 random bytes, hex. */
  token?: string;
  /** Called once listening, with the URL to open (token included). */
  onListen?: (url: string) => void;
  signal?: AbortSignal;
}

/** How long the view's session keeps a path's graph and its staleness (ms). */
export const VIEW_CACHE_MS = 10_000;

export function randomToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function serveView(
  sessionOpts: SessionOptions,
  opts: ServeViewOptions,
): Promise<number> {
  const token = opts.token ?? randomToken();
  // A page is read by a person, not polled by an agent: which graph a path means and whether it
  // is stale (git, one stat per file: most of an answer's time on 10,000 files) are re-checked
  // every 10 s rather than every 2 s.
  const session = new Session({ cacheMs: VIEW_CACHE_MS, ...sessionOpts });
  const handle = viewHandler(session, { base: "", token, originAllowed: (o) => originAllowed(o) });
  let server: Deno.HttpServer<Deno.NetAddr>;
  let listening: (port: number) => void = () => {};
  const bound = new Promise<number>((r) => (listening = r));
  try {
    server = Deno.serve({
      hostname: "127.0.0.1",
      port: opts.port,
      onListen: (addr) => listening(addr.port),
      onError: (err) => {
        log.error(`view: ${err instanceof Error ? err.message : String(err)}`);
        return new Response("Internal error\n", { status: 500 });
      },
    }, handle);
  } catch (err) {
    await session.close();
    if (err instanceof Deno.errors.AddrInUse) {
      throw new CgraphError(
        `port ${opts.port} on 127.0.0.1 is in use`,
        "Pick another with --port.",
      );
    }
    throw err;
  }
  const port = await bound;
  const url = `http://127.0.0.1:${port}/?token=${token}`;
  opts.onListen?.(url);

  let finish: () => void = () => {};
  const done = new Promise<void>((r) => (finish = r));
  const stop = () => finish();
  const signals: Deno.Signal[] = ["SIGTERM", "SIGINT"];
  for (const s of signals) Deno.addSignalListener(s, stop);
  opts.signal?.addEventListener("abort", stop);
  if (opts.signal?.aborted) stop();
  await done;
  for (const s of signals) Deno.removeSignalListener(s, stop);
  opts.signal?.removeEventListener("abort", stop);
  await server.shutdown();
  await session.close();
  return 0;
}

/** Opens `url` in the desktop's browser; false when there is no way to. */
export async function openBrowser(url: string): Promise<boolean> {
  const cmd = Deno.build.os === "darwin"
    ? ["open", url]
    : Deno.build.os === "windows"
    ? ["cmd", "/c", "start", "", url]
    : ["xdg-open", url];
  try {
    const child = new Deno.Command(cmd[0], {
      args: cmd.slice(1),
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    return (await child.status).success;
  } catch {
    return false;
  }
}
