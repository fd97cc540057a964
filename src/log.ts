/**
 * Logging to stderr only: stdout may carry an MCP stream, so nothing else may ever write there.
 * `CGRAPH_LOG=debug|info|warn|error|silent` sets the level (default info).
 */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = keyof typeof LEVELS;

function threshold(): number {
  const raw = (Deno.env.get("CGRAPH_LOG") ?? "info").toLowerCase();
  return LEVELS[raw as Level] ?? LEVELS.info;
}

const encoder = new TextEncoder();

function write(level: Level, message: string): void {
  if (LEVELS[level] < threshold()) return;
  const prefix = level === "info" ? "cgraph: " : `cgraph ${level}: `;
  try {
    Deno.stderr.writeSync(encoder.encode(prefix + message + "\n"));
  } catch {
    // stderr closed: nowhere left to report to.
  }
}

export const log = {
  debug: (m: string) => write("debug", m),
  info: (m: string) => write("info", m),
  warn: (m: string) => write("warn", m),
  error: (m: string) => write("error", m),
};
