/**
 * `cgraph init-agent`: writes the cgraph guidance into a repository for the chosen clients and
 * says how to register the server with each. Files are changed idempotently: the guidance lives
 * between marker comments; a run replaces that section only (or appends it once), so running it
 * again changes nothing and the user's own content around it is kept byte for byte.
 */
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CgraphError } from "../errors.ts";
import { BEGIN_MARKER, cursorRule, END_MARKER, markedGuidance } from "./templates.ts";

export const CLIENTS = ["claude", "cursor", "codex", "vscode"] as const;
export type Client = typeof CLIENTS[number];

/** How clients start the server: a command and the arguments before `mcp`. */
export interface Launch {
  command: string;
  args: string[];
}

export type FileAction = "created" | "updated" | "unchanged";

export interface InitResult {
  root: string;
  files: { path: string; action: FileAction }[];
  registration: string;
}

/**
 * `existing` with the marked guidance put in: between the markers if present (replacing what is
 * there), else appended after the user's content. Malformed markers are an error, never guessed.
 */
export function upsertSection(existing: string | undefined, section: string): string {
  if (existing === undefined || existing.trim() === "") return section;
  const begins = existing.split(BEGIN_MARKER).length - 1;
  const ends = existing.split(END_MARKER).length - 1;
  const b = existing.indexOf(BEGIN_MARKER);
  const e = existing.indexOf(END_MARKER);
  if (begins === 0 && ends === 0) {
    const sep = existing.endsWith("\n\n") ? "" : existing.endsWith("\n") ? "\n" : "\n\n";
    return existing + sep + section;
  }
  if (begins !== 1 || ends !== 1 || e < b) {
    throw new CgraphError(
      "the cgraph section's marker comments are broken (missing, repeated or out of order)",
      `Keep exactly one '${BEGIN_MARKER}' ... '${END_MARKER}' pair (or delete both), then run ` +
        "again.",
    );
  }
  let after = existing.slice(e + END_MARKER.length);
  if (after.startsWith("\r\n")) after = after.slice(2);
  else if (after.startsWith("\n")) after = after.slice(1);
  return existing.slice(0, b) + section + after;
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await Deno.readTextFile(path);
  } catch (err) {
    if (err instanceof Deno.errors.NotFound) return undefined;
    throw err;
  }
}

/** Writes `path` when its content would change; what happened. */
async function apply(
  path: string,
  make: (existing: string | undefined) => string,
  dryRun: boolean,
): Promise<FileAction> {
  const existing = await readIfExists(path);
  const next = make(existing);
  if (existing === next) return "unchanged";
  if (!dryRun) {
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, next);
  }
  return existing === undefined ? "created" : "updated";
}

/** The guidance files each client reads (paths relative to the repository root). */
export function guidanceFiles(client: Client): string[] {
  switch (client) {
    case "claude":
      return ["CLAUDE.md"];
    case "codex":
    case "vscode": // VS Code's agent mode reads AGENTS.md
      return ["AGENTS.md"];
    case "cursor":
      return [".cursor/rules/cgraph.mdc"];
  }
}

/** The repository root for `path`: git's top level, else the directory itself. */
export async function repoRoot(path: string): Promise<string> {
  const dir = resolve(path);
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(dir);
  } catch {
    throw new CgraphError(`no such directory: ${dir}`);
  }
  if (!info.isDirectory) throw new CgraphError(`not a directory: ${dir}`);
  try {
    const out = await new Deno.Command("git", {
      args: ["-C", dir, "rev-parse", "--show-toplevel"],
      stdout: "piped",
      stderr: "null",
    }).output();
    const top = new TextDecoder().decode(out.stdout).trim();
    if (out.success && top) return top;
  } catch {
    // no git: the directory itself
  }
  return dir;
}

