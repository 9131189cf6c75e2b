import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";

// Issue 32 point 3 (ADR 020): a pending login admits 5 codes, but whoever has the password can start
// another one, and the password throttle's 100 per account per 15 minutes gave them ~58 % odds over
// 30 days. So wrong codes from clients that are not the account's trusted browsers are also counted
// per account and UTC day: at 20 the code step refuses them until the day ends or an admin reopens
// it; from 5 the owner is told. Each attempt is counted BEFORE its code is checked, in one
// conditional upsert, so parallel requests cannot check more than 20 between them; a right code (or
// one that was never checked) gives its count back.

type Db = Kysely<Database> | Transaction<Database>;

export const CODE_FAILURE_LIMITS = {
  /** Wrong codes per account and UTC day from untrusted clients before the code step closes to them. */
  day: 20,
  /** Wrong codes in a day after which the owner is told and the access log says so. */
  notice: 5,
} as const;

/** Days of counts kept (the notices shown are the days not dismissed within that time). */
export const CODE_FAILURE_DAYS_KEPT = 30;

/** The UTC day of `now`, 'YYYY-MM-DD'. */
export const utcDay = (now: Date): string => now.toISOString().slice(0, 10);

/** Seconds until the UTC day of `now` ends (at least 1). */
export function secondsToEndOfDay(now: Date): number {
  const end = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return Math.max(1, Math.ceil((end - now.getTime()) / 1000));
}

/**
 * Counts one code attempt for `userId` today, unless 20 are already counted: the attempt's number
 * (1-20), or null when the code step is closed to untrusted clients for the rest of the day.
 */
export async function takeCodeFailure(db: Db, userId: number, now: Date): Promise<number | null> {
  const day = utcDay(now);
  const { rows } = await sql<{ failures: number }>`
    insert into code_failures (user_id, day, failures, wrong_codes) values (${userId}, ${day}, 1, 1)
    on conflict (user_id, day) do update set
      failures = code_failures.failures + 1,
      wrong_codes = code_failures.wrong_codes + 1
    where code_failures.failures < ${CODE_FAILURE_LIMITS.day}
    returning failures`.execute(db);
  return rows[0] ? Number(rows[0].failures) : null;
}

/** Gives a counted attempt back: the code was right, or never checked. */
export async function giveBackCodeFailure(db: Db, userId: number, now: Date): Promise<void> {
  await db
    .updateTable("codeFailures")
    .set((eb) => ({
      failures: sql<number>`case when ${eb.ref("failures")} > 0 then ${eb.ref("failures")} - 1 else 0 end`,
      wrongCodes: eb("wrongCodes", "-", 1),
    }))
    .where("userId", "=", userId)
    .where("day", "=", utcDay(now))
    .where("wrongCodes", ">", 0)
    .execute();
}

/** Whether the code step is closed to untrusted clients of `userId` today (for the staff page). */
export async function closedCodeSteps(db: Db, userIds: number[], now: Date): Promise<Set<number>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .selectFrom("codeFailures")
    .select("userId")
    .where("day", "=", utcDay(now))
    .where("userId", "in", userIds)
    .where("failures", ">=", CODE_FAILURE_LIMITS.day)
    .execute();
  return new Set(rows.map((row) => Number(row.userId)));
}

/** An admin reopens the code step today: true when it had counted failures. The notice stays. */
export async function reopenCodeStep(db: Db, userId: number, now: Date): Promise<boolean> {
  const result = await db
    .updateTable("codeFailures")
    .set({ failures: 0 })
    .where("userId", "=", userId)
    .where("day", "=", utcDay(now))
    .where("failures", ">", 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export type CodeFailureNotice = { day: string; wrongCodes: number };

/** The days (oldest first) with at least 5 wrong codes that the owner has not dismissed yet. */
export async function codeFailureNotices(db: Db, userId: number): Promise<CodeFailureNotice[]> {
  const rows = await db
    .selectFrom("codeFailures")
    .select(["day", "wrongCodes"])
    .where("userId", "=", userId)
    .where("wrongCodes", ">=", CODE_FAILURE_LIMITS.notice)
    .where("seenAt", "is", null)
    .orderBy("day")
    .execute();
  return rows.map((row) => ({ day: row.day, wrongCodes: Number(row.wrongCodes) }));
}

/** The owner has read the notices: they are not shown again (a later wrong code of today re-raises none). */
export async function dismissCodeFailureNotices(db: Db, userId: number, now: Date): Promise<void> {
  await db
    .updateTable("codeFailures")
    .set({ seenAt: now.toISOString() })
    .where("userId", "=", userId)
    .where("wrongCodes", ">=", CODE_FAILURE_LIMITS.notice)
    .where("seenAt", "is", null)
    .execute();
}

const oldestKept = (now: Date) => utcDay(new Date(now.getTime() - CODE_FAILURE_DAYS_KEPT * 86_400_000));

/** How many days' counts are older than CODE_FAILURE_DAYS_KEPT (the retention purge's dry run). */
export async function countExpiredCodeFailures(db: Db, now: Date): Promise<number> {
  const row = await db
    .selectFrom("codeFailures")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("day", "<", oldestKept(now))
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Drops the counts of days older than CODE_FAILURE_DAYS_KEPT; how many went. */
export async function pruneCodeFailures(db: Db, now: Date): Promise<number> {
  const oldest = oldestKept(now);
  const result = await db.deleteFrom("codeFailures").where("day", "<", oldest).executeTakeFirst();
  return Number(result.numDeletedRows);
}
