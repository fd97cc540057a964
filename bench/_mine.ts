import { testDb } from "../tests/helpers/db.ts";
import { benchBranch } from "./branch.ts";
const db = await testDb();
await benchBranch(db, Number(Deno.args[0] ?? 10000));
Deno.exit(0);
