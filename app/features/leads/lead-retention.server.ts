import type { Kysely, Transaction } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { eraseLeads, forgetLeadNotifications } from "./lead-admin.server.ts";

// Retention of leads (issue 13), run by the daily purge (lib/purge.server.ts):
//
// - A lead with no activity for LEAD_RETENTION_MONTHS (its `updated_at`: the submission, a status,
//   owner or spam change, a note) is anonymised. Its row stays, with its type, status, owner, dates,
//   source and spam verdict, so the summary strip's pipeline and the analytics keep counting it; what
//   names or describes the person goes: name, email, phone, company, message, other details, the
//   search and contact keys, its notes and events (bodies, error texts), the addresses it carried
//   before a correction (ADR 044), and the parts of its attribution that could single someone out
//   (the referrer's path, utm_term, utm_content), its calls, e-mails and tasks, and the bell's
//   notifications about it with their waiting e-mails. It leaves the list, the export, its own page
//   and the people search (`anonymised_at` is set).
// - A lead held as spam is deleted SPAM_RETENTION_DAYS after it was held or last changed, through
//   the same erasure as staff's (lead-admin.server.ts, notifications included). No webhook is sent:
//   held spam never announced itself as a lead.
//
// Work is done in small batches, each its own transaction, checked against the purge's lease, so
// SQLite's writer never holds the event loop long and two instances never purge at once.

type Trx = Transaction<Database>;

/** The instant `months` calendar months before `now` (UTC; the 31st falls back to the month's end). */
export function monthsBefore(now: Date, months: number): Date {
  const target = new Date(now);
  const day = target.getUTCDate();
  target.setUTCDate(1);
  target.setUTCMonth(target.getUTCMonth() - months);
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target;
}

export function daysBefore(now: Date, days: number): Date {
  return new Date(now.getTime() - days * 86_400_000);
}

/** Leads (not held as spam, not yet anonymised) with no activity since `cutoff`. */
function expiredLeads(db: Kysely<Database>, cutoff: Date) {
  return db
    .selectFrom("leads")
    .where("anonymisedAt", "is", null)
    .where("isSpam", "=", 0)
    .where("updatedAt", "<", cutoff.toISOString());
}

/** Leads held as spam, untouched since `cutoff`. */
function expiredSpam(db: Kysely<Database>, cutoff: Date) {
  return db.selectFrom("leads").where("isSpam", "=", 1).where("updatedAt", "<", cutoff.toISOString());
}

