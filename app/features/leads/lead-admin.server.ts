import { type Kysely, type SelectQueryBuilder, sql } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { LEAD_STATUSES, type Lead, type LeadStatus, toLead } from "./lead-repository.server.ts";

// What the back office does with leads: list (filtered, searched, paginated in the database so a
// page stays fast with 100,000 leads), read one with its history, change status, erase.

export type LeadListQuery = {
  status?: LeadStatus;
  /** Matched against name, email and company, case-insensitively, anywhere in the text. */
  q?: string;
  /** "exclude" (default: genuine leads only), "only" (the spam review) or "include". */
  spam?: "exclude" | "only" | "include";
  page: number;
  pageSize: number;
};

export type StatusChange = {
  id: number;
  fromStatus: string;
  toStatus: string;
  changedBy: string;
  changedAt: string;
};

export function isLeadStatus(value: unknown): value is LeadStatus {
  return typeof value === "string" && (LEAD_STATUSES as readonly string[]).includes(value);
}

/** LIKE pattern for "contains", with the user's % and _ taken literally. */
function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The WHERE clause shared by the list, its count and the CSV export. */
export function filterLeads<O>(
  query: SelectQueryBuilder<Database, "leads", O>,
  { status, q, spam = "exclude" }: Omit<LeadListQuery, "page" | "pageSize">,
): SelectQueryBuilder<Database, "leads", O> {
  let filtered = query;
  if (spam === "exclude") filtered = filtered.where("isSpam", "=", 0);
  if (spam === "only") filtered = filtered.where("isSpam", "=", 1);
  if (status) filtered = filtered.where("status", "=", status);
  const term = q?.trim();
  if (term) {
    const pattern = containsPattern(term);
    // Built-in lower() is right for a plain-ASCII term (other letters cannot match it anyway) and
    // keeps the search on the covering index; accented terms need every letter folded.
    const fold = /[^\p{ASCII}]/u.test(term) ? sql.raw("unicode_lower") : sql.raw("lower");
    filtered = filtered.where((eb) =>
      eb.or([
        eb(sql`${fold}(full_name)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`${fold}(email)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`${fold}(company)`, "like", sql`${pattern} escape '\\'`),
      ]),
    );
  }
  return filtered;
}

export async function listLeads(
  db: Kysely<Database>,
  query: LeadListQuery,
): Promise<{ leads: Lead[]; total: number }> {
  const [rows, count] = await Promise.all([
    filterLeads(db.selectFrom("leads").selectAll(), query)
      .orderBy("createdAt", "desc")
      .orderBy("id", "desc")
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    filterLeads(
      db.selectFrom("leads").select((eb) => eb.fn.countAll().as("count")),
      query,
    ).executeTakeFirstOrThrow(),
  ]);
  return { leads: rows.map(toLead), total: Number(count.count) };
}

export async function leadHistory(db: Kysely<Database>, leadId: number): Promise<StatusChange[]> {
  const rows = await db
    .selectFrom("leadStatusChanges")
    .select(["id", "fromStatus", "toStatus", "changedByUsername", "changedAt"])
    .where("leadId", "=", leadId)
    .orderBy("changedAt", "asc")
    .orderBy("id", "asc")
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    fromStatus: row.fromStatus,
    toStatus: row.toStatus,
    changedBy: row.changedByUsername,
    changedAt: row.changedAt,
  }));
}

/**
 * Sets a lead's status and records the change (from, to, who, when) in one transaction. Undefined
 * for an unknown lead. Setting the status it already has changes nothing and records nothing.
 */
export async function updateLeadStatus(
  db: Kysely<Database>,
  leadId: number,
  status: LeadStatus,
  actor: { id: number; username: string },
  now = new Date(),
): Promise<Lead | undefined> {
  return db.transaction().execute(async (trx) => {
    const current = await trx.selectFrom("leads").selectAll().where("id", "=", leadId).executeTakeFirst();
    if (!current) return undefined;
    if (current.status === status) return toLead(current);
    const timestamp = now.toISOString();
    const updated = await trx
      .updateTable("leads")
      .set({ status, updatedAt: timestamp })
      .where("id", "=", leadId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .insertInto("leadStatusChanges")
      .values({
        leadId,
        fromStatus: current.status,
        toStatus: status,
        changedByUserId: actor.id,
        changedByUsername: actor.username,
        changedAt: timestamp,
      })
      .execute();
    return toLead(updated);
  });
}

/** Erases a lead and its history (a data-subject erasure request). False when it did not exist. */
export async function deleteLead(db: Kysely<Database>, leadId: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom("leadStatusChanges").where("leadId", "=", leadId).execute();
    const result = await trx.deleteFrom("leads").where("id", "=", leadId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}
