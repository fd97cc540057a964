/**
 * The graph model as the indexer writes it (src/graph/model.ts, src/db/cypher.ts), described by
 * hand for a model writing Cypher: every label, property and relationship with one line saying
 * what it means in code terms, plus worked examples that run on any indexed project. The same
 * facts drive validation (known labels, properties and relationship directions), so what the
 * prompt promises and what the validator accepts cannot disagree.
 */
import { SYMBOL_KINDS } from "../graph/facts.ts";
import { LANGUAGES } from "../lang/registry.ts";

/** Languages whose tags.scm defines symbols of a kind (`struct`, `trait`), from the data itself. */
function languagesWith(kind: string): string {
  return LANGUAGES.filter((l) => l.query.includes(`@definition.${kind}`)).map((l) => l.name)
    .join(", ");
}

/** The kind labels every Symbol also carries (the indexer's list, never a copy of it). */
export const KIND_LABELS = SYMBOL_KINDS;

export interface LabelDoc {
  label: string;
  description: string;
  properties: Record<string, string>;
}

export interface RelationDoc {
  type: string;
  /** [from label, to label] pairs (File / Symbol; kind labels count as Symbol). */
  ends: [string, string][];
  description: string;
  properties: Record<string, string>;
}

const SYMBOL_PROPS: Record<string, string> = {
  id: "stable internal id (hash of path, qualified name, kind); only for joins",
  name: "short name as written in code: `save`, `UserService`",
  qualified_name:
    "dotted module path + containers: `shop.models.User.save` (file path without extension, " +
    "`/` -> `.`); unique enough to name a symbol",
  kind:
    "one of Function, Method, Class, Interface, Struct, Enum, Trait, Module (same as its label)",
  path: "file that defines it, relative to the repository root, `/`-separated",
  line: "line of the definition's name (1-based; decorators and annotations come before it)",
  end_line: "last line of the definition",
  signature: "the declaration line(s): parameters and return type as written",
  doc: "docstring / leading comment, may be empty",
  language: LANGUAGES.map((l) => l.name).join(", "),
  words: "lower-case words of name and qualified name (for full-text search)",
};

export const LABELS: LabelDoc[] = [
  {
    label: "File",
    description: "a source file of the repository",
    properties: {
      id: "stable internal id; only for joins",
      path: "relative to the repository root, `/`-separated: `src/auth/login.ts`",
      name: "file name: `login.ts`",
      ext: "extension with the dot: `.ts`",
      language: SYMBOL_PROPS.language,
      hash: "SHA-256 of the content",
      lines: "number of lines",
      calls: "the file's call sites by name, resolved or not: ` name:line,line name:line ` " +
        "(find them with `f.calls CONTAINS ' name:'`)",
      uses: "module paths the file imports, as written: ` a/b c.d ` (`f.uses CONTAINS ' pkg'`)",
    },
  },
  {
    label: "Package",
    description: "a package this project offers other projects (package.json name, Go package, " +
      "Cargo library, Python top-level package, JVM/C# package)",
    properties: {
      name: "the name other projects import: `@acme/geo`, `example.com/kit/shapes`",
      dir: "its directory, relative to the repository root",
      sep: "what follows the name in an import of its contents (`/`, `.`, `::`; '' for none)",
      languages: "languages that import it, space-separated",
    },
  },
  {
    label: "Symbol",
    description:
      "a definition in code; every Symbol also has exactly one kind label (:Function, :Method, " +
      ":Class, :Interface, :Struct, :Enum, :Trait, :Module)",
    properties: SYMBOL_PROPS,
  },
  ...KIND_LABELS.map((k): LabelDoc => ({
    label: k,
    description: {
      Function: "a free function (also functions and lambdas assigned to names)",
      Method: "a function defined inside a class / struct / impl / interface / object literal",
      Class: "a class (records and singleton objects included)",
      Interface: "an interface / protocol",
      Struct: `a struct (${languagesWith("struct")})`,
      Enum: "an enum",
      Trait: `a trait (${languagesWith("trait")})`,
      Module: "a module / namespace / an object literal of functions",
    }[k],
    properties: SYMBOL_PROPS,
  })),
];

export const RELATIONS: RelationDoc[] = [
  {
    type: "DEFINES",
    ends: [["File", "Symbol"], ["Symbol", "Symbol"]],
    description:
      "a file defines its top-level symbols; a symbol defines what is nested in it (class -> " +
      "method)",
    properties: {},
  },
  {
    type: "CALLS",
    ends: [["Symbol", "Symbol"], ["File", "Symbol"]],
    description:
      "the caller calls the callee (a constructor call reaches the constructor that runs); from " +
      "a File for top-level code. One edge per caller/callee pair",
    properties: {
      line: "line of the first call site, in the caller's file",
      count: "number of call sites",
      confidence:
        "1 resolved by scope/import/self, 0.9 typed receiver, 0.7 unique name, 0.5 unique " +
        "method name",
      via: "'value' when the callee was reached as a function value (alias, field, argument)",
    },
  },
  {
    type: "INSTANTIATES",
    ends: [["Symbol", "Symbol"], ["File", "Symbol"]],
    description:
      "the caller creates an object of the class (`new X()`, `X()`): who creates X, also when X " +
      "has no constructor of its own",
    properties: {
      line: "line of the first creation site",
      count: "number of creation sites",
      confidence: "as for CALLS",
    },
  },
  {
    type: "IMPORTS",
    ends: [["File", "File"]],
    description: "a file imports another file of the repository (external packages are not nodes)",
    properties: {
      line: "line of the import statement",
      type_only:
        "true when every import behind it serves types only or runs late (`import type`, " +
        "`if TYPE_CHECKING:`, inside a function); absent otherwise",
    },
  },
  {
    type: "EXTENDS",
    ends: [["Symbol", "Symbol"]],
    description: "subclass -> base class; sub-interface -> super-interface",
    properties: { line: "line of the class header" },
  },
  {
    type: "IMPLEMENTS",
    ends: [["Symbol", "Symbol"]],
    description:
      "class -> interface it implements (also trait implementations, supertypes, mixins)",
    properties: { line: "line of the class header" },
  },
];