export async function countLeadsToAnonymise(db: Kysely<Database>, cutoff: Date): Promise<number> {
  const row = await expiredLeads(db, cutoff)
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function countSpamToDelete(db: Kysely<Database>, cutoff: Date): Promise<number> {
  const row = await expiredSpam(db, cutoff)
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export type BatchOptions = {
  db: Kysely<Database>;
  cutoff: Date;
  now: Date;
  limit: number;
  /** Throws unless this run still holds the purge's lease; called first inside each transaction. */
  assertHeld: (trx: Trx) => Promise<void>;
};

/**
 * What else names the people of leads being anonymised (their meetings: issue 34), cleared in the
 * same transaction (the composition root wires it; the leads feature knows no meetings).
 */
export type AlsoAnonymise = (trx: Trx, leadIds: number[], now: Date) => Promise<unknown>;

/** Anonymises up to `limit` expired leads; how many it did (fewer than `limit`: none are left). */
export async function anonymiseExpiredLeads({
  db,
  cutoff,
  now,
  limit,
  assertHeld,
  alsoAnonymise,
}: BatchOptions & { alsoAnonymise?: AlsoAnonymise }) {
  // Chosen by a read (a reader thread on SQLite), written by id: the write holds nothing for long.
  const rows = await expiredLeads(db, cutoff).select("id").orderBy("id").limit(limit).execute();
  const ids = rows.map((row) => Number(row.id));
  if (ids.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    await assertHeld(trx);
    return anonymiseLeads(trx, ids, cutoff, now, alsoAnonymise);
  });
}

/**
 * Clears what identifies the person on these leads (still expired, not yet anonymised: a note added
 * since the read keeps a lead) and marks them anonymised. How many were.
 */
export async function anonymiseLeads(
  trx: Trx,
  ids: number[],
  cutoff: Date,
  now: Date,
  alsoAnonymise?: AlsoAnonymise,
): Promise<number> {
  const timestamp = now.toISOString();
  const done = await stillExpired(
    trx,
    ids,
    (lead) => lead.anonymisedAt === null && lead.isSpam === 0,
    cutoff,
  );
  if (done.length === 0) return 0;
  await trx
    .updateTable("leads")
    .set({
      fullName: "",
      email: "",
      company: "",
      phone: "",
      message: null,
      otherDetails: null,
      emailKey: "",
      fullNameKey: "",
      companyKey: "",
      anonymisedAt: timestamp,
      nextTaskId: null,
      nextTaskDueAt: null,
      updatedAt: timestamp,
    })
    .where("id", "in", done)
    .execute();
  await trx.deleteFrom("leadNotes").where("leadId", "in", done).execute();
  await trx.deleteFrom("leadEvents").where("leadId", "in", done).execute();
  // The addresses it carried before (ADR 044): the row stays, so its foreign key cascades nothing.
  await trx.deleteFrom("leadFormerEmails").where("leadId", "in", done).execute();
  // Its calls, e-mails and tasks (issue 35): their words are about the person.
  await trx.deleteFrom("leadActivities").where("leadId", "in", done).execute();
  // What the bell said about it, and those of its e-mails still waiting (ADR 043).
  await forgetLeadNotifications(trx, done);
  await trx
    .updateTable("leadAttributions")
    .set({ referrerPath: null, utmTerm: null, utmContent: null, visitorId: null })
    .where("leadId", "in", done)
    .execute();
  await alsoAnonymise?.(trx, done, now);
  return done.length;
}

/** Deletes up to `limit` expired held spam leads with everything on them; how many went. */
export async function deleteExpiredSpam({ db, cutoff, limit, assertHeld }: BatchOptions) {
  const rows = await expiredSpam(db, cutoff).select("id").orderBy("id").limit(limit).execute();
  const ids = rows.map((row) => Number(row.id));
  if (ids.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    await assertHeld(trx);
    // Still held and still expired: staff may have released or touched one since the read.
    return eraseLeads(trx, await stillExpired(trx, ids, (lead) => lead.isSpam === 1, cutoff));
  });
}

/**
 * Of `ids`, those that still match and have not changed since `cutoff`: read by primary key and
 * checked here. NOTE: with the conditions in SQL, SQLite prefers an index on is_spam to the id list
 * and scans it, inside the write transaction, on the event loop (6 ms per batch at 100,000 leads).
 */
async function stillExpired(
  trx: Trx,
  ids: number[],
  matches: (lead: { anonymisedAt: string | null; isSpam: number }) => boolean,
  cutoff: Date,
): Promise<number[]> {
  let read = trx
    .selectFrom("leads")
    .select(["id", "anonymisedAt", "isSpam", "updatedAt"])
    .where("id", "in", ids);
  // PostgreSQL: lock the rows, so a note or a change committing meanwhile is either seen here (its
  // updated_at is new: the lead stays) or waits and then finds the lead gone (addNote locks it too).
  // SQLite runs one write transaction at a time.
  if (isPostgres(trx)) read = read.forUpdate();
  const rows = await read.execute();
  const before = cutoff.toISOString();
  return rows
    .filter(
      (row) =>
        row.updatedAt < before && matches({ anonymisedAt: row.anonymisedAt, isSpam: Number(row.isSpam) }),
    )
    .map((row) => Number(row.id));
}
