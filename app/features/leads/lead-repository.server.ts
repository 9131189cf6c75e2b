import type { Kysely, Selectable, Transaction } from "kysely";
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
  const row = await db
    .insertInto("leads")
    .values({
      requestType: submission.requestType,
      fullName: submission.fullName,
      email: submission.email,
      company: submission.company,
      phone: submission.phone,
      message: submission.message,
      investorAngel: investor?.investorType.angel ? 1 : 0,
      investorVc: investor?.investorType.vc ? 1 : 0,
      investorIntroducer: investor?.investorType.introducer ? 1 : 0,
      investorOther: investor?.investorType.other ? 1 : 0,
      otherDetails: investor?.otherDetails ?? null,
      sourcePage: meta.sourcePage,
      privacyNoticeVersion: PRIVACY_NOTICE_VERSION,
      isSpam: meta.spamReason ? 1 : 0,
      spamReason: meta.spamReason,
      createdAt: timestamp,
      updatedAt: timestamp,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
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
