/**
 * Random edit sequences for the incremental == full property tests (tests/index_test.ts, and
 * tests/watch_test.ts where a watching server applies them): a seeded PRNG, fixture copies, and
 * one random edit at a time; fixture trees as git repositories.
 */
import { join } from "node:path";

const FIXTURES = new URL("../../fixtures/", import.meta.url).pathname;

/** The fixture of each language (fixtures/<name>), one per language spec family. */
export const LANGUAGE_FIXTURES = [
  "python",
  "typescript",
  "go",
  "java",
  "javascript",
  "rust",
  "ruby",
  "csharp",
  "kotlin",
  "c",
  "cpp",
] as const;

/** A small deterministic PRNG, so a failing sequence can be replayed from its seed. */
export function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function listFiles(dir: string, rel = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(dir, rel))) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.name === ".git") continue; // a repository or a worktree's link to one
    if (e.isDirectory) out.push(...await listFiles(dir, p));
    else if (e.name !== "expected.yaml") out.push(p);
  }
  return out.sort();
}

export async function copyFixture(...langs: string[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "cgraph-fx-" });
  for (const lang of langs) {
    for (const f of await listFiles(join(FIXTURES, lang))) {
      const target = join(dir, langs.length > 1 ? `${lang}/${f}` : f);
      await Deno.mkdir(join(target, ".."), { recursive: true });
      await Deno.copyFile(join(FIXTURES, lang, f), target);
    }
  }
  return dir;
}

/** One random edit: modify (append, truncate, rename a name), delete, add (copy) or move a file. */
export async function randomEdit(
  dir: string,
  rnd: () => number,
  editsOnly = false,
): Promise<string> {
  const files = await listFiles(dir);
  const pick = files[Math.floor(rnd() * files.length)];
  const abs = join(dir, pick);
  // Edits only (no file added, removed or moved) take the partial re-resolution path.
  const op = Math.floor(rnd() * (editsOnly ? 3 : 6));
  const text = await Deno.readTextFile(abs).catch(() => "");
  const lines = text.split("\n");
  switch (op) {
    case 0: { // drop a block of lines: definitions vanish, calls into them break
      const at = Math.floor(rnd() * lines.length);
      lines.splice(at, 1 + Math.floor(rnd() * 6));
      await Deno.writeTextFile(abs, lines.join("\n"));
      return `truncate ${pick}`;
    }
    case 1: { // copy a chunk of another file into this one: new definitions and calls
      const other = files[Math.floor(rnd() * files.length)];
      const chunk = (await Deno.readTextFile(join(dir, other))).split("\n").slice(0, 12).join("\n");
      await Deno.writeTextFile(abs, `${text}\n${chunk}\n`);
      return `append ${other} to ${pick}`;
    }
    case 2: { // rename every occurrence of one identifier: callers and callees change together
      const words = [...new Set(text.match(/[A-Za-z_][A-Za-z0-9_]{3,}/g) ?? [])];
      if (!words.length) return "noop";
      const w = words[Math.floor(rnd() * words.length)];
      await Deno.writeTextFile(abs, text.replaceAll(w, `${w}X`));
      return `rename ${w} in ${pick}`;
    }
    case 3:
      if (files.length > 3) {
        await Deno.remove(abs);
        return `delete ${pick}`;
      }
      return "noop";
    case 4: { // add a copy under a new name: duplicates and decoys appear
      const target = abs.replace(/(\.[^./]+)$/, `_copy${Math.floor(rnd() * 100)}$1`);
      await Deno.copyFile(abs, target);
      return `copy ${pick}`;
    }
    default: { // move: a rename is delete + add
      const target = abs.replace(/([^/]+)$/, `moved_$1`);
      await Deno.rename(abs, target);
      return `move ${pick}`;
    }
  }
}

/** Runs git in `cwd` as a fixed identity (default branch main); throws with git's message. */
export async function git(cwd: string, ...args: string[]): Promise<string> {
  const out = await new Deno.Command("git", {
    args: ["-c", "user.name=t", "-c", "user.email=t@t", "-c", "init.defaultBranch=main", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout).trim();
}

/** A git repository (branch main, one commit) holding the given fixtures. */
export async function fixtureRepo(...langs: string[]): Promise<string> {
  const dir = await copyFixture(...langs);
  await git(dir, "init", "-q");
  await git(dir, "add", ".");
  await git(dir, "commit", "-qm", "init");
  return dir;
}
