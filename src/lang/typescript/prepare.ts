/**
 * TypeScript source as tree-sitter-typescript (0.23) can read it. The grammar predates a few
 * constructs that compile cleanly, and its error recovery can then swallow what follows the
 * construct (a class's later methods after `abstract override x: T;`). This rewrites them into
 * text of the same length whose line breaks stay where they were, so every node keeps its offset
 * and line; what is blanked carries nothing the index reads:
 *
 * - variance annotations on type parameters (`interface Box<in out T>`, `<out Output = unknown>`,
 *   TypeScript 4.7): the `in` / `out` modifiers become spaces;
 * - `abstract` together with `override` on a class member (`abstract override id: Kind;`): the
 *   grammar reads only `abstract` fields without `override`; `override` becomes spaces;
 * - `export type * from "m"` (TypeScript 5.0): `type` becomes spaces (the re-export remains);
 * - a generic type reached through an import type (`import("./types").Reply<T>`, what `tsc`
 *   writes into declaration files): the grammar reads `import("./types")` there as a call and
 *   fails on the type arguments; it becomes an identifier of the same length (`_____________`),
 *   so the type is read as `X.Reply<T>`, its name unchanged;
 * - generic call signatures of an object type on lines of their own without separators
 *   (`): T` then a line `<R extends string>(path: R): T`): the grammar reads `T <R ...` as type
 *   arguments and the error swallowed a whole declaration file (express's `router`). The last
 *   indentation character of the next signature becomes the `;` ASI would insert.
 */

/** `<` or `,` then `in`/`out` modifiers then a type parameter's name and what may follow it. */
const VARIANCE =
  /([<,][ \t\r\n]*)((?:(?:in|out)[ \t\r\n]+)+)(?=[A-Za-z_$][\w$]*[ \t\r\n]*(?:extends\b|=|,|>))/g;

const ABSTRACT_OVERRIDE = /\b(abstract[ \t]+)override\b|\boverride(?=[ \t]+abstract\b)/g;

const EXPORT_TYPE_STAR = /^([ \t]*export[ \t]+)type(?=[ \t]+\*)/gm;

const GENERIC_IMPORT_TYPE = /\bimport\((?:"[^"\n]*"|'[^'\n]*')\)(?=\.[A-Za-z_$][\w$.]*[ \t]*<)/g;

const UNSEPARATED_SIGNATURE =
  /(\):[ \t]*[\w$.\[\]<>| ]*[\w$\]>][ \t]*\r?\n[ \t]*)[ \t](?=<[A-Za-z_$][\w$]*(?:[ \t]+extends\b|[ \t]*[=,>]))/g;

const spaces = (s: string) => s.replace(/[^\r\n]/g, " ");

export function prepareTypeScriptSource(text: string): string {
  // Cheap tests first: most files hold none of these.
  if (/\b(?:in|out)[ \t\r\n]/.test(text)) {
    text = text.replace(VARIANCE, (_, before: string, mods: string) => before + spaces(mods));
  }
  if (text.includes("override")) {
    text = text.replace(
      ABSTRACT_OVERRIDE,
      (m: string, abstract?: string) =>
        abstract ? abstract + " ".repeat(m.length - abstract.length) : " ".repeat(m.length),
    );
  }
  if (text.includes("export")) {
    text = text.replace(EXPORT_TYPE_STAR, (_, head: string) => head + "    ");
  }
  if (text.includes("import(")) {
    text = text.replace(GENERIC_IMPORT_TYPE, (m: string) => "_".repeat(m.length));
  }
  if (text.includes("):")) text = text.replace(UNSEPARATED_SIGNATURE, "$1;");
  return text;
}
