import { type Kysely, type SelectQueryBuilder, sql, type Transaction } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { recordAccess } from "#app/lib/access-log.server.ts";
import { type Channel, UNKNOWN_CHANNEL } from "#app/lib/attribution.ts";
import { leadOriginSql } from "#app/lib/lead-origin.server.ts";
import type { LeadOrigin } from "#app/lib/lead-origin.ts";
import {
  enqueue,
  LEAD_NOTIFICATION,
  type LeadNotificationPayload,
  NOTIFICATION_EMAIL,
  type NotificationEmailPayload,
} from "#app/lib/outbox/outbox.server.ts";
import { type ContactEdit, ERASED_EMAIL_MESSAGE } from "./lead-contact-schema.ts";
import { type ErasePerson, erasedOn, erasePerson } from "./lead-erasure.server.ts";
import { type Actor, recordLeadEvent } from "./lead-events.server.ts";
import { recordFormerEmail } from "./lead-former-emails.server.ts";
import {
  contactKey,
  LEAD_STATUSES,
  type Lead,
  type LeadStatus,
  leadKeys,
  toLead,
} from "./lead-repository.server.ts";
import type { LeadChange, LeadChangeHook } from "./lead-service.server.ts";

// What the back office does with leads: list (filtered, sorted, searched and paginated in the
// database so a page stays fast with 100,000 leads), read one, and change it: status, owner, spam
// verdict, notes, erasure, each recorded with who and when for the timeline.

export const LEAD_SORTS = ["createdAt", "fullName", "company", "status", "nextStep"] as const;
export type LeadSort = (typeof LEAD_SORTS)[number];

export type LeadFilter = {
  status?: LeadStatus;
  /** Matched against name, email and company, case-insensitively, anywhere in the text. */
  q?: string;
  /** "exclude" (default: genuine leads only), "only" (the spam review) or "include". */
  spam?: "exclude" | "only" | "include";
  /** A user id, or null for unassigned leads; undefined: any owner. */
  ownerId?: number | null;
  type?: "demo" | "investor";
  /** UTC dates (YYYY-MM-DD), both ends inclusive. */
  from?: string;
  to?: string;
  /** Only these leads (the export of ticked rows). */
  ids?: number[];
  /** The attribution's channel; "Unknown" also matches leads without an attribution row. */
  channel?: Channel;
  /** The attribution's utm_campaign, exactly. */
  campaign?: string;
};

export type LeadListQuery = LeadFilter & {
  sort?: LeadSort;
  order?: "asc" | "desc";
  page: number;
  pageSize: number;
};

/** A lead in the list: the API's lead plus who owns it and whether the person wrote before. */
export type LeadListItem = Lead & {
  ownerName: string | null;
  ownerDisabled: boolean;
  returning: boolean;
  /** How it came in (issue 32): `website`, `api_key`, `added_by_staff` or `imported`. */
  origin: LeadOrigin;
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
export function containsPattern(q: string): string {
  return `%${q.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** The first instant after a UTC date (YYYY-MM-DD), as stored timestamps are compared. */
function dayAfter(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00.000Z`) + 86_400_000).toISOString();
}

