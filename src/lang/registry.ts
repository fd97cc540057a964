/**
 * Every supported language, and which one a path belongs to. Adding a language: a folder under
 * src/lang/ with spec.ts + tags.scm, one line here, and a fixture under fixtures/.
 */
import { python } from "./python/spec.ts";
import { csharp } from "./csharp/spec.ts";
import { ruby } from "./ruby/spec.ts";
import { c } from "./c/spec.ts";
import { go } from "./go/spec.ts";
import { rust } from "./rust/spec.ts";
import { cpp } from "./cpp/spec.ts";
import { javascript } from "./javascript/spec.ts";
import { tsx, typescript } from "./typescript/spec.ts";
import { java } from "./java/spec.ts";
import { kotlin } from "./kotlin/spec.ts";
import type { LanguageSpec } from "./spec.ts";

export const LANGUAGES: readonly LanguageSpec[] = [
  javascript,
  typescript,
  tsx,
  python,
  csharp,
  ruby,
  c,
  cpp,
  java,
  kotlin,
  go,
  rust,
];

const BY_EXTENSION = new Map<string, LanguageSpec>();
for (const lang of LANGUAGES) for (const ext of lang.extensions) BY_EXTENSION.set(ext, lang);

/** Whether a file name is a project file some language reads (LanguageSpec.manifests). */
export const isManifestName: (name: string) => boolean = (() => {
  const names = [...new Set(LANGUAGES.flatMap((l) => l.manifests ?? []))];
  const re = new RegExp(
    `^(?:${
      names.map((n) => n.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace("*", "[^/]*")).join("|")
    })$`,
  );
  return (name: string) => names.length > 0 && re.test(name);
})();

export function languageByName(name: string): LanguageSpec | undefined {
  return LANGUAGES.find((l) => l.name === name);
}

/**
 * The language of a path, or undefined when cgraph does not read it. `.h` is C unless the project
 * is C++ (`cppHeaders`: it has C++ sources).
 */
export function languageOf(path: string, cppHeaders = false): LanguageSpec | undefined {
  const dot = path.lastIndexOf(".");
  if (dot < 0 || dot < path.lastIndexOf("/")) return undefined;
  const ext = path.slice(dot).toLowerCase();
  if (ext === ".h" && cppHeaders) return languageByName("cpp") ?? BY_EXTENSION.get(ext);
  return BY_EXTENSION.get(ext);
}

/**
 * The language of a file once its text is known: a language that claims the file's extension by
 * content (see LanguageSpec.claims) wins over the one chosen by path; the first match counts, so a
 * header with C++ constructs is C++ even when it also guards its declarations for C callers.
 */
export function refineLanguage(spec: LanguageSpec, path: string, bytes: Uint8Array): LanguageSpec {
  const ext = path.slice(path.lastIndexOf(".")).toLowerCase();
  const claimants = CLAIMS.filter((c) => c.claims!.extensions.includes(ext));
  if (!claimants.length) return spec;
  const text = new TextDecoder().decode(bytes.subarray(0, 65536));
  for (const c of claimants) {
    const { pattern, comments } = c.claims!;
    if (pattern.test(comments ? text.replace(comments, " ") : text)) return c;
  }
  return spec;
}

/** Languages that claim files by content, strongest evidence first. */
const CLAIMS = LANGUAGES.filter((l) => l.claims).sort((a, b) =>
  b.claims!.priority - a.claims!.priority
);
