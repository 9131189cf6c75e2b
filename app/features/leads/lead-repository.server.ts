import { type Kysely, type Selectable, sql, type Transaction } from "kysely";
import type { Database, LeadsTable } from "#app/db/schema.ts";
import { type LeadSubmission, PRIVACY_NOTICE_VERSION } from "./lead-schema.ts";

type Db = Kysely<Database> | Transaction<Database>;

export const LEAD_STATUSES = ["new", "contacted", "qualified", "unqualified", "customer"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** A lead as the API and the back office see it (SPEC section 3 plus what the product records). */
export type Lead = {
  id: number;
  requestType: "demo" | "investor";
  fullName: string;
  email: string;
  company: string;
  phone: string;
  message: string | null;
  investorType: { angel: boolean; vc: boolean; introducer: boolean; other: boolean };
  otherDetails: string | null;
  sourcePage: string | null;
  privacyNoticeVersion: string;
  isSpam: boolean;
  spamReason: string | null;
  status: LeadStatus;
  createdAt: string;
  updatedAt: string;
};

export type LeadMeta = { sourcePage: string | null; spamReason: string | null; now: Date };

export async function insertLead(db: Db, submission: LeadSubmission, meta: LeadMeta): Promise<number> {
  const investor = submission.requestType === "investor" ? submission : undefined;
  const timestamp = meta.now.toISOString();
  const flag = (value: boolean | undefined) => (value ? 1 : 0);
  // Hand-written SQL on the busiest write path: the query builder costs more CPU than SQLite's
  // insert itself here (npm run bench). Both dialects accept this statement as written.
  const { rows } = await sql<{ id: number }>`
    insert into leads (
      request_type, full_name, email, company, phone, message,
      investor_angel, investor_vc, investor_introducer, investor_other, other_details,
      source_page, privacy_notice_version, is_spam, spam_reason, created_at, updated_at
    ) values (
      ${submission.requestType}, ${submission.fullName}, ${submission.email}, ${submission.company},
      ${submission.phone}, ${submission.message},
      ${flag(investor?.investorType.angel)}, ${flag(investor?.investorType.vc)},
      ${flag(investor?.investorType.introducer)}, ${flag(investor?.investorType.other)},
      ${investor?.otherDetails ?? null},
      ${meta.sourcePage}, ${PRIVACY_NOTICE_VERSION}, ${meta.spamReason ? 1 : 0}, ${meta.spamReason},
      ${timestamp}, ${timestamp}
    ) returning id`.execute(db);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error("insert into leads returned no id");
  return Number(id);
}

export async function findLead(db: Db, id: number): Promise<Lead | undefined> {
  const row = await db.selectFrom("leads").selectAll().where("id", "=", id).executeTakeFirst();
  return row ? toLead(row) : undefined;
}

/** How many leads are stored; spam is left out unless asked for. */
export async function countLeads(db: Db, { includeSpam = false } = {}): Promise<number> {
  let query = db.selectFrom("leads").select((eb) => eb.fn.countAll().as("count"));
  if (!includeSpam) query = query.where("isSpam", "=", 0);
  const row = await query.executeTakeFirstOrThrow();
  return Number(row.count);
}

export function toLead(row: Selectable<LeadsTable>): Lead {
  return {
    id: Number(row.id),
    requestType: row.requestType,
    fullName: row.fullName,
    email: row.email,
    company: row.company,
    phone: row.phone,
    message: row.message,
    investorType: {
      angel: Boolean(row.investorAngel),
      vc: Boolean(row.investorVc),
      introducer: Boolean(row.investorIntroducer),
      other: Boolean(row.investorOther),
    },
    otherDetails: row.otherDetails,
    sourcePage: row.sourcePage,
    privacyNoticeVersion: row.privacyNoticeVersion,
    isSpam: Boolean(row.isSpam),
    spamReason: row.spamReason,
    status: row.status as LeadStatus,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
