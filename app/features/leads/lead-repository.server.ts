import { type Kysely, type RawBuilder, type Selectable, sql, type Transaction } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import { preparedOnPostgres } from "#app/db/prepared-statements.ts";
import type { Database, LeadsTable } from "#app/db/schema.ts";
import { type LeadSubmission, POLICY_VERSION, PRIVACY_NOTICE_VERSION } from "./lead-schema.ts";
import { parseSignals, type SpamSignal, type SpamVerdict } from "./spam-verdict.ts";

type Db = Kysely<Database> | Transaction<Database>;

export const LEAD_STATUSES = ["new", "contacted", "qualified", "unqualified", "customer"] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

/** A lead as the API and the back office see it (SPEC section 3 plus what the product records). */
export type Lead = {
  id: number;
  requestType: "demo" | "investor";
  /** The same as requestType, under the name the list filter uses. */
  type: "demo" | "investor";
  fullName: string;
  email: string;
  company: string;
  phone: string;
  message: string | null;
  investorType: { angel: boolean; vc: boolean; introducer: boolean; other: boolean };
  otherDetails: string | null;
  sourcePage: string | null;
  /** "form" (the site's forms), "api" (the public API without a key) or the API key's name. */
  source: string;
  privacyNoticeVersion: string;
  /** The date (YYYY-MM-DD) of the privacy policy's latest change when the lead was sent (its "Changes"). */
  policyVersion: string;
  /** Held out of the list by the spam verdict (or marked as spam by staff). */
  isSpam: boolean;
  spamReason: string | null;
  spamScore: number;
  /** Why: one line per signal, e.g. "a link in the name (+40)". */
  spamReasons: string[];
  /** "review" when signals fired that do not hold the lead: it shows in the list, marked. */
  spamLevel: SpamVerdict["level"];
  ownerId: number | null;
  status: LeadStatus;
  createdAt: string;
  updatedAt: string;
};

export type LeadMeta = {
  sourcePage: string | null;
  source: string;
  apiKeyId: number | null;
  verdict: SpamVerdict;
  now: Date;
  /** Set when staff added the lead (issue 23): its first owner and who added it. */
  ownerId?: number | null;
  addedBy?: { id: number; username: string } | null;
};

/** A person's submissions share this key: the email, trimmed and lower-cased. */
export function contactKey(email: string): string {
  return email.trim().toLowerCase();
}

/** The case-folded sort key of a name or company (the same on both databases: computed here). */
export function sortKey(text: string): string {
  return text.trim().toLowerCase();
}

/** The derived columns a lead row stores beside its fields (for rows written without insertLead). */
export function leadKeys(lead: { fullName: string; email: string; company: string }) {
  return {
    emailKey: contactKey(lead.email),
    fullNameKey: sortKey(lead.fullName),
    companyKey: sortKey(lead.company),
  };
}

/**
 * A statement to store with a lead (its attribution row), given an expression of the lead's id: on
 * PostgreSQL it runs inside the lead's insert (a data-modifying `with`: one round trip, issue 32
 * point 17); SQLite, which has no such `with`, runs it right after, in the same transaction.
 */
export type WithLead = (leadId: RawBuilder<unknown>) => RawBuilder<unknown>;

export async function insertLead(
  db: Db,
  submission: LeadSubmission,
  meta: LeadMeta,
  withLead?: WithLead,
): Promise<number> {
  const investor = submission.requestType === "investor" ? submission : undefined;
  const timestamp = meta.now.toISOString();
  const flag = (value: boolean | undefined) => (value ? 1 : 0);
  // Hand-written SQL on the busiest write path: the query builder costs more CPU than SQLite's
  // insert itself here (npm run bench). Both dialects accept this statement as written.
  const { verdict } = meta;
  const folded = withLead && isPostgres(db);
  const insert = sql<{ id: number }>`
    insert into leads (
      request_type, full_name, email, company, phone, message,
      investor_angel, investor_vc, investor_introducer, investor_other, other_details,
      source_page, source, api_key_id, privacy_notice_version, policy_version,
      is_spam, spam_reason, spam_score, spam_signals,
      email_key, full_name_key, company_key, owner_id, added_by_user_id, added_by_username,
      created_at, updated_at
    ) values (
      ${submission.requestType}, ${submission.fullName}, ${submission.email}, ${submission.company},
      ${submission.phone}, ${submission.message},
      ${flag(investor?.investorType.angel)}, ${flag(investor?.investorType.vc)},
      ${flag(investor?.investorType.introducer)}, ${flag(investor?.investorType.other)},
      ${investor?.otherDetails ?? null},
      ${meta.sourcePage}, ${meta.source}, ${meta.apiKeyId}, ${PRIVACY_NOTICE_VERSION}, ${POLICY_VERSION},
      ${verdict.level === "held" ? 1 : 0}, ${verdict.summary}, ${verdict.score},
      ${verdict.signals.length > 0 ? JSON.stringify(verdict.signals) : null},
      ${contactKey(submission.email)}, ${sortKey(submission.fullName)}, ${sortKey(submission.company)},
      ${meta.ownerId ?? null}, ${meta.addedBy?.id ?? null}, ${meta.addedBy?.username ?? null},
      ${timestamp}, ${timestamp}
    ) returning id`;
  const { rows } = await (folded
    ? sql<{ id: number }>`${preparedOnPostgres}with lead as (${insert}),
          companion as (${withLead(sql`(select id from lead)`)})
          select id from lead`
    : sql<{ id: number }>`${preparedOnPostgres}${insert}`
  ).execute(db);
  const id = rows[0]?.id;
  if (id === undefined) throw new Error("insert into leads returned no id");
  if (withLead && !folded) await withLead(sql`${Number(id)}`).execute(db);
  return Number(id);
}

/** The lead with this id; undefined when there is none or it was anonymised (lead-retention.server.ts). */
export async function findLead(db: Db, id: number): Promise<Lead | undefined> {
  const row = await db
    .selectFrom("leads")
    .selectAll()
    .where("id", "=", id)
    .where("anonymisedAt", "is", null)
    .executeTakeFirst();
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
  const signals = parseSignals(row.spamSignals);
  return {
    id: Number(row.id),
    requestType: row.requestType,
    type: row.requestType,
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
    source: row.source,
    privacyNoticeVersion: row.privacyNoticeVersion,
    policyVersion: row.policyVersion,
    isSpam: Boolean(row.isSpam),
    spamReason: row.spamReason,
    spamScore: Number(row.spamScore),
    spamReasons: signals.map(describeSignal),
    spamLevel: row.isSpam ? "held" : row.spamReviewedAt || signals.length === 0 ? "clean" : "review",
    ownerId: row.ownerId === null ? null : Number(row.ownerId),
    status: row.status as LeadStatus,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function describeSignal(signal: SpamSignal): string {
  return `${signal.detail} (+${signal.points})`;
}
