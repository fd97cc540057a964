/**
 * What a file is for, by each ecosystem's path conventions: production code, or tests, examples,
 * docs, benchmarks, generated or vendored code. Lists put production code first and leave the
 * rest out unless asked (`include_tests`), counting it in the header.
 */
import { languageOf } from "../lang/registry.ts";

export type Role = "production" | "test" | "example" | "doc" | "bench" | "generated" | "vendored";

/** Directory names that say what their files are for, in any language. */
const DIRS: [RegExp, Role][] = [
  [
    /^(tests?|__tests__|spec|specs|testing|testdata|test_?utils?|fixtures?|it|e2e|integration[-_]?tests?)$/i,
    "test",
  ],
  [/^(examples?|samples?|demos?|_examples)$/i, "example"],
  [/^(docs?|documentation|site|website)$/i, "doc"],
  [/^(bench(marks?)?|perf)$/i, "bench"],
  [/^(vendor|third[-_]?party|external|deps)$/i, "vendored"],
  [/^(generated|gen|__generated__)$/i, "generated"],
];

/** File names of generated code in any language. */
const GENERATED = /(\.pb\.go|_pb2\.py|\.generated\.\w+|_generated\.\w+|\.g\.dart|\.designer\.cs)$/i;

export function roleOf(path: string): Role {
  const parts = path.split("/");
  const file = parts[parts.length - 1];
  if (GENERATED.test(file)) return "generated";
  const spec = languageOf(path);
  if (spec?.testFiles?.test(path)) return "test";
  for (const dir of parts.slice(0, -1)) {
    for (const [pattern, role] of DIRS) if (pattern.test(dir)) return role;
  }
  return "production";
}

export function isProduction(path: string): boolean {
  return roleOf(path) === "production";
}
