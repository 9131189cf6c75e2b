import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { Actor } from "../lead-events.server.ts";

// An import's batch row (issue 23): the draft that holds an uploaded file between the page's upload
// and its commit, and the list of recent imports the page shows with their undo.

type Db = Kysely<Database>;

/** Drafts (uploaded, never committed) older than this are deleted with their file. */
export const DRAFT_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Keeps an uploaded file for the page's mapping step; drafts past DRAFT_LIFETIME_MS go at the same time. */
export async function createDraft(
  db: Db,
  draft: { fileName: string; content: string; rowCount: number; actor: Actor },
  now = new Date(),
): Promise<number> {
  await db
    .deleteFrom("leadImports")
    .where("status", "=", "draft")
    .where("createdAt", "<", new Date(now.getTime() - DRAFT_LIFETIME_MS).toISOString())
    .execute();
  const row = await db
    .insertInto("leadImports")
    .values({
      fileName: draft.fileName,
      status: "draft",
      content: draft.content,
      rowCount: draft.rowCount,
      createdByUserId: draft.actor.id,
      createdByUsername: draft.actor.username,
      createdAt: now.toISOString(),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** A draft still waiting for its commit (not expired), with its file. */
export async function findDraft(db: Db, id: number, now = new Date()) {
  const row = await db
    .selectFrom("leadImports")
    .select(["id", "fileName", "content", "rowCount", "createdAt"])
    .where("id", "=", id)
    .where("status", "=", "draft")
    .executeTakeFirst();
  if (!row || row.content === null) return undefined;
  if (Date.parse(row.createdAt) < now.getTime() - DRAFT_LIFETIME_MS) return undefined;
  return { ...row, id: Number(row.id), content: row.content };
}

export type ImportBatch = {
  id: number;
  fileName: string;
  status: "committed" | "undone";
  imported: number;
  merged: number;
  failed: number;
  by: string;
  committedAt: string;
  undoneAt: string | null;
  undoneBy: string | null;
};

/** The latest committed (or undone) imports, newest first. */
export async function listImports(db: Db, limit = 10): Promise<ImportBatch[]> {
  const rows = await db
    .selectFrom("leadImports")
    .select([
      "id",
      "fileName",
      "status",
      "imported",
      "merged",
      "failed",
      "createdByUsername",
      "committedAt",
      "undoneAt",
      "undoneByUsername",
    ])
    .where("status", "<>", "draft")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    fileName: row.fileName,
    status: row.status as "committed" | "undone",
    imported: Number(row.imported),
    merged: Number(row.merged),
    failed: Number(row.failed),
    by: row.createdByUsername,
    committedAt: row.committedAt ?? "",
    undoneAt: row.undoneAt,
    undoneBy: row.undoneByUsername,
  }));
}
