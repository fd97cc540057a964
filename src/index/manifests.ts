/**
 * Project files languages read to resolve imports (`package.json`, `tsconfig.json`: see
 * LanguageSpec.manifests): read with the sources on every run, never parsed here, and summed up in
 * one digest. A run whose digest differs from the last one re-resolves every file, so an edit to a
 * manifest alone still leaves exactly the graph a full index would.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";

/** Larger project files are not read (a generated lock file, not a manifest)... */
const MAX_BYTES = 512 * 1024;
/**
 * ...but for a compilation database, which is generated and large by nature (a command line per
 * translation unit: libgit2's is 0.9 MB for 726 units).
 */
const MAX_BYTES_OF: Record<string, number> = { "compile_commands.json": 64 * 1024 * 1024 };

export interface Manifests {
  texts: Map<string, string>;
  digest: string;
}

export async function readManifests(root: string, paths: string[]): Promise<Manifests> {
  const texts = new Map<string, string>();
  for (const path of [...paths].sort()) {
    try {
      const abs = join(root, path);
      const max = MAX_BYTES_OF[path.slice(path.lastIndexOf("/") + 1)] ?? MAX_BYTES;
      if ((await Deno.stat(abs)).size > max) continue;
      texts.set(path, await Deno.readTextFile(abs));
    } catch {
      // unreadable: as if absent
    }
  }
  const h = createHash("sha256");
  for (const [path, text] of texts) h.update(`${path}\0${text}\0`);
  return { texts, digest: texts.size ? h.digest("hex").slice(0, 32) : "" };
}
