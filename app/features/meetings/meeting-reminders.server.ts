import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { queueEmails, type Reminder } from "./meeting-email.server.ts";

// Reminders (issue 34): an e-mail to the prospect, and to the host when they have an address, 24 hours
// and one hour before a booked meeting, through the outbox like its other e-mails. A sweep (every
// minute on every instance, composition/services.server.ts) finds the due ones and claims each with
// one conditional update of its meeting (`day_reminder_at` or `hour_reminder_at` still null, the
// meeting still booked at the start it read), in the transaction that queues its e-mails: of
// instances sweeping together, one claims it and the others update nothing, so each goes once.
//
// - A reminder is due from its moment (24 h or 1 h before the start) until the next one: the 24-hour
//   one is not sent within the last hour (the one-hour one is), none after the start.
// - Only when the meeting got its time (`scheduled_at`: booked, or last moved) at least that long
//   before: booked 3 hours ahead, it gets the one-hour reminder only; booked 30 minutes ahead, none.
// - A move clears both claims (meeting-store.server.ts), so the new time gets its reminders; one
//   queued for the old time is dropped when it is sent (the e-mail names the start it was for).
// - Never for a cancelled meeting (nor held, no-show) or an erased attendee.

type Db = Kysely<Database>;

const HOUR_MS = 3_600_000;
/** How many meetings one pass looks at per reminder; the next pass takes the rest. */
const SWEEP_BATCH = 100;
export const REMINDER_SWEEP_MS = 60_000;

const REMINDERS: readonly {
  reminder: Reminder;
  column: "dayReminderAt" | "hourReminderAt";
  beforeMs: number;
  /** Not sent within this long of the start (the next reminder's turn). */
  untilMs: number;
}[] = [
  { reminder: "day", column: "dayReminderAt", beforeMs: 24 * HOUR_MS, untilMs: HOUR_MS },
  { reminder: "hour", column: "hourReminderAt", beforeMs: HOUR_MS, untilMs: 0 },
];

/**
 * Queues the reminders due at `now`, each claimed once across instances. `publicUrl` is the links'
 * origin (PUBLIC_URL); without it, the one the booking's e-mails used. How many e-mails were queued.
 */
export async function queueDueReminders(
  db: Db,
  { now, publicUrl }: { now: number; publicUrl: string | undefined },
): Promise<number> {
  let queued = 0;
  for (const { reminder, column, beforeMs, untilMs } of REMINDERS) {
    const due = await db
      .selectFrom("meetings")
      .select(["id", "startAt", "scheduledAt", "linksOrigin"])
      .where("status", "=", "booked")
      .where(column, "is", null)
      .where("attendeeErasedAt", "is", null)
      .where("startAt", ">", new Date(now + untilMs).toISOString())
      .where("startAt", "<=", new Date(now + beforeMs).toISOString())
      .orderBy("startAt")
      .limit(SWEEP_BATCH)
      .execute();
    for (const meeting of due) {
      const start = Date.parse(meeting.startAt);
      // Booked (or moved) less than this long ahead: this reminder is not for it.
      if ((Date.parse(meeting.scheduledAt) || 0) > start - beforeMs) continue;
      queued += await db.transaction().execute(async (trx) => {
        const claimed = await trx
          .updateTable("meetings")
          .set(
            column === "dayReminderAt"
              ? { dayReminderAt: new Date(now).toISOString() }
              : { hourReminderAt: new Date(now).toISOString() },
          )
          .where("id", "=", meeting.id)
          .where(column, "is", null)
          .where("status", "=", "booked")
          .where("startAt", "=", meeting.startAt)
          .where("attendeeErasedAt", "is", null)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) === 0) return 0;
        const origin = (publicUrl ?? meeting.linksOrigin ?? "").replace(/\/+$/, "");
        return queueEmails(
          trx,
          meeting.id,
          { event: "reminder", reminder, start: new Date(start).toISOString(), origin },
          now,
        );
      });
    }
  }
  return queued;
}
