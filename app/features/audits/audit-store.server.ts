import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { AuditIssue, AuditResult, Grade, PerformanceResult, TestResult } from "./audit-types.ts";

/** SPEC section 3's security audit record (date = when it ran), with the Observatory details. */
export type SecurityAuditRecord = {
  id: number;
  date: string;
  url: string;
  score: number;
  uncappedScore: number;
  grade: Grade;
  /** The Observatory scoring algorithm version that graded it. */
  algorithmVersion: number;
  issues: AuditIssue[];
  tests: TestResult[];
  createdBy: string;
};

export async function saveSecurityAudit(
  db: Kysely<Database>,
  result: AuditResult,
  createdBy: string,
  now = new Date(),
): Promise<SecurityAuditRecord> {
  const row = await db
    .insertInto("securityAudits")
    .values({
      url: result.url,
      createdAt: now.toISOString(),
      score: result.score,
      uncappedScore: result.uncappedScore,
      algorithmVersion: result.algorithmVersion,
      grade: result.grade,
      issueCount: result.issues.length,
      issues: JSON.stringify(result.issues),
      tests: JSON.stringify(result.tests),
      createdBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), date: now.toISOString(), ...result, createdBy };
}

/** The newest audits first (the history table). */
export async function listSecurityAudits(
  db: Kysely<Database>,
  { limit = 50 }: { limit?: number } = {},
): Promise<SecurityAuditRecord[]> {
  const rows = await db.selectFrom("securityAudits").selectAll().orderBy("id", "desc").limit(limit).execute();
  return rows.map((row) => ({
    id: Number(row.id),
    date: row.createdAt,
    url: row.url,
    score: Number(row.score),
    uncappedScore: Number(row.uncappedScore),
    algorithmVersion: Number(row.algorithmVersion),
    grade: row.grade as Grade,
    issues: JSON.parse(row.issues) as AuditIssue[],
    tests: JSON.parse(row.tests) as TestResult[],
    createdBy: row.createdBy,
  }));
}

export async function savePerformanceCheck(
  db: Kysely<Database>,
  result: PerformanceResult,
  createdBy: string,
  now = new Date(),
): Promise<void> {
  await db
    .insertInto("performanceChecks")
    .values({
      url: result.url,
      createdAt: now.toISOString(),
      loadTime: Math.round(result.loadTime),
      status: result.status,
      error: result.error ?? null,
      result: JSON.stringify(result),
      createdBy,
    })
    .execute();
}

export async function listPerformanceChecks(
  db: Kysely<Database>,
  { limit = 20 }: { limit?: number } = {},
): Promise<(PerformanceResult & { id: number; date: string })[]> {
  const rows = await db
    .selectFrom("performanceChecks")
    .selectAll()
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...(JSON.parse(row.result) as PerformanceResult),
    id: Number(row.id),
    date: row.createdAt,
  }));
}
