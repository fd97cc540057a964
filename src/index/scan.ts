/** Reads, hashes and analyzes files (the CPU-heavy part of indexing), skipping what cannot be read. */
import type { FileFacts } from "../graph/facts.ts";
import { extractFacts, sha256 } from "./extract.ts";
import { refineLanguage } from "../lang/registry.ts";
import type { Candidate, Skipped } from "./walk.ts";

/** Files larger than this are skipped (and reported): generated code, bundles, data. */
export function maxFileBytes(): number {
  const n = Number(Deno.env.get("CGRAPH_MAX_FILE_BYTES"));
  return Number.isFinite(n) && n > 0 ? n : 1024 * 1024;
}

export interface ReadFile {
  candidate: Candidate;
  bytes: Uint8Array;
  hash: string;
  size: number;
  /** Modification time in ms (0 when the platform has none). */
  mtime: number;
}

/** Reads and hashes candidates; binary, oversized and unreadable files go to `skipped`. */
export async function readCandidates(
  candidates: Candidate[],
  skipped: Skipped[],
): Promise<ReadFile[]> {
  const limit = maxFileBytes();
  const results: (ReadFile | Skipped)[] = new Array(candidates.length);
  // A few reads in flight at once: the disk and the hashing overlap.
  let next = 0;
  const worker = async () => {
    while (next < candidates.length) {
      const i = next++;
      results[i] = await readOne(candidates[i], limit);
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, candidates.length) }, worker));
  const out: ReadFile[] = [];
  for (const r of results) {
    if ("reason" in r) skipped.push(r);
    else out.push(r);
  }
  return out;
}

async function readOne(c: Candidate, limit: number): Promise<ReadFile | Skipped> {
  let bytes: Uint8Array;
  let st: Deno.FileInfo;
  try {
    st = await Deno.stat(c.abs);
    if (st.size > limit) return { path: c.path, reason: `too large (${st.size} bytes > ${limit})` };
    bytes = await Deno.readFile(c.abs);
  } catch (err) {
    return { path: c.path, reason: `unreadable (${(err as Error).message})` };
  }
  if (looksBinary(bytes)) return { path: c.path, reason: "binary" };
  const language = refineLanguage(c.language, c.path, bytes);
  return {
    candidate: language === c.language ? c : { ...c, language },
    bytes,
    hash: sha256(bytes),
    size: st.size,
    mtime: st.mtime?.getTime() ?? 0,
  };
}

/** A NUL byte in the first 8 KiB marks a binary file, as git decides. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/** Analyzes files in this thread (the worker pool uses the same function per file). */
export async function analyzeFiles(files: ReadFile[], skipped: Skipped[]): Promise<FileFacts[]> {
  const out: FileFacts[] = [];
  for (const f of files) {
    try {
      out.push(await extractFacts(f.candidate.language, f.candidate.path, f.bytes, f.hash));
    } catch (err) {
      skipped.push({ path: f.candidate.path, reason: `parse failed (${(err as Error).message})` });
    }
  }
  return out;
}