/** An executable's absolute path on PATH, if any. */
export function onPath(name: string): string | undefined {
  const sep = Deno.build.os === "windows" ? ";" : ":";
  for (const dir of (Deno.env.get("PATH") ?? "").split(sep)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * How this cgraph is started: a compiled binary (`cgraph` when that is what PATH finds), or
 * `deno run` of the bundle or of main.ts.
 */
export function currentLaunch(): Launch {
  const exec = Deno.execPath();
  const name = basename(exec).replace(/\.exe$/i, "");
  if (name !== "deno") {
    const found = onPath("cgraph");
    return { command: found && Deno.realPathSync(found) === exec ? "cgraph" : exec, args: [] };
  }
  const main = Deno.mainModule;
  if (!main.startsWith("file:")) return { command: "cgraph", args: [] };
  const file = fileURLToPath(main);
  const flags = file.endsWith(".ts") ? ["--unstable-raw-imports"] : ["--no-config"];
  return { command: "deno", args: ["run", "-A", ...flags, file] };
}

function shellWord(s: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(s) ? s : `'${s.replaceAll("'", `'\\''`)}'`;
}

function tomlString(s: string): string {
  return JSON.stringify(s);
}

/** Registration instructions for one client: stdio (launch) or a shared HTTP server (url). */
export function registration(
  client: Client | "desktop",
  where: { launch: Launch; root: string; url?: string },
): string {
  const { launch, root, url } = where;
  const args = [...launch.args, "mcp"];
  const cmdline = [launch.command, ...args].map(shellWord).join(" ");
  const json = (v: unknown) => JSON.stringify(v, null, 2);
  switch (client) {
    case "claude":
      return url
        ? [
          "Claude Code (shared HTTP server):",
          `  claude mcp add --transport http cgraph ${url} --header "Authorization: Bearer $CGRAPH_TOKEN"`,
        ].join("\n")
        : [
          "Claude Code: register for yourself, or for everyone in this repository (.mcp.json):",
          `  claude mcp add cgraph -- ${cmdline}`,
          `  claude mcp add --scope project cgraph -- ${cmdline}`,
        ].join("\n");
    case "desktop": {
      const command = launch.command.includes("/")
        ? launch.command
        : (onPath(launch.command) ?? launch.command);
      const entry = url
        ? {
          command: "npx",
          args: ["-y", "mcp-remote", url, "--header", "Authorization:${AUTH_HEADER}"],
          env: { AUTH_HEADER: "Bearer <CGRAPH_TOKEN>" },
        }
        : { command, args: [...args, root] };
      return [
        "Claude Desktop: add to claude_desktop_config.json (macOS: ~/Library/Application " +
        "Support/Claude/, Windows: %APPDATA%\\Claude\\), then restart it:",
        indent(json({ mcpServers: { cgraph: entry } })),
      ].join("\n");
    }
    case "cursor": {
      const entry = url
        ? { url, headers: { Authorization: "Bearer <CGRAPH_TOKEN>" } }
        : { command: launch.command, args };
      return [
        "Cursor: .cursor/mcp.json in this repository (or ~/.cursor/mcp.json for all projects):",
        indent(json({ mcpServers: { cgraph: entry } })),
      ].join("\n");
    }
    case "vscode": {
      const entry = url
        ? { type: "http", url, headers: { Authorization: "Bearer <CGRAPH_TOKEN>" } }
        : { type: "stdio", command: launch.command, args };
      return [
        "VS Code: .vscode/mcp.json in this repository:",
        indent(json({ servers: { cgraph: entry } })),
        "  or: code --add-mcp " + shellWord(JSON.stringify({ name: "cgraph", ...entry })),
      ].join("\n");
    }
    case "codex":
      return url
        ? [
          "Codex: ~/.codex/config.toml (the token is read from the CGRAPH_TOKEN variable):",
          "  [mcp_servers.cgraph]",
          `  url = ${tomlString(url)}`,
          '  bearer_token_env_var = "CGRAPH_TOKEN"',
        ].join("\n")
        : [
          "Codex: codex mcp add cgraph -- " + cmdline,
          "  or in ~/.codex/config.toml:",
          "  [mcp_servers.cgraph]",
          `  command = ${tomlString(launch.command)}`,
          `  args = [${args.map(tomlString).join(", ")}]`,
        ].join("\n");
  }
}

function indent(text: string): string {
  return text.split("\n").map((l) => `  ${l}`).join("\n");
}

export interface InitOptions {
  path: string;
  clients: Client[];
  launch?: Launch;
  /** A shared server's URL (`cgraph mcp --http`): print HTTP registrations. */
  url?: string;
  dryRun?: boolean;
}

export async function initAgent(opts: InitOptions): Promise<InitResult> {
  const root = await repoRoot(opts.path);
  const clients = opts.clients.length > 0 ? opts.clients : [...CLIENTS];
  const launch = opts.launch ?? currentLaunch();
  const files: InitResult["files"] = [];
  const paths = [...new Set(clients.flatMap(guidanceFiles))];
  for (const rel of paths) {
    const full = join(root, rel);
    const action = await apply(
      full,
      (existing) =>
        rel.endsWith(".mdc") && existing === undefined
          ? cursorRule()
          : upsertSection(existing, markedGuidance()),
      opts.dryRun ?? false,
    );
    files.push({ path: rel, action });
  }
  const blocks: string[] = [];
  for (const c of clients) {
    blocks.push(registration(c, { launch, root, url: opts.url }));
    if (c === "claude") blocks.push(registration("desktop", { launch, root, url: opts.url }));
  }
  return { root, files, registration: blocks.join("\n\n") };
}
