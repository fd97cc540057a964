/** The index summary as compact text (CLI and `index_repo` share it) and as JSON. */
import { displayName } from "../project/names.ts";
import type { IndexSummary, Progress } from "./summary.ts";

const LIST_CAP = 20;

function counts(r: Record<string, number>): string {
  const entries = Object.entries(r).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  return entries.length ? entries.map(([k, n]) => `${k} ${n}`).join(", ") : "none";
}

function capped(list: string[]): string {
  if (list.length <= LIST_CAP) return list.join(", ");
  return `${list.slice(0, LIST_CAP).join(", ")} (+${list.length - LIST_CAP} more)`;
}

export function formatSummary(s: IndexSummary): string {
  const f = s.files;
  const lines = [
    `indexed ${displayName(s.project)}:${
      displayName(s.branch)
    } | mode ${s.mode} | graph ${s.graph} | ${s.durationMs} ms | ${s.filesPerSecond} files/s`,
    `files: scanned ${f.scanned}, added ${f.added.length}, modified ${f.modified.length}, deleted ${f.deleted.length}, unchanged ${f.unchanged}, skipped ${f.skipped.length}, unsupported ${f.unsupported}${
      f.parseErrors ? `, with syntax errors ${f.parseErrors}` : ""
    }`,
    ...(s.seededFrom
      ? [`started from a copy of branch ${displayName(s.seededFrom)}'s graph (new branch)`]
      : []),
    `symbols: ${counts(s.symbols)}`,
    `edges: ${counts(s.edges)}`,
  ];
  if (s.mode === "incremental") {
    const changed = [
      ...f.added.map((p) => `+${p}`),
      ...f.modified.map((p) => `~${p}`),
      ...f.deleted.map((p) => `-${p}`),
    ];
    if (changed.length) lines.push(`changed: ${capped(changed)}`);
  }
  if (f.syntaxErrors?.length) {
    lines.push(`syntax errors (lines not indexed): ${capped(f.syntaxErrors)}`);
  }
  if (f.lostDefinitions?.length) {
    lines.push(`definitions lost to syntax errors: ${capped(f.lostDefinitions)}`);
  }
  if (f.skipped.length) {
    lines.push(`skipped: ${capped(f.skipped.map((x) => `${x.path} (${x.reason})`))}`);
  }
  if (s.evicted?.length) {
    lines.push(
      `dropped least recently used graph(s) of this project (cap CGRAPH_MAX_GRAPHS_PER_PROJECT): ${
        s.evicted.map(displayName).join(", ")
      }`,
    );
  }
  for (const w of s.warnings) lines.push(`warning: ${w}`);
  return lines.join("\n");
}

/** JSON form: the same facts, lists capped like the text so answers stay small. */
export function summaryJson(s: IndexSummary, cap = 200): Record<string, unknown> {
  const cut = <T>(l: T[]) => (l.length > cap ? l.slice(0, cap) : l);
  return {
    project: displayName(s.project),
    branch: displayName(s.branch),
    graph: s.graph,
    root: s.root,
    commit: s.commit ?? null,
    mode: s.mode,
    seeded_from: s.seededFrom ? displayName(s.seededFrom) : null,
    evicted: (s.evicted ?? []).map(displayName),
    files_changed: cut([...s.files.added, ...s.files.modified, ...s.files.deleted]),
    files: {
      scanned: s.files.scanned,
      added: s.files.added.length,
      modified: s.files.modified.length,
      deleted: s.files.deleted.length,
      unchanged: s.files.unchanged,
      skipped: cut(s.files.skipped),
      unsupported: s.files.unsupported,
      with_syntax_errors: s.files.parseErrors,
      syntax_errors: cut(s.files.syntaxErrors ?? []),
      lost_definitions: cut(s.files.lostDefinitions ?? []),
    },
    symbols: s.symbols,
    edges: s.edges,
    duration_ms: s.durationMs,
    timings_ms: s.timings,
    files_per_second: s.filesPerSecond,
    warnings: s.warnings,
  };
}

/** A one-line progress bar for a terminal (stderr), redrawn in place. */
export function progressBar(): (p: Progress) => void {
  if (!Deno.stderr.isTerminal()) return () => {};
  const enc = new TextEncoder();
  let last = 0;
  return (p) => {
    const now = performance.now();
    if (p.phase !== "done" && now - last < 80) return;
    last = now;
    let line: string;
    if (p.phase === "done") line = "";
    else if (p.total > 0) {
      const width = 30;
      const filled = Math.round((p.done / p.total) * width);
      line = `${p.phase.padEnd(7)} [${"#".repeat(filled)}${
        ".".repeat(width - filled)
      }] ${p.done}/${p.total}`;
    } else line = `${p.phase}...`;
    Deno.stderr.writeSync(enc.encode(`\r\x1b[2K${line}`));
  };
}