export interface Example {
  question: string;
  cypher: string;
}

/** Worked examples; every one of them runs (and validates) on any indexed project. */
export const EXAMPLES: Example[] = [
  {
    question: "Who calls the function `store`?",
    cypher: "MATCH (caller)-[c:CALLS]->(s:Symbol {name: 'store'})\n" +
      "RETURN coalesce(caller.qualified_name, caller.path) AS caller, caller.path AS path, " +
      "c.line AS line, s.qualified_name AS callee\nLIMIT 50",
  },
  {
    question: "Which classes implement or extend `Repository`?",
    cypher: "MATCH (c:Symbol)-[:IMPLEMENTS|EXTENDS*1..5]->(b:Symbol {name: 'Repository'})\n" +
      "RETURN DISTINCT c.qualified_name AS class, c.kind AS kind, c.path AS path, c.line AS line\n" +
      "LIMIT 100",
  },
  {
    question: "Classes implementing `Repository` that nothing in tests calls (nor their methods)",
    cypher: "MATCH (c:Symbol)-[:IMPLEMENTS]->(:Symbol {name: 'Repository'})\n" +
      "OPTIONAL MATCH (t)-[:CALLS]->(m:Symbol)<-[:DEFINES*0..1]-(c) WHERE t.path CONTAINS 'test'\n" +
      "WITH c, count(t) AS from_tests WHERE from_tests = 0\n" +
      "RETURN c.qualified_name AS class, c.path AS path, c.line AS line LIMIT 100",
  },
  {
    question: "Functions and methods nobody calls, outside tests",
    cypher: "MATCH (s:Symbol) WHERE s.kind IN ['Function', 'Method'] AND NOT ()-[:CALLS]->(s)\n" +
      "  AND NOT s.path CONTAINS 'test'\n" +
      "RETURN s.qualified_name AS symbol, s.kind AS kind, s.path AS path, s.line AS line\n" +
      "ORDER BY path, line LIMIT 100",
  },
  {
    question: "The most called functions",
    cypher: "MATCH (caller)-[c:CALLS]->(s:Symbol)\n" +
      "RETURN s.qualified_name AS symbol, s.path AS path, s.line AS line, count(caller) AS callers,\n" +
      "  sum(c.count) AS call_sites\nORDER BY callers DESC LIMIT 20",
  },
  {
    question: "Methods of the class `UserService`",
    cypher: "MATCH (c:Class {name: 'UserService'})-[:DEFINES]->(m:Method)\n" +
      "RETURN m.qualified_name AS method, m.signature AS signature, m.path AS path, m.line AS line\n" +
      "ORDER BY line LIMIT 100",
  },
  {
    question: "Which files import `shop/db.py`, directly or indirectly?",
    cypher: "MATCH (f:File)-[:IMPORTS*1..4]->(t:File {path: 'shop/db.py'})\n" +
      "RETURN DISTINCT f.path AS path LIMIT 100",
  },
  {
    question: "Is there a call chain from `main` to `connect`?",
    cypher: "MATCH (a:Symbol {name: 'main'}), (b:Symbol {name: 'connect'})\n" +
      "WITH a, b, shortestPath((a)-[:CALLS*1..8]->(b)) AS p WHERE p IS NOT NULL\n" +
      "RETURN [n IN nodes(p) | n.qualified_name] AS chain, a.path AS path, a.line AS line " +
      "LIMIT 5",
  },
  {
    question: "Symbols about authentication (words in names or docs)",
    cypher: "CALL db.idx.fulltext.queryNodes('Symbol', 'auth*') YIELD node, score\n" +
      "RETURN node.qualified_name AS symbol, node.kind AS kind, node.path AS path, " +
      "node.line AS line\nORDER BY score DESC LIMIT 20",
  },
  {
    question: "Biggest files by number of symbols defined",
    cypher: "MATCH (f:File)-[:DEFINES]->(s:Symbol)\n" +
      "RETURN f.path AS path, f.language AS language, count(s) AS symbols " +
      "ORDER BY symbols DESC LIMIT 10",
  },
];

/** The ontology as prompt text. */
export function ontologyText(): string {
  const out = ["# Graph model (FalkorDB, openCypher)", "", "## Node labels"];
  for (const l of LABELS) {
    if ((KIND_LABELS as readonly string[]).includes(l.label)) {
      out.push(`- (:Symbol:${l.label}) ${l.description}`);
      continue;
    }
    out.push(`- (:${l.label}) ${l.description}. Properties:`);
    for (const [p, d] of Object.entries(l.properties)) out.push(`  - ${p}: ${d}`);
  }
  out.push("", "## Relationships (direction matters)");
  for (const r of RELATIONS) {
    const ends = r.ends.map(([a, b]) => `(:${a})-[:${r.type}]->(:${b})`).join(", ");
    const props = Object.entries(r.properties);
    out.push(`- ${ends}: ${r.description}.`);
    for (const [p, d] of props) out.push(`  - ${p}: ${d}`);
  }
  out.push("", "## Worked examples");
  for (const e of EXAMPLES) out.push(`Q: ${e.question}`, "```cypher", e.cypher, "```");
  return out.join("\n");
}
