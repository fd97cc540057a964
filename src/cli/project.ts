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
  const db = await ensureDb();
  try {
    await migrateOnce(db);
    return await fn(db);
  } finally {
    await db.close();
  }
}

export function projectRef(
  path: string | undefined,
  values: { project?: string; branch?: string },
): Promise<ProjectRef> {
  return resolveProject(path ?? ".", { project: values.project, branch: values.branch });
}
