import { type Kysely, sql, type Transaction } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { enqueue, NOTIFICATION_EMAIL, type NotificationEmailPayload } from "#app/lib/outbox/outbox.server.ts";
import { can, type Role } from "#app/lib/permissions.ts";

// Issue 35, the bell (ADR 043): what the back office tells one person, stored per person. Producers
// (composition/notifications.server.ts) call `notify` inside the transaction of the change they
// report, so a notification is stored with its change or not at all, and its dedupe key makes a second
// call for the same event a no-op. The store knows no other feature: a lead's name (and what a due
// task says) is added when the list is read, through functions the composition root passes in, and
// only for a reader whose role may read leads.

type Db = Kysely<Database> | Transaction<Database>;

/** What a notification is about; a producer may add kinds (the name is stored as text). */
export type NotificationKind =
  | "lead.assigned"
  | "task.due"
  | "meeting.booked"
  | "meeting.rescheduled"
  | "meeting.cancelled"
  | "watch.alert";

/** The kinds a person may also get by e-mail, and the users column that holds their choice. */
export const EMAILED_KINDS = {
  "lead.assigned": "emailOnAssignment",
  "task.due": "emailOnTaskDue",
} as const satisfies Partial<Record<NotificationKind, string>>;

/** The most a list answers at once (the API's `limit`, the page's size). */
export const MAX_LIST = 100;
/** The most ids one "mark read" names. */
export const MAX_READ_IDS = 100;

export type NewNotification = {
  userId: number;
  kind: NotificationKind;
  /** A sentence without a lead's or attendee's personal data: the list adds the lead's name. */
  title: string;
  /** The back-office page it opens (a path starting with /admin/). */
  link: string;
  leadId?: number | null;
  subjectId?: number | null;
  /** Names the event: the same key for the same person is stored once. */
  dedupeKey: string;
  now: Date;
};

/**
 * Stores a notification unless the person already has one with its dedupe key; true when stored.
 * When `email` is on (the installation sends e-mail) and the kind is one a person may get by
 * e-mail, and they chose to and have an address, the e-mail is queued in the same transaction.
 */
