import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { LabDevice, LabResult } from "./lab-types.ts";

// The lab checks' history (migration 028). The result's images are already capped (lab-types.ts:
// a 300 KB screenshot and ten 60 KB frames at most), so a row stays under ~1 MB; the history list
// reads only the columns, the card the newest row's JSON.

export type LabCheckRecord = LabResult & { id: number; date: string; createdBy: string };
export type LabCheckSummary = {
  id: number;
  date: string;
  url: string;
  device: LabDevice;
  score: number;
  lcpMs: number;
  cls: number;
  error: string | null;
};

export async function saveLabCheck(
  db: Kysely<Database>,
  result: LabResult,
  createdBy: string,
  now = new Date(),
): Promise<LabCheckRecord> {
  const row = await db
    .insertInto("labChecks")
    .values({
      url: result.url,
      device: result.device,
      createdAt: now.toISOString(),
      score: result.score,
      lcpMs: Math.round(result.metrics.lcp.value),
      clsMilli: Math.round(result.metrics.cls.value * 1000),
      error: result.error ?? null,
      result: JSON.stringify(result),
      createdBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { ...result, id: Number(row.id), date: now.toISOString(), createdBy };
}

/** The newest check with its whole result (the card), or null. */
export async function latestLabCheck(db: Kysely<Database>): Promise<LabCheckRecord | null> {
  const row = await db.selectFrom("labChecks").selectAll().orderBy("id", "desc").limit(1).executeTakeFirst();
  if (!row) return null;
  return {
    ...(JSON.parse(row.result) as LabResult),
    id: Number(row.id),
    date: row.createdAt,
    createdBy: row.createdBy,
  };
}

/** The newest checks first, without their results (the history table). */
export async function listLabChecks(
  db: Kysely<Database>,
  { limit = 20 }: { limit?: number } = {},
): Promise<LabCheckSummary[]> {
  const rows = await db
    .selectFrom("labChecks")
    .select(["id", "createdAt", "url", "device", "score", "lcpMs", "clsMilli", "error"])
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    date: row.createdAt,
    url: row.url,
    device: row.device as LabDevice,
    score: Number(row.score),
    lcpMs: Number(row.lcpMs),
    cls: Number(row.clsMilli) / 1000,
    error: row.error,
  }));
}
