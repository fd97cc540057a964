import { languageOf } from "./src/lang/registry.ts";
import { extractFacts } from "./src/index/extract.ts";
const [root, ...paths] = Deno.args;
for (const p of paths) {
  const full = `${root}/${p}`;
  const f = await extractFacts(languageOf(full)!, p, Deno.readFileSync(full));
  for (const d of f.defs) if (d.typeParams || /^[A-Z]$/.test(d.returns ?? "")) console.log(d.name, d.kind, JSON.stringify(d.typeParams), d.returns, d.parent);
}
