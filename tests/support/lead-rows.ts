import type { Insertable, Kysely } from "kysely";
import type { Database, LeadsTable } from "../../app/db/schema.ts";
import { leadKeys } from "../../app/features/leads/lead-repository.server.ts";
import { PRIVACY_NOTICE_VERSION } from "../../app/features/leads/lead-schema.ts";

/**
 * A complete `leads` row for `insertInto("leads").values(...)`: a genuine demo request from the
 * demo page, stored now, with `overrides` on top. `status` is left to the database's default
 * (`new`) unless given, so a test can still check that default.
 */
export function leadRow(overrides: Partial<Insertable<LeadsTable>> = {}): Insertable<LeadsTable> {
  const now = new Date().toISOString();
  const row: Insertable<LeadsTable> = {
    requestType: "demo",
    fullName: "Test Lead",
    email: "test.lead@example.com",
    company: "Acme Construction Ltd",
    phone: "+44 20 7946 0000",
    message: null,
    investorAngel: 0,
    investorVc: 0,
    investorIntroducer: 0,
    investorOther: 0,
    otherDetails: null,
    sourcePage: "/demo",
    privacyNoticeVersion: PRIVACY_NOTICE_VERSION,
    isSpam: 0,
    spamReason: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  };
  // The keys follow the row's own name, email and company unless a test sets them.
  return { ...leadKeys(row), ...row };
}

/** Stores one lead (`leadRow` with `overrides`) and answers its id. */
export async function insertLead(
  db: Kysely<Database>,
  overrides: Partial<Insertable<LeadsTable>> = {},
): Promise<number> {
  const row = await db
    .insertInto("leads")
    .values(leadRow(overrides))
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}
