import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { MailTransport } from "#app/lib/mailer.server.ts";
import { enqueue } from "#app/lib/outbox/outbox.server.ts";
import {
  type OutboxMessage,
  type OutboxSend,
  PermanentSendError,
} from "#app/lib/outbox/outbox-worker.server.ts";
import { rolesWith } from "#app/lib/permissions.ts";
import { linesAsHtml } from "#app/lib/plain-email.ts";
import { dateIn, wallTimeAt } from "#app/lib/time-zones.ts";
import { dueTasksFor, type Task } from "./lead-activities.server.ts";
import { formatDue } from "./ui/task-format.ts";

// The morning e-mail of a person's tasks (issue 35, ADR 041): off unless they ask for it on their
// account page. A sweep (every minute on every instance, composition/services.server.ts) queues it
// once their clock reads TASK_DIGEST_HOUR (07:00) in their zone: the day is claimed with one
// conditional update of their task_digests row (sent_on still not today), in the transaction that
// queues the e-mail, so of instances sweeping together one queues it and the others change nothing.
// The outbox row names the person and the day only; the sender reads the tasks when it sends (done
// since: not listed) and says nothing when none is left. Nothing about the tasks is logged. Both ask
// the person's role as it is then: one that no longer has tasks (moved to marketing) gets none, since
// the e-mail names leads and what their tasks say.

export const TASK_DIGEST_EMAIL = "task-digest-email";
export type TaskDigestPayload = { userId: number; day: string };
export const TASK_DIGEST_HOUR = 7;
export const TASK_DIGEST_SWEEP_MS = 60_000;

type Db = Kysely<Database>;
type ZonesOf = (userIds: readonly number[]) => Promise<Map<number, string>>;

/** The roles that get the e-mail: those with tasks of their own, on leads they may read. */
const DIGEST_ROLES = rolesWith("tasks.own", "leads.read");

export async function taskDigestChosen(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom("taskDigests")
    .select("userId")
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Turns the morning e-mail on or off for `userId`. Turning it on does not send today's if it went. */
export async function chooseTaskDigest(db: Db, userId: number, on: boolean, now = new Date()): Promise<void> {
  if (!on) {
    await db.deleteFrom("taskDigests").where("userId", "=", userId).execute();
    return;
  }
  await db
    .insertInto("taskDigests")
    .values({ userId, sentOn: null, createdAt: now.toISOString() })
    .onConflict((conflict) => conflict.column("userId").doNothing())
    .execute();
}

/**
 * Queues the morning e-mail of everyone who chose it and whose day it is (their clock past `hour`,
 * today's not queued yet); how many were queued. Safe to run on every instance at once.
 */
export async function queueTaskDigests(
  db: Db,
  { now, timeZonesOf, hour = TASK_DIGEST_HOUR }: { now: Date; timeZonesOf: ZonesOf; hour?: number },
): Promise<number> {
  const subscribers = await db
    .selectFrom("taskDigests")
    .innerJoin("users", "users.id", "taskDigests.userId")
    .select(["taskDigests.userId", "taskDigests.sentOn"])
    .where("users.disabled", "=", 0)
    .where("users.email", "is not", null)
    .where("users.role", "in", DIGEST_ROLES)
    .execute();
  if (subscribers.length === 0) return 0;
  const zones = await timeZonesOf(subscribers.map((row) => Number(row.userId)));
  let queued = 0;
  for (const subscriber of subscribers) {
    const userId = Number(subscriber.userId);
    const zone = zones.get(userId) ?? "UTC";
    const day = dateIn(now.getTime(), zone);
    if (subscriber.sentOn === day || wallTimeAt(now.getTime(), zone).hour < hour) continue;
    queued += await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable("taskDigests")
        .set({ sentOn: day })
        .where("userId", "=", userId)
        .where((eb) => eb.or([eb("sentOn", "is", null), eb("sentOn", "<>", day)]))
        .executeTakeFirst();
      if (Number(claimed.numUpdatedRows) === 0) return 0;
      // Nothing due today: the day is claimed, no e-mail.
      if ((await dueTasksFor(trx, userId, now, zone)).length === 0) return 0;
      await enqueue(trx, TASK_DIGEST_EMAIL, { userId, day } satisfies TaskDigestPayload, now);
      return 1;
    });
  }
  return queued;
}

