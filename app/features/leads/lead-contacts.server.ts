import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { leadOriginSql } from "#app/lib/lead-origin.server.ts";
import type { LeadOrigin } from "#app/lib/lead-origin.ts";
import type { LeadStatus } from "./lead-repository.server.ts";

// Contacts: a person is the leads that share a normalised email (trimmed, lower-cased; stored as
// leads.email_key). A second submission is its own lead, linked to the first through that key, so
// nothing a person sent is merged away or lost. A contact has no data of its own yet, so it is a
// view over leads rather than a table.

export type OtherSubmission = {
  id: number;
  type: "demo" | "investor";
  /** How it came in (issue 32): an imported or hand-added lead is no demo request. */
  origin: LeadOrigin;
  fullName: string;
  company: string;
  status: LeadStatus;
  isSpam: boolean;
  createdAt: string;
};

/** The person's other submissions, newest first, held ones included (the page marks them). */
export async function otherSubmissions(
  db: Kysely<Database>,
  lead: { id: number; emailKey: string },
  limit = 50,
): Promise<OtherSubmission[]> {
  const rows = await db
    .selectFrom("leads")
    .select(["id", "requestType", "fullName", "company", "status", "isSpam", "createdAt"])
    .select(leadOriginSql("leads").as("origin"))
    .where("emailKey", "=", lead.emailKey)
    .where("id", "!=", lead.id)
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    type: row.requestType,
    origin: row.origin,
    fullName: row.fullName,
    company: row.company,
    status: row.status as LeadStatus,
    isSpam: Boolean(row.isSpam),
    createdAt: row.createdAt,
  }));
}

export async function emailKeyOf(db: Kysely<Database>, leadId: number): Promise<string | undefined> {
  const row = await db.selectFrom("leads").select("emailKey").where("id", "=", leadId).executeTakeFirst();
  return row?.emailKey;
}
