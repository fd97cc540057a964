import { languageOf } from "./src/lang/registry.ts";
import { extractFacts } from "./src/index/extract.ts";
const [root, ...paths] = Deno.args;
for (const p of paths) {
  const full = `${root}/${p}`;
  const f = await extractFacts(languageOf(full)!, p, Deno.readFileSync(full));
  console.log(JSON.stringify(f.inherits), JSON.stringify(f.calls.map((c) => [c.name, c.receiver, c.line])));
}