/** The WHERE clause shared by the list, its count and the CSV export. */
export function filterLeads<O>(
  query: SelectQueryBuilder<Database, "leads", O>,
  { status, q, spam = "exclude", ownerId, type, from, to, ids, channel, campaign }: LeadFilter,
): SelectQueryBuilder<Database, "leads", O> {
  let filtered = query;
  // Attribution (issue 12): a lead still pending (its first seconds) matches no channel yet.
  if (channel === UNKNOWN_CHANNEL)
    filtered = filtered.where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("leadAttributions as attribution")
            .select("attribution.leadId")
            .whereRef("attribution.leadId", "=", "leads.id")
            .where((inner) =>
              inner.or([
                inner("attribution.channel", "is", null),
                inner("attribution.channel", "<>", UNKNOWN_CHANNEL),
              ]),
            ),
        ),
      ),
    );
  else if (channel)
    filtered = filtered.where((eb) =>
      eb.exists(
        eb
          .selectFrom("leadAttributions as attribution")
          .select("attribution.leadId")
          .whereRef("attribution.leadId", "=", "leads.id")
          .where("attribution.channel", "=", channel),
      ),
    );
  if (campaign)
    filtered = filtered.where((eb) =>
      eb.exists(
        eb
          .selectFrom("leadAttributions as attribution")
          .select("attribution.leadId")
          .whereRef("attribution.leadId", "=", "leads.id")
          .where("attribution.utmCampaign", "=", campaign),
      ),
    );
  const term = q?.trim();
  // Anonymised leads (lead-retention.server.ts) have left the list and the export. NOTE: their name,
  // email and company are empty, so a search can never match one: leaving the condition out then
  // keeps the search's count on its covering index (migration 003).
  if (!term) filtered = filtered.where("leads.anonymisedAt", "is", null);
  if (spam === "exclude") filtered = filtered.where("leads.isSpam", "=", 0);
  if (spam === "only") filtered = filtered.where("leads.isSpam", "=", 1);
  if (status) filtered = filtered.where("leads.status", "=", status);
  if (ownerId === null) filtered = filtered.where("leads.ownerId", "is", null);
  else if (ownerId !== undefined) filtered = filtered.where("leads.ownerId", "=", ownerId);
  if (type) filtered = filtered.where("leads.requestType", "=", type);
  if (from) filtered = filtered.where("leads.createdAt", ">=", `${from}T00:00:00.000Z`);
  if (to) filtered = filtered.where("leads.createdAt", "<", dayAfter(to));
  if (ids) filtered = filtered.where("leads.id", "in", ids.length > 0 ? ids : [-1]);
  if (term) {
    const pattern = containsPattern(term);
    // Built-in lower() is right for a plain-ASCII term (other letters cannot match it anyway) and
    // keeps the search on the covering index; accented terms need every letter folded.
    const fold = /[^\p{ASCII}]/u.test(term) ? sql.raw("unicode_lower") : sql.raw("lower");
    filtered = filtered.where((eb) =>
      eb.or([
        eb(sql`${fold}(leads.full_name)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`${fold}(leads.email)`, "like", sql`${pattern} escape '\\'`),
        eb(sql`${fold}(leads.company)`, "like", sql`${pattern} escape '\\'`),
      ]),
    );
  }
  return filtered;
}

/**
 * ORDER BY for a sort: text by its stored case-folded key compared byte by byte (PostgreSQL's
 * COLLATE "C" is SQLite's default), status in pipeline order, `id` breaking ties in the same direction.
 * `oneStatus`: the filter keeps a single status, so every row ranks the same in the status order.
 */
export function orderLeads<O>(
  db: Kysely<Database>,
  query: SelectQueryBuilder<Database, "leads", O>,
  sort: LeadSort = "createdAt",
  order: "asc" | "desc" = sort === "createdAt" ? "desc" : "asc",
  oneStatus = false,
): SelectQueryBuilder<Database, "leads", O> {
  const collate = isPostgres(db) ? sql.raw(' collate "C"') : sql.raw("");
  const direction = sql.raw(order);
  switch (sort) {
    case "createdAt":
      return query.orderBy(sql`leads.created_at ${direction}`).orderBy(sql`leads.id ${direction}`);
    case "fullName":
      return query
        .orderBy(sql`leads.full_name_key${collate} ${direction}`)
        .orderBy(sql`leads.id ${direction}`);
    case "company":
      return query.orderBy(sql`leads.company_key${collate} ${direction}`).orderBy(sql`leads.id ${direction}`);
    case "nextStep": {
      // Issue 35: by the earliest open task's due time (leads.next_task_due_at, kept with the tasks),
      // leads without one last either way. The expression is migration 037's index's, so a page is
      // read from the index in order at 100,000 leads instead of sorting them all.
      const missing = sql.lit(order === "asc" ? "~" : "");
      return query
        .orderBy(sql`(coalesce(next_task_due_at, ${missing})${collate}) ${direction}`)
        .orderBy(sql`leads.id ${direction}`);
    }
    case "status": {
      // The rank is then the same on every row and the tiebreaker alone decides: ordered by id, the
      // primary key serves the page, where the CASE made both databases sort every matching lead
      // (issue 23: 250-370 ms for the unassigned new leads at 100,000).
      if (oneStatus) return query.orderBy(sql`leads.id ${direction}`);
      // Migration 040 indexes this very expression over the live leads: change both together.
      const rank = sql.join(
        LEAD_STATUSES.map((status, index) => sql`when ${sql.lit(status)} then ${sql.lit(index)}`),
        sql` `,
      );
      return query
        .orderBy(sql`case leads.status ${rank} end ${direction}`)
        .orderBy(sql`leads.id ${direction}`);
    }
  }
}

/**
 * Leads with what the list shows beside each (owner, returning), one query shape for the list and
 * for one lead: the webhooks' `data.lead` must be the list's item, field for field (issue 22).
 */
function selectListItems(db: Kysely<Database>) {
  return db
    .selectFrom("leads")
    .leftJoin("users", "users.id", "leads.ownerId")
    .selectAll("leads")
    .select(["users.username as ownerName", "users.disabled as ownerDisabled"])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom("leads as earlier")
            .select("earlier.id")
            .whereRef("earlier.emailKey", "=", "leads.emailKey")
            .whereRef("earlier.id", "<", "leads.id")
            .where("earlier.isSpam", "=", 0),
        )
        .as("returning"),
    )
    .select(leadOriginSql("leads").as("origin"));
}

type ListItemRow = Awaited<ReturnType<ReturnType<typeof selectListItems>["executeTakeFirstOrThrow"]>>;

function toListItem(row: ListItemRow): LeadListItem {
  return {
    ...toLead(row),
    ownerName: row.ownerName ?? null,
    ownerDisabled: Boolean(row.ownerDisabled),
    returning: Boolean(row.returning),
    origin: row.origin,
  };
}

export async function listLeads(
  db: Kysely<Database>,
  query: LeadListQuery,
): Promise<{ leads: LeadListItem[]; total: number }> {
  const [rows, count] = await Promise.all([
    orderLeads(
      db,
      filterLeads(selectListItems(db), query),
      query.sort,
      query.order,
      query.status !== undefined,
    )
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    countMatchingLeads(db, query),
  ]);
  return { leads: rows.map(toListItem), total: count };
}

/**
 * One lead exactly as `GET /api/admin/leads` lists it (held spam too), for the webhooks' `data.lead`;
 * undefined when there is none or it was anonymised.
 */
export async function findLeadListItem(db: Kysely<Database>, id: number): Promise<LeadListItem | undefined> {
  const row = await selectListItems(db)
    .where("leads.id", "=", id)
    .where("leads.anonymisedAt", "is", null)
    .executeTakeFirst();
  return row ? toListItem(row) : undefined;
}

/** The filters lead_counts (migration 013) is kept for; any other narrows what it can answer. */
const COUNTED_FILTERS: ReadonlySet<string> = new Set(["status", "spam", "ownerId", "type"]);
const LIST_ONLY_KEYS: ReadonlySet<string> = new Set(["sort", "order", "page", "pageSize"]);

/**
 * How many leads match `filter`. From the trigger-kept lead_counts when the filter uses only the
 * dimensions it is kept for (the dashboard's usual views: a few rows summed, whatever the number of
 * leads); otherwise by counting the matching rows.
 */
function countedByTriggers(filter: LeadFilter | LeadListQuery): boolean {
  return Object.entries(filter).every(
    ([key, value]) =>
      value === undefined ||
      COUNTED_FILTERS.has(key) ||
      LIST_ONLY_KEYS.has(key) ||
      (key === "q" && typeof value === "string" && value.trim() === ""),
  );
}

/**
 * How many leads match `filter` in each status (the board's columns, issue 35): one grouped query,
 * from lead_counts when the filter allows, as `countMatchingLeads`.
 */
export async function countMatchingLeadsByStatus(
  db: Kysely<Database>,
  filter: Omit<LeadFilter, "status">,
): Promise<Record<LeadStatus, number>> {
  const counts = Object.fromEntries(LEAD_STATUSES.map((status) => [status, 0])) as Record<LeadStatus, number>;
  let rows: { status: string; count: unknown }[];
  if (!countedByTriggers(filter)) {
    rows = await filterLeads(
      db.selectFrom("leads").select((eb) => ["leads.status as status", eb.fn.countAll().as("count")]),
      filter,
    )
      .groupBy("leads.status")
      .execute();
  } else {
    const { spam = "exclude", ownerId, type } = filter;
    let query = db
      .selectFrom("leadCounts")
      .select((eb) => ["status", eb.fn.sum("count").as("count")])
      .where("anonymised", "=", 0);
    if (spam !== "include") query = query.where("isSpam", "=", spam === "only" ? 1 : 0);
    if (ownerId !== undefined) query = query.where("ownerId", "=", ownerId ?? 0);
    if (type) query = query.where("requestType", "=", type);
    rows = await query.groupBy("status").execute();
  }
  for (const row of rows) if (isLeadStatus(row.status)) counts[row.status] = Number(row.count ?? 0);
  return counts;
}

export async function countMatchingLeads(
  db: Kysely<Database>,
  filter: LeadFilter | LeadListQuery,
): Promise<number> {
  const covered = countedByTriggers(filter);
  if (!covered) {
    const row = await filterLeads(
      db.selectFrom("leads").select((eb) => eb.fn.countAll().as("count")),
      filter,
    ).executeTakeFirstOrThrow();
    return Number(row.count);
  }
  const { status, spam = "exclude", ownerId, type } = filter;
  let counts = db
    .selectFrom("leadCounts")
    .select((eb) => eb.fn.sum("count").as("count"))
    .where("anonymised", "=", 0);
  if (spam !== "include") counts = counts.where("isSpam", "=", spam === "only" ? 1 : 0);
  if (status) counts = counts.where("status", "=", status);
  if (ownerId !== undefined) counts = counts.where("ownerId", "=", ownerId ?? 0);
  if (type) counts = counts.where("requestType", "=", type);
  const row = await counts.executeTakeFirst();
  return Number(row?.count ?? 0);
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

/** How many leads the spam filter (or staff) holds out of the list: the dashboard's "Spam (n)". */
export async function countHeldSpam(db: Kysely<Database>): Promise<number> {
  return countMatchingLeads(db, { spam: "only" });
}

export type LeadAdminOptions = {
  db: Kysely<Database>;
  /** Queue the sales email when a held lead is released (SMTP configured), as on submission. */
  notify: boolean;
  onLeadChange?: LeadChangeHook;
  /** Called after a commit that queued outbox work, so it goes out now rather than at the next poll. */
  onQueued?: () => void;
  /** Keys the erasure suppression list: an edit may not move a lead onto an erased person's address. */
  secret?: string;
};

export type BulkAction =
  | { action: "status"; value: LeadStatus }
  | { action: "owner"; value: number | null }
  | { action: "spam"; value: boolean };

/** What one PATCH of a lead may change at once (each part optional). */
export type LeadUpdate = {
  contact?: ContactEdit;
  status?: LeadStatus;
  ownerId?: number | null;
  spam?: boolean;
};

export class UnknownOwnerError extends Error {
  constructor() {
    super("Choose an enabled staff member whose role works on leads (or Unassigned).");
  }
}

/** An edit refused for one of its fields (the e-mail of a person erased on request). */
export class ContactEditRefused extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/** One field an edit changed, as the timeline tells it: which, from what, to what. */
export type FieldChange = { field: string; from: string | null; to: string | null };

const INVESTOR_TYPE_LABELS = { angel: "Angel", vc: "VC", introducer: "Introducer", other: "Other" } as const;

function investorTypesText(types: Record<keyof typeof INVESTOR_TYPE_LABELS, boolean>): string | null {
  const ticked = (Object.keys(INVESTOR_TYPE_LABELS) as (keyof typeof INVESTOR_TYPE_LABELS)[])
    .filter((key) => types[key])
    .map((key) => INVESTOR_TYPE_LABELS[key]);
  return ticked.length > 0 ? ticked.join(", ") : null;
}

type Trx = Transaction<Database>;

/**
 * The changes staff make to leads. Each runs in one transaction with its history row and whatever
 * it queues (the sales email of a released lead, webhook deliveries), so a change and its record
 * are stored together or not at all. Undefined means the lead does not exist.
 */
export function createLeadAdmin({ db, notify, onLeadChange, onQueued, secret }: LeadAdminOptions) {
  const emit = async (
    trx: Trx,
    type: LeadChange["type"],
    leadId: number,
    now: Date,
    extra: Pick<LeadChange, "assigned"> = {},
  ) => {
    await onLeadChange?.(trx, { type, leadId, occurredAt: now, ...extra });
  };
  async function inTransaction<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    const result = await db.transaction().execute(work);
    // Whatever the change queued goes out now; a wake-up with nothing queued costs one query.
    onQueued?.();
    return result;
  }

  async function setStatusIn(trx: Trx, leadId: number, status: LeadStatus, actor: Actor, now: Date) {
    const current = await liveLead(trx, leadId);
    if (!current) return undefined;
    if (current.status === status) return toLead(current);
    const timestamp = now.toISOString();
    const updated = await trx
      .updateTable("leads")
      .set({
        status,
        updatedAt: timestamp,
        // Speed to lead: the first time anyone moved the lead on.
        ...(current.firstResponseMs === null
          ? { firstResponseMs: Math.max(0, now.getTime() - Date.parse(current.createdAt)) }
          : {}),
      })
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
    await emit(trx, "lead.updated", leadId, now);
    return toLead(updated);
  }

  async function setOwnerIn(trx: Trx, leadId: number, ownerId: number | null, actor: Actor, now: Date) {
    const current = await liveLead(trx, leadId);
    if (!current) return undefined;
    if ((current.ownerId === null ? null : Number(current.ownerId)) === ownerId) return toLead(current);
    // The one the owner controls offer (assignableStaff): an owner reads the lead and is told its
    // name, so an account whose role may not read leads (marketing: counts only) is refused.
    if (ownerId !== null && !(await isAssignable(trx, ownerId))) throw new UnknownOwnerError();
    const names = await ownerNames(trx, [current.ownerId, ownerId]);
    const updated = await trx
      .updateTable("leads")
      .set({ ownerId, updatedAt: now.toISOString() })
      .where("id", "=", leadId)
      .returningAll()
      .executeTakeFirstOrThrow();
    const from = current.ownerId === null ? null : Number(current.ownerId);
    await recordLeadEvent(trx, {
      leadId,
      type: "owner_changed",
      actor,
      detail: {
        from: from === null ? null : (names.get(from) ?? null),
        to: ownerId === null ? null : (names.get(ownerId) ?? null),
      },
      now,
    });
    await emit(
      trx,
      "lead.updated",
      leadId,
      now,
      ownerId === null ? {} : { assigned: { ownerId, by: { id: actor.id, username: actor.username } } },
    );
    return toLead(updated);
  }

  async function setSpamIn(trx: Trx, leadId: number, spam: boolean, actor: Actor, now: Date) {
    const current = await liveLead(trx, leadId);
    if (!current) return undefined;
    const wasHeld = Boolean(current.isSpam);
    const timestamp = now.toISOString();
    // Judging a lead that is not held as "Not spam" clears its review mark; nothing else changes.
    const updated = await trx
      .updateTable("leads")
      .set({ isSpam: spam ? 1 : 0, spamReviewedAt: timestamp, updatedAt: timestamp })
      .where("id", "=", leadId)
      .returningAll()
      .executeTakeFirstOrThrow();
    if (wasHeld === spam && current.spamReviewedAt) return toLead(updated);
    await recordLeadEvent(trx, { leadId, type: spam ? "marked_spam" : "marked_not_spam", actor, now });
    if (wasHeld !== spam) await emit(trx, "lead.spam_changed", leadId, now);
    if (wasHeld && !spam) {
      // Released: it reaches sales now, as it would have on arrival.
      if (notify) await enqueue(trx, LEAD_NOTIFICATION, { leadId } satisfies LeadNotificationPayload, now);
      await emit(trx, "lead.created", leadId, now);
    }
    return toLead(updated);
  }

  /**
   * Issue 35: corrects what the person sent. Only the fields that differ are written; they land on
   * the timeline as one `contact_changed` event listing each (field, from, to), with `lead.updated`
   * for the webhooks. A new e-mail moves the lead to the person of that address (people are the
   * leads sharing a normalised e-mail): its timeline goes with it, and the old address is recorded as
   * one the lead carried before. An address under an erasure suppression is refused. The row is
   * locked first on PostgreSQL, so two editors at once each record what they really replaced.
   */
  async function editContactIn(trx: Trx, leadId: number, edit: ContactEdit, actor: Actor, now: Date) {
    const locked = trx
      .selectFrom("leads")
      .selectAll()
      .where("id", "=", leadId)
      .where("anonymisedAt", "is", null);
    const current = await (isPostgres(trx) ? locked.forUpdate() : locked).executeTakeFirst();
    if (!current) return undefined;
    const before = toLead(current);
    const changes: FieldChange[] = [];
    const set: Record<string, unknown> = {};
    for (const field of ["fullName", "email", "company", "phone", "message"] as const) {
      const value = edit[field];
      if (value === undefined || value === before[field]) continue;
      changes.push({ field, from: before[field], to: value });
      set[field] = value;
    }
    if (before.requestType === "investor") {
      const types = edit.investorType ?? before.investorType;
      if (edit.investorType) {
        const from = investorTypesText(before.investorType);
        const to = investorTypesText(types);
        if (from !== to) {
          changes.push({ field: "investorType", from, to });
          set.investorAngel = types.angel ? 1 : 0;
          set.investorVc = types.vc ? 1 : 0;
          set.investorIntroducer = types.introducer ? 1 : 0;
          set.investorOther = types.other ? 1 : 0;
        }
      }
      // As the form keeps it: the details only when "other" is ticked.
      const details = types.other
        ? edit.otherDetails !== undefined
          ? edit.otherDetails
          : before.otherDetails
        : null;
      if (details !== before.otherDetails) {
        changes.push({ field: "otherDetails", from: before.otherDetails, to: details });
        set.otherDetails = details;
      }
    }
    if (changes.length === 0) return before;
    const email = edit.email ?? before.email;
    if (contactKey(email) !== contactKey(before.email) && secret && (await erasedOn(trx, secret, email)))
      throw new ContactEditRefused("email", ERASED_EMAIL_MESSAGE);
    const updated = await trx
      .updateTable("leads")
      .set({
        ...set,
        ...leadKeys({
          fullName: edit.fullName ?? before.fullName,
          email,
          company: edit.company ?? before.company,
        }),
        updatedAt: now.toISOString(),
      })
      .where("id", "=", leadId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordLeadEvent(trx, { leadId, type: "contact_changed", actor, detail: { changes }, now });
    // The entry names the old address, no longer this lead's person's: kept by its key, so its
    // holder's erasure and subject access still find it here (lead-former-emails.server.ts).
    if (contactKey(email) !== contactKey(before.email))
      await recordFormerEmail(trx, leadId, before.email, now);
    await emit(trx, "lead.updated", leadId, now);
    return toLead(updated);
  }

  return {
    editContact(leadId: number, edit: ContactEdit, actor: Actor, now = new Date()) {
      return inTransaction((trx) => editContactIn(trx, leadId, edit, actor, now));
    },
    setStatus(leadId: number, status: LeadStatus, actor: Actor, now = new Date()) {
      return inTransaction((trx) => setStatusIn(trx, leadId, status, actor, now));
    },
    setOwner(leadId: number, ownerId: number | null, actor: Actor, now = new Date()) {
      return inTransaction((trx) => setOwnerIn(trx, leadId, ownerId, actor, now));
    },
    setSpam(leadId: number, spam: boolean, actor: Actor, now = new Date()) {
      return inTransaction((trx) => setSpamIn(trx, leadId, spam, actor, now));
    },
    /**
     * Several changes of one lead (`PATCH /api/admin/leads/:id`), all or nothing, in one transaction:
     * the contact fields, then the status, the owner and the spam verdict, each recorded, and told
     * to the webhooks and notifications, as its own call does. A refused part (UnknownOwnerError,
     * ContactEditRefused) undoes the parts before it, with their timeline entries and what they
     * queued: nothing goes out before the commit. Undefined when the lead does not exist.
     */
    update(leadId: number, change: LeadUpdate, actor: Actor, now = new Date()) {
      return inTransaction(async (trx) => {
        let lead: Lead | undefined;
        if (change.contact !== undefined) {
          lead = await editContactIn(trx, leadId, change.contact, actor, now);
          if (!lead) return undefined;
        }
        if (change.status !== undefined) {
          lead = await setStatusIn(trx, leadId, change.status, actor, now);
          if (!lead) return undefined;
        }
        if (change.ownerId !== undefined) {
          lead = await setOwnerIn(trx, leadId, change.ownerId, actor, now);
          if (!lead) return undefined;
        }
        if (change.spam !== undefined) lead = await setSpamIn(trx, leadId, change.spam, actor, now);
        return lead;
      });
    },
    /** One action on many leads, in one transaction; `missing` lists ids that do not exist. */
    bulk(ids: number[], change: BulkAction, actor: Actor, now = new Date()) {
      return inTransaction(async (trx) => {
        const missing: number[] = [];
        let changed = 0;
        for (const id of [...new Set(ids)]) {
          const result =
            change.action === "status"
              ? await setStatusIn(trx, id, change.value, actor, now)
              : change.action === "owner"
                ? await setOwnerIn(trx, id, change.value, actor, now)
                : await setSpamIn(trx, id, change.value, actor, now);
          if (result) changed++;
          else missing.push(id);
        }
        return { changed, missing };
      });
    },
    /**
     * Erases everything held on the person with this email (people.server.ts): each lead the way
     * `remove` erases one, `lead.deleted` included, their address on leads that carried it before,
     * then the suppression record. How many leads went, and how many others carried the address.
     */
    erasePerson(person: Omit<ErasePerson, "now">, now = new Date()) {
      return erasePerson(
        db,
        async (trx, leadId, at) => {
          await emit(trx, "lead.deleted", leadId, at);
          return eraseLead(trx, leadId);
        },
        { ...person, now },
      );
    },
    remove(leadId: number, actor: Actor | null, clientAddress: string | null, now = new Date()) {
      return inTransaction(async (trx) => {
        const exists = await liveLead(trx, leadId);
        if (!exists) return false;
        // The change goes out (webhooks) before the row it describes is gone.
        await emit(trx, "lead.deleted", leadId, now);
        await eraseLead(trx, leadId);
        await recordAccess(trx, { action: "lead_erased", actor, leadId, clientAddress }, now);
        return true;
      });
    },
  };
}

export type LeadAdmin = ReturnType<typeof createLeadAdmin>;

async function ownerNames(trx: Trx, ids: (number | string | null)[]): Promise<Map<number, string>> {
  const wanted = ids.filter((id): id is number | string => id !== null).map(Number);
  if (wanted.length === 0) return new Map();
  const rows = await trx.selectFrom("users").select(["id", "username"]).where("id", "in", wanted).execute();
  return new Map(rows.map((row) => [Number(row.id), row.username]));
}

/** A lead staff may still open and change: it exists and has not been anonymised. */
function liveLead(trx: Trx, leadId: number) {
  return trx
    .selectFrom("leads")
    .selectAll()
    .where("id", "=", leadId)
    .where("anonymisedAt", "is", null)
    .executeTakeFirst();
}

async function eraseLead(trx: Trx, leadId: number): Promise<boolean> {
  return (await eraseLeads(trx, [leadId])) > 0;
}

/**
 * Deletes leads with everything that hangs off them: the one erasure path (staff, a person's
 * erasure, the spam purge). How many leads went.
 */
export async function eraseLeads(trx: Trx, leadIds: number[]): Promise<number> {
  if (leadIds.length === 0) return 0;
  // Their sales notifications, sent or waiting: the payload names the lead.
  await trx
    .deleteFrom("outbox")
    .where("kind", "=", LEAD_NOTIFICATION)
    .where(
      "payload",
      "in",
      leadIds.map((leadId) => JSON.stringify({ leadId } satisfies LeadNotificationPayload)),
    )
    .execute();
  await forgetLeadNotifications(trx, leadIds);
  await trx.deleteFrom("leadStatusChanges").where("leadId", "in", leadIds).execute();
  await trx.deleteFrom("leadNotes").where("leadId", "in", leadIds).execute();
  await trx.deleteFrom("leadEvents").where("leadId", "in", leadIds).execute();
  await trx.deleteFrom("leadActivities").where("leadId", "in", leadIds).execute();
  // The addresses they carried before (ADR 044): named by the events that just went.
  await trx.deleteFrom("leadFormerEmails").where("leadId", "in", leadIds).execute();
  // An import's record of them (a merged lead's earlier fields are personal data too).
  await trx.deleteFrom("leadImportChanges").where("leadId", "in", leadIds).execute();
  // Their attribution goes with them (PostgreSQL's foreign key would cascade; SQLite's is not enforced).
  await trx.deleteFrom("leadAttributions").where("leadId", "in", leadIds).execute();
  const result = await trx.deleteFrom("leads").where("id", "in", leadIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Notification ids per statement when their e-mails are deleted: well within both databases' limits. */
const NOTIFICATION_IDS_PER_DELETE = 500;

/**
 * What the bell said about these leads (ADR 043), and its e-mails still waiting to go out: deleted
 * when the leads are erased (eraseLeads: staff, a person's erasure, the spam purge, an import undone)
 * or anonymised (lead-retention.server.ts), in their transaction, whatever path got there. The
 * notifications' titles name no one, but a lead's id and a due task's link are about the person.
 * A sent e-mail's outbox row names only the notification, and goes with the outbox's retention.
 */
export async function forgetLeadNotifications(trx: Trx, leadIds: readonly number[]): Promise<void> {
  if (leadIds.length === 0) return;
  const rows = await trx
    .selectFrom("notifications")
    .select("id")
    .where("leadId", "in", [...leadIds])
    .execute();
  if (rows.length === 0) return;
  const ids = rows.map((row) => Number(row.id));
  for (let start = 0; start < ids.length; start += NOTIFICATION_IDS_PER_DELETE)
    await trx
      .deleteFrom("outbox")
      // Written as a list, so both databases read the waiting ones through outbox_due_idx.
      .where("status", "in", ["pending", "failed"])
      .where("kind", "=", NOTIFICATION_EMAIL)
      .where(
        "payload",
        "in",
        ids
          .slice(start, start + NOTIFICATION_IDS_PER_DELETE)
          .map((notificationId) => JSON.stringify({ notificationId } satisfies NotificationEmailPayload)),
      )
      .execute();
  await trx
    .deleteFrom("notifications")
    .where("leadId", "in", [...leadIds])
    .execute();
}

/**
 * Sets a lead's status and records the change (from, to, who, when) in one transaction. Undefined
 * for an unknown lead. Setting the status it already has changes nothing and records nothing.
 */
export function updateLeadStatus(
  db: Kysely<Database>,
  leadId: number,
  status: LeadStatus,
  actor: Actor,
  now = new Date(),
): Promise<Lead | undefined> {
  return createLeadAdmin({ db, notify: false }).setStatus(leadId, status, actor, now);
}

/** Erases a lead and its history (a data-subject erasure request). False when it did not exist. */
export function deleteLead(db: Kysely<Database>, leadId: number): Promise<boolean> {
  return db.transaction().execute((trx) => eraseLead(trx, leadId));
}

export type StaffMember = { id: number; username: string; disabled: boolean };

/**
 * True when `ownerId` may be given a lead: an enabled account whose role works on leads (the SPEC's
 * is_admin, written with the role: admin and sales, who read leads). What assignableStaff offers,
 * checked by every way of setting an owner (the page, the bulk bar, the API, an import, a booking).
 */
export async function isAssignable(db: Kysely<Database> | Trx, ownerId: number): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select(["disabled", "isAdmin"])
    .where("id", "=", ownerId)
    .executeTakeFirst();
  return Boolean(row && !row.disabled && row.isAdmin);
}

/**
 * Everyone who uses the back office (SPEC section 6: admins), enabled first. A disabled account
 * keeps the leads it owns (they show it as disabled) but is not offered for new assignments.
 */
export async function assignableStaff(db: Kysely<Database>): Promise<StaffMember[]> {
  const rows = await db
    .selectFrom("users")
    .select(["id", "username", "disabled"])
    .where("isAdmin", "=", 1)
    .orderBy("disabled")
    .orderBy("usernameKey")
    .execute();
  return rows.map((row) => ({ id: Number(row.id), username: row.username, disabled: Boolean(row.disabled) }));
}
