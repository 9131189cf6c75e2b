import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { enqueue } from "#app/lib/outbox/outbox.server.ts";

// Issue 35, the bell (ADR 043): what the back office tells one person, stored per person. Producers
// (composition/notifications.server.ts) call `notify` inside the transaction of the change they
// report, so a notification is stored with its change or not at all, and its dedupe key makes a second
// call for the same event a no-op. The store knows no other feature: a lead's name is added when the
// list is read, through a function the composition root passes in.

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

export const NOTIFICATION_EMAIL = "notification-email";
export type NotificationEmailPayload = { notificationId: number };

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

export type NotificationView = {
  id: number;
  kind: string;
  title: string;
  /** The lead's name and company as they are now, when it is about a lead that still has them. */
  lead: string | null;
  link: string;
  createdAt: string;
  read: boolean;
};

export type NotificationList = { unread: number; total: number; items: NotificationView[] };

/** The person's unread count: the bell's badge (one indexed count). */
export async function unreadCount(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom("notifications")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("userId", "=", userId)
    .where("readAt", "is", null)
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The person's notifications, unread first, then newest first; `limit` at most MAX_LIST. */
export async function listNotifications(
  db: Db,
  userId: number,
  { limit = 20, offset = 0, leadLabels }: { limit?: number; offset?: number; leadLabels: LeadLabels },
): Promise<NotificationList> {
  const [rows, counts] = await Promise.all([
    db
      .selectFrom("notifications")
      .select(["id", "kind", "title", "link", "leadId", "createdAt", "readAt"])
      .where("userId", "=", userId)
      // Unread first: a null read_at sorts first on both databases written this way.
      .orderBy((eb) => eb.case().when("readAt", "is", null).then(0).else(1).end())
      .orderBy("id", "desc")
      .limit(Math.min(Math.max(1, limit), MAX_LIST))
      .offset(Math.max(0, offset))
      .execute(),
    db
      .selectFrom("notifications")
      .select((eb) => [
        eb.fn.countAll().as("total"),
        eb.fn.sum(eb.case().when("readAt", "is", null).then(1).else(0).end()).as("unread"),
      ])
      .where("userId", "=", userId)
      .executeTakeFirst(),
  ]);
  const leadIds = [...new Set(rows.flatMap((row) => (row.leadId === null ? [] : [Number(row.leadId)])))];
  const labels = leadIds.length > 0 ? await leadLabels(leadIds) : new Map<number, string>();
  return {
    unread: Number(counts?.unread ?? 0),
    total: Number(counts?.total ?? 0),
    items: rows.map((row) => ({
      id: Number(row.id),
      kind: row.kind,
      title: row.title,
      lead: row.leadId === null ? null : (labels.get(Number(row.leadId)) ?? null),
      link: row.link,
      createdAt: row.createdAt,
      read: row.readAt !== null,
    })),
  };
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

/** A lead erased: what was said about it goes with it. */
export async function forgetLeadNotifications(db: Db, leadIds: readonly number[]) {
  if (leadIds.length === 0) return;
  await db
    .deleteFrom("notifications")
    .where("leadId", "in", [...leadIds])
    .execute();
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
