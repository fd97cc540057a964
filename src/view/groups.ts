/**
 * The module map's `auto` level on a large repository: files put into at most `max` groups, as
 * fine as that allows. Starting from the whole tree, the group with the most files is split
 * again and again (a directory into its subdirectories and its own files; a directory's own files
 * by the next letter of their names after the prefix they share: `pkg/mod1*`, `pkg/mod2*`, ...;
 * a group of one file is that file) while the groups stay within `max`. A flat directory of
 * thousands of files is so split too, where grouping by directory depth gives one node.
 */

export interface FileGroup {
  /** `dir:<path>` for a directory, `dir:<dir>/<prefix>*` for part of one, the path for a file. */
  key: string;
  /** What the group stands for: `src/api`, `pkg/mod1*`, or the file's path. */
  path: string;
  kind: "dir" | "prefix" | "file";
  files: string[];
}

function dirOf(path: string): string {
  const i = path.lastIndexOf("/");
  return i < 0 ? "" : path.slice(0, i);
}

function baseOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

const join = (dir: string, name: string) => (dir ? `${dir}/${name}` : name);

function fileGroup(path: string): FileGroup {
  return { key: path, path, kind: "file", files: [path] };
}

/** The files under `dir` (`""`: the root), as a group: one file, or the directory. */
function dirGroup(dir: string, files: string[]): FileGroup {
  if (files.length === 1) return fileGroup(files[0]);
  // A directory whose files all lie in one subdirectory is that subdirectory (java/com/bench).
  let d = dir;
  for (;;) {
    const first = files[0].slice(d ? d.length + 1 : 0);
    const slash = first.indexOf("/");
    if (slash < 0) break;
    const sub = join(d, first.slice(0, slash));
    if (!files.every((f) => f.startsWith(`${sub}/`))) break;
    d = sub;
  }
  return { key: `dir:${d || "."}`, path: d || ".", kind: "dir", files };
}

function prefixGroup(dir: string, prefix: string, files: string[]): FileGroup {
  if (files.length === 1) return fileGroup(files[0]);
  const path = `${join(dir, prefix)}*`;
  return { key: `dir:${path}`, path, kind: "prefix", files };
}

/** The groups one group splits into (itself alone when it cannot be split). */
export function splitGroup(g: FileGroup): FileGroup[] {
  if (g.kind === "file") return [g];
  const dir = g.kind === "dir" ? (g.path === "." ? "" : g.path) : dirOf(g.path);
  const own: string[] = [];
  const subs = new Map<string, string[]>();
  for (const f of g.files) {
    const rest = f.slice(dir ? dir.length + 1 : 0);
    const slash = rest.indexOf("/");
    if (slash < 0 || g.kind === "prefix") own.push(f);
    else {
      const name = rest.slice(0, slash);
      const list = subs.get(name);
      if (list) list.push(f);
      else subs.set(name, [f]);
    }
  }
  const out: FileGroup[] = [...subs].map(([name, files]) => dirGroup(join(dir, name), files));
  if (!own.length) return out;
  if (own.length === 1) return [...out, fileGroup(own[0])];
  if (out.length) return [...out, prefixGroup(dir, "", own)];
  // Only files of its own: by the letter after the prefix their names share.
  const names = own.map(baseOf);
  let common = names[0];
  for (const n of names) {
    let i = 0;
    while (i < common.length && i < n.length && common[i] === n[i]) i++;
    common = common.slice(0, i);
  }
  const parts = new Map<string, string[]>();
  own.forEach((f, i) => {
    const c = names[i].slice(0, common.length + 1);
    const list = parts.get(c);
    if (list) list.push(f);
    else parts.set(c, [f]);
  });
  const out2 = [...parts].map(([p, files]) => prefixGroup(dir, p, files));
  // A few odd names (`__init__.py` beside `mod*.py`) are no level of their own: the part with
  // nearly all the files is split at once.
  const most = out2.findIndex((p) => p.kind === "prefix" && p.files.length >= 0.9 * own.length);
  if (most >= 0) out2.splice(most, 1, ...splitGroup(out2[most]));
  return out2;
}

/**
 * At most `max` groups of `paths` (each path in exactly one), as fine as that allows, level by
 * level: every group is split in one round, and the rounds go on while a whole round fits in
 * `max` (so the groups drawn are of one level, not some split and their neighbours not). A group
 * that alone would split into more than fits (a vendor directory of thousands of packages) stays
 * whole and the others go on. Sorted by path.
 */
export function groupFiles(paths: string[], max: number): FileGroup[] {
  if (!paths.length) return [];
  let groups = [dirGroup("", [...paths].sort())];
  const whole = new Set<FileGroup>();
  for (;;) {
    const next: FileGroup[] = [];
    let split = false;
    for (const g of groups) {
      const parts = g.kind === "file" || whole.has(g) ? [g] : splitGroup(g);
      if (parts.length > 1 && groups.length - 1 + parts.length > max) {
        whole.add(g);
        next.push(g);
      } else {
        split ||= parts.length > 1 || parts[0] !== g;
        next.push(...parts);
      }
    }
    if (!split || next.length > max) break;
    groups = next;
  }
  return groups.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
