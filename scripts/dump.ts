/**
 * Prints the facts cgraph extracts from files: `deno run -A --unstable-raw-imports scripts/dump.ts
 * <file>...`. For writing and checking a language's tags.scm.
 */
import { relative } from "node:path";
import { extractFacts } from "../src/index/extract.ts";
import { languageOf } from "../src/lang/registry.ts";

for (const file of Deno.args) {
  const spec = languageOf(file, file.endsWith(".h") && Deno.env.get("CPP") === "1");
  if (!spec) {
    console.error(`${file}: no language for this extension`);
    continue;
  }
  const facts = await extractFacts(spec, relative(Deno.cwd(), file), await Deno.readFile(file));
  console.log(
    `== ${facts.path} (${facts.language}) module=${facts.module} package=${
      facts.package ?? "-"
    } errors=${facts.parseErrors}`,
  );
  for (const [i, d] of facts.defs.entries()) {
    console.log(
      `def#${i} ${d.kind} ${d.local} L${d.line}-${d.endLine} parent=${d.parent}${
        d.owner ? ` owner=${d.owner}` : ""
      } sig=${JSON.stringify(d.signature)}${
        d.doc ? ` doc=${JSON.stringify(d.doc.slice(0, 60))}` : ""
      }`,
    );
  }
  for (const c of facts.calls) {
    const from = c.from >= 0 ? facts.defs[c.from].local : "<file>";
    console.log(
      `call ${from} -> ${c.receiver ? c.receiver + "." : ""}${c.name}${
        c.isNew ? " (new)" : ""
      } L${c.line}`,
    );
  }
  for (const i of facts.imports) console.log(`import ${JSON.stringify(i)}`);
  for (const h of facts.inherits) {
    const from = h.from >= 0 ? facts.defs[h.from].local : h.ownerName;
    console.log(`${h.relation} ${from} -> ${h.name} L${h.line}`);
  }
  for (const h of facts.hints) {
    const scope = h.scope >= 0 ? facts.defs[h.scope].local : "<file>";
    console.log(`hint ${scope}: ${h.variable} : ${h.type}`);
  }
}
