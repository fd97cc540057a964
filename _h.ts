import { languageOf } from "./src/lang/registry.ts";
import { extractFacts } from "./src/index/extract.ts";
const p = Deno.args[0];
const f = await extractFacts(languageOf(p)!, p, Deno.readFileSync(p));
console.log(JSON.stringify(f.hints, null, 0));
