/** What most commands share: the project/branch options, the database, the project reference. */
import type { Db } from "../db/client.ts";
import { ensureDb } from "../db/ensure.ts";
import { type ProjectRef, resolveProject } from "../project/identity.ts";
import { migrateOnce } from "../project/catalog.ts";

export const PROJECT_OPTIONS = {
  project: { type: "string" },
  branch: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Opens the database (auto-init), runs `fn`, and always closes the connection. */
export async function withDb<T>(fn: (db: Db) => Promise<T>): Promise<T> {
  const T = (m: string) =>
    Deno.env.get("TR") && console.error(`${performance.now().toFixed(0)} ${m}`);
  T("withDb");
  const db = await ensureDb();
  T("ensured");
  try {
    await migrateOnce(db);
    T("migrated");
    return await fn(db);
  } finally {
    T("fn done");
    await db.close();
    T("closed");
  }
}

export function projectRef(
  path: string | undefined,
  values: { project?: string; branch?: string },
): Promise<ProjectRef> {
  return resolveProject(path ?? ".", { project: values.project, branch: values.branch });
}