export type TaskDigestSettings = { from: string; publicUrl?: string };

/** The e-mail: overdue first, then today's, each with its lead; plain text and its escaped HTML. */
export function composeTaskDigest(
  person: { username: string; email: string },
  tasks: Task[],
  { zone, now, day, outboxId }: { zone: string; now: Date; day: string; outboxId: number },
  settings: TaskDigestSettings,
) {
  const origin = settings.publicUrl?.replace(/\/+$/, "") ?? "";
  const overdue = tasks.filter((task) => task.dueAt < now.toISOString());
  const today = tasks.filter((task) => task.dueAt >= now.toISOString());
  const line = (task: Task) =>
    `- ${task.body} — ${task.leadName || "a lead"}, due ${formatDue(task.dueAt, zone, now)}${
      origin ? ` (${origin}/admin/leads/${task.leadId})` : ""
    }`;
  const counts = [
    overdue.length > 0 ? `${overdue.length} overdue` : null,
    today.length > 0 ? `${today.length} due today` : null,
  ].filter(Boolean);
  const lines = [
    `Good morning, ${person.username}. Your tasks for today:`,
    "",
    ...(overdue.length > 0 ? ["Overdue", ...overdue.map(line), ""] : []),
    ...(today.length > 0 ? ["Today", ...today.map(line), ""] : []),
    origin ? `All your tasks: ${origin}/admin/tasks` : "All your tasks: My tasks in the back office.",
    "",
    "You chose this e-mail on your account page; turn it off there.",
  ];
  return {
    from: settings.from,
    to: person.email,
    subject: `Your tasks today: ${counts.join(", ")}`,
    text: lines.join("\n"),
    html: linesAsHtml(lines),
    messageId: `<task-digest-${day}-${outboxId}@clausebridge>`,
  };
}

/** The outbox's sender for TASK_DIGEST_EMAIL: reads the person and their tasks at sending time. */
export function createTaskDigestSender({
  db,
  transport,
  settings,
  timeZonesOf,
  now = () => new Date(),
}: {
  db: Db;
  transport: Pick<MailTransport, "sendMail">;
  settings: TaskDigestSettings;
  timeZonesOf: ZonesOf;
  now?: () => Date;
}): OutboxSend {
  return async (message: OutboxMessage) => {
    const payload = message.payload as Partial<TaskDigestPayload> | null;
    const userId = Number(payload?.userId);
    if (!payload || !Number.isInteger(userId) || typeof payload.day !== "string")
      throw new PermanentSendError("payload has no person");
    const person = await db
      .selectFrom("users")
      .innerJoin("taskDigests", "taskDigests.userId", "users.id")
      .select(["users.username", "users.email", "users.disabled", "users.role"])
      .where("users.id", "=", userId)
      .executeTakeFirst();
    // Turned off, disabled, without an address or moved to a role without tasks since it was
    // queued: nothing goes out.
    if (!person || person.disabled || !person.email) return;
    if (!DIGEST_ROLES.some((role) => role === person.role)) return;
    const zone = (await timeZonesOf([userId])).get(userId) ?? "UTC";
    const at = now();
    // A message retried into the next day has nothing to say any more.
    if (dateIn(at.getTime(), zone) !== payload.day) return;
    const tasks = await dueTasksFor(db, userId, at, zone);
    if (tasks.length === 0) return;
    await transport.sendMail(
      composeTaskDigest(
        { username: person.username, email: person.email },
        tasks,
        { zone, now: at, day: payload.day, outboxId: message.id },
        settings,
      ),
    );
  };
}