export async function notify(
  db: Db,
  notification: NewNotification,
  { email = false }: { email?: boolean } = {},
): Promise<boolean> {
  const row = await db
    .insertInto("notifications")
    .values({
      userId: notification.userId,
      kind: notification.kind,
      title: notification.title.slice(0, 300),
      link: notification.link,
      leadId: notification.leadId ?? null,
      subjectId: notification.subjectId ?? null,
      dedupeKey: notification.dedupeKey.slice(0, 200),
      createdAt: notification.now.toISOString(),
      readAt: null,
    })
    .onConflict((conflict) => conflict.columns(["userId", "dedupeKey"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!row) return false;
  const choice = EMAILED_KINDS[notification.kind as keyof typeof EMAILED_KINDS];
  if (email && choice) {
    const user = await db
      .selectFrom("users")
      .select(["email", choice])
      .where("id", "=", notification.userId)
      .where("disabled", "=", 0)
      .executeTakeFirst();
    if (user?.email && Number(user[choice]) === 1)
      await enqueue(
        db,
        NOTIFICATION_EMAIL,
        { notificationId: Number(row.id) } satisfies NotificationEmailPayload,
        notification.now,
      );
  }
  return true;
}

/** The names the list shows for leads (absent: erased or anonymised, shown without a name). */
export type LeadLabels = (ids: number[]) => Promise<Map<number, string>>;

/**
 * What the list and the e-mail add to a notification as they are read, from the leads feature
 * (through the composition root), never stored in it: a lead's name and company, and what a due task
 * says. Each is absent once its lead is erased or anonymised (its tasks go with it).
 */
export type LeadDetails = {
  leadLabels: LeadLabels;
  /** What the tasks with these ids say (a "task.due" notification's subject). */
  taskTexts: (ids: number[]) => Promise<Map<number, string>>;
};

/** Who reads the list: their own notifications, with a lead's details only if their role reads leads. */
export type NotificationReader = { id: number; role: Role | null };

export type NotificationView = {
  id: number;
  kind: string;
  title: string;
  /** What a due task says, as it is now; null for other kinds, or when the reader may not read leads. */
  detail: string | null;
  /** The lead's name and company as they are now, when it is about a lead that still has them. */
  lead: string | null;
  link: string;
  createdAt: string;
  read: boolean;
};

export type NotificationList = { unread: number; total: number; items: NotificationView[] };

/**
 * NOTE: migration 038 gives SQLite two indexes on (user_id, id), the partial one of unread rows and
 * then the full one. Without ANALYZE statistics SQLite rates them alike for "the person's unread
 * rows" and takes the one created last, the full one: every row of the person's, read or not, each
 * looked up in the table to test read_at. So on SQLite the unread reads name the partial index
 * (INDEXED BY); PostgreSQL's planner picks it by its size. The test of the plans
 * (composition/notifications.server.test.ts) fails if the index goes.
 */
function unreadIndex(db: Db) {
  return isPostgres(db) ? sql`` : sql`indexed by notifications_user_unread_idx`;
}

/** The person's unread count: the bell's badge (one count of the partial index of unread rows). */
export async function unreadCount(db: Db, userId: number): Promise<number> {
  const { rows } = await sql<{ count: number | string }>`
    select count(*) as count from notifications ${unreadIndex(db)}
    where user_id = ${userId} and read_at is null`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/** How many the person has, read or not (a count of notifications_user_idx's entries for them). */
async function totalCount(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("userId", "=", userId)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

type ListedRow = {
  id: number | string;
  kind: string;
  title: string;
  link: string;
  leadId: number | string | null;
  subjectId: number | string | null;
  createdAt: string;
  readAt: string | null;
};

/** The person's unread notifications newest first, from the partial index of unread rows. */
async function newestUnread(db: Db, userId: number, limit: number, offset: number): Promise<ListedRow[]> {
  const { rows } = await sql<ListedRow>`
    select id, kind, title, link, lead_id, subject_id, created_at, read_at
    from notifications ${unreadIndex(db)}
    where user_id = ${userId} and read_at is null
    order by id desc limit ${limit} offset ${offset}`.execute(db);
  return rows;
}

/** The person's read notifications newest first, from (user_id, id), skipping the unread entries. */
function newestRead(db: Db, userId: number, limit: number, offset: number): Promise<ListedRow[]> {
  return db
    .selectFrom("notifications")
    .select(["id", "kind", "title", "link", "leadId", "subjectId", "createdAt", "readAt"])
    .where("userId", "=", userId)
    .where("readAt", "is not", null)
    .orderBy("id", "desc")
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * The person's notifications, unread first, then newest first; `limit` at most MAX_LIST. Two reads
 * in index order rather than one sorted by "is it read": the unread ones newest first through the
 * partial index of unread rows (user_id, id where read_at is null), then, when the page has room,
 * the read ones newest first through (user_id, id). Each stops at the page's end, so a person with
 * thousands of notifications costs what one with ten does; one ORDER BY on a CASE would read and
 * sort all of them. The lead's name and a due task's words are added only for a reader whose role
 * may read leads (marketing sees the sentence alone).
 */
export async function listNotifications(
  db: Db,
  reader: NotificationReader,
  { limit = 20, offset = 0, details }: { limit?: number; offset?: number; details: LeadDetails },
): Promise<NotificationList> {
  const size = Math.min(Math.max(1, limit), MAX_LIST);
  const skip = Math.max(0, offset);
  const [unread, total, unreadRows] = await Promise.all([
    unreadCount(db, reader.id),
    totalCount(db, reader.id),
    newestUnread(db, reader.id, size, skip),
  ]);
  const rows =
    unreadRows.length < size
      ? [
          ...unreadRows,
          ...(await newestRead(db, reader.id, size - unreadRows.length, Math.max(0, skip - unread))),
        ]
      : unreadRows;
  const readsLeads = can(reader.role, "leads.read");
  const leadIds = readsLeads ? distinct(rows.map((row) => row.leadId)) : [];
  const taskIds = readsLeads
    ? distinct(rows.map((row) => (row.kind === "task.due" ? row.subjectId : null)))
    : [];
  const [labels, tasks] = await Promise.all([
    leadIds.length > 0 ? details.leadLabels(leadIds) : new Map<number, string>(),
    taskIds.length > 0 ? details.taskTexts(taskIds) : new Map<number, string>(),
  ]);
  return {
    unread,
    total,
    items: rows.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      title: row.title,
      detail:
        row.kind === "task.due" && row.subjectId !== null ? (tasks.get(Number(row.subjectId)) ?? null) : null,
      lead: row.leadId === null ? null : (labels.get(Number(row.leadId)) ?? null),
      link: row.link,
      createdAt: row.createdAt,
      read: row.readAt !== null,
    })),
  };
}

function distinct(ids: (number | string | null)[]): number[] {
  return [...new Set(ids.flatMap((id) => (id === null ? [] : [Number(id)])))];
}

/** One of the person's notifications, or undefined when it is not theirs. */
export async function findNotification(db: Db, userId: number, id: number) {
  return db
    .selectFrom("notifications")
    .select(["id", "link", "readAt"])
    .where("id", "=", id)
    .where("userId", "=", userId)
    .executeTakeFirst();
}

/** Marks the person's notifications with these ids read (others' are left alone); how many changed. */
export async function markRead(db: Db, userId: number, ids: readonly number[], now = new Date()) {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable("notifications")
    .set({ readAt: now.toISOString() })
    .where("userId", "=", userId)
    .where("id", "in", [...new Set(ids)].slice(0, MAX_READ_IDS))
    .where("readAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** "Mark all read": every unread notification of the person; how many changed. */
export async function markAllRead(db: Db, userId: number, now = new Date()) {
  const result = await db
    .updateTable("notifications")
    .set({ readAt: now.toISOString() })
    .where("userId", "=", userId)
    .where("readAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Days a read notification is kept: the bell has told its news. */
export const READ_NOTIFICATION_DAYS = 90;
/** Days any notification is kept, read or not: a year-old notice is no longer news. */
export const NOTIFICATION_DAYS = 365;

const DAY_MS = 86_400_000;

/** Notifications past their period at `now` (READ_NOTIFICATION_DAYS read, NOTIFICATION_DAYS any). */
function expiredNotifications(db: Db, now: Date) {
  const readBefore = new Date(now.getTime() - READ_NOTIFICATION_DAYS * DAY_MS).toISOString();
  const createdBefore = new Date(now.getTime() - NOTIFICATION_DAYS * DAY_MS).toISOString();
  return db
    .selectFrom("notifications")
    .where((eb) => eb.or([eb("readAt", "<", readBefore), eb("createdAt", "<", createdBefore)]));
}

/** How many notifications the retention purge would delete now. */
export async function countExpiredNotifications(db: Db, now: Date): Promise<number> {
  const row = await expiredNotifications(db, now)
    .select((eb) => eb.fn.countAll().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Deletes up to `limit` expired notifications (the retention purge, lib/purge.server.ts), chosen by a
 * read oldest first and deleted by id in a transaction that checks the purge's lease; how many went.
 * Their e-mails went out long before (or were dropped), and the outbox keeps its own period.
 */
export async function deleteExpiredNotifications(
  db: Kysely<Database>,
  now: Date,
  limit: number,
  assertHeld: (trx: Transaction<Database>) => Promise<void>,
): Promise<number> {
  const rows = await expiredNotifications(db, now).select("id").orderBy("id").limit(limit).execute();
  if (rows.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    await assertHeld(trx);
    const result = await trx
      .deleteFrom("notifications")
      .where(
        "id",
        "in",
        rows.map((row) => Number(row.id)),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}

/** The person's e-mail choices (/admin/account). */
export async function emailChoices(db: Db, userId: number) {
  const row = await db
    .selectFrom("users")
    .select(["emailOnAssignment", "emailOnTaskDue", "email"])
    .where("id", "=", userId)
    .executeTakeFirst();
  return {
    assignment: Number(row?.emailOnAssignment ?? 0) === 1,
    taskDue: Number(row?.emailOnTaskDue ?? 0) === 1,
    hasEmail: Boolean(row?.email),
  };
}

export async function setEmailChoices(
  db: Db,
  userId: number,
  choices: { assignment: boolean; taskDue: boolean },
) {
  await db
    .updateTable("users")
    .set({ emailOnAssignment: choices.assignment ? 1 : 0, emailOnTaskDue: choices.taskDue ? 1 : 0 })
    .where("id", "=", userId)
    .execute();
}
