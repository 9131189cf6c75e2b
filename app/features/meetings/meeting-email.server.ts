import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { MailTransport } from "#app/lib/mailer.server.ts";
import { enqueue } from "#app/lib/outbox/outbox.server.ts";
import {
  type OutboxMessage,
  type OutboxSend,
  PermanentSendError,
} from "#app/lib/outbox/outbox-worker.server.ts";
import { linesAsHtml } from "#app/lib/plain-email.ts";
import { dateIn } from "#app/lib/time-zones.ts";
import { invitationText } from "./invitation.server.ts";
import { manageUrl as manageLink } from "./manage-link.server.ts";
import { findMeeting, hostById, type MeetingRecord } from "./meeting-store.server.ts";

// The e-mails a booking sends (issue 34): to the prospect and to the host, each with the meeting as an
// invitation calendar apps add with one click, queued in the outbox in the booking's own transaction
// and sent by the outbox worker. The row names the meeting, not its text: what goes out is the
// meeting as it is then (a meeting moved twice before the first send goes out once, at its latest
// time, with its latest SEQUENCE), and a cancelled one goes out as METHOD:CANCEL. Reminders
// (meeting-reminders.server.ts) are rows of the same kind, sent only while the meeting is still
// booked at the time they were queued for. Nothing goes out about a meeting whose attendee was
// erased.

export const MEETING_EMAIL = "meeting-email";
export type MeetingEvent = "booked" | "rescheduled" | "cancelled";
export type MeetingEmailPayload = {
  meetingId: number;
  recipient: "attendee" | "host";
  event: MeetingEvent | "reminder";
  /** The site's address for the links (PUBLIC_URL, or the booking request's origin). */
  origin: string;
  /** A reminder's: which one, and the start it reminds of (ISO 8601; a move since voids it). */
  reminder?: Reminder;
  start?: string;
};
/** 24 hours before ("day") and one hour before ("hour"). */
export type Reminder = "day" | "hour";

export type MeetingEmailSettings = { from: string; secret: string };

/** "Tuesday 8 December, 10:30 GMT" in `zone` (the zone as Americans and Britons abbreviate it: EST, BST). */
export function meetingTime(instant: number, zone: string): string {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone: zone,
    weekday: "long",
    day: "numeric",
    month: "long",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const zoneName =
    new Intl.DateTimeFormat(zone.startsWith("Europe/") ? "en-GB" : "en-US", {
      timeZone: zone,
      timeZoneName: "short",
    })
      .formatToParts(instant)
      .find((p) => p.type === "timeZoneName")?.value ?? zone;
  return `${part("weekday")} ${part("day")} ${part("month")}, ${part("hour")}:${part("minute")} ${zoneName}`;
}

/** "tomorrow at 10:30 GMT", "today at 09:00 EST", "on Friday 11 December at 10:30 GMT", seen from `now` in `zone`. */
export function dayAndTime(instant: number, now: number, zone: string): string {
  const full = meetingTime(instant, zone);
  const comma = full.lastIndexOf(", ");
  const [date, time] = [full.slice(0, comma), full.slice(comma + 2)];
  const day = dateIn(instant, zone);
  const today = dateIn(now, zone);
  if (day === today) return `today at ${time}`;
  const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return day === tomorrow ? `tomorrow at ${time}` : `on ${date} at ${time}`;
}

/** The address part of "Name <address>" (MAIL_FROM). */
function addressOf(from: string): string {
  return /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
}

type Host = { name: string; email: string | null; timeZone: string };

const HEADLINE: Record<MeetingEvent, { attendee: string; host: string }> = {
  booked: { attendee: "Confirmed", host: "New booking" },
  rescheduled: { attendee: "Updated", host: "Moved" },
  cancelled: { attendee: "Cancelled", host: "Cancelled" },
};

export function composeMeetingEmail(
  meeting: MeetingRecord,
  host: Host,
  payload: MeetingEmailPayload & { event: MeetingEvent },
  settings: MeetingEmailSettings,
  outboxId: number,
  now: number,
) {
  const cancelled = meeting.status === "cancelled";
  const event: MeetingEvent = cancelled ? "cancelled" : payload.event;
  const toAttendee = payload.recipient === "attendee";
  const zone = toAttendee ? meeting.attendee.timeZone : host.timeZone;
  const when = meetingTime(meeting.start, zone);
  const origin = payload.origin.replace(/\/+$/, "");
  const manageUrl = manageLink(origin, settings.secret, meeting.id);
  const leadUrl = meeting.leadId ? `${origin}/admin/leads/${meeting.leadId}` : null;
  const subject = toAttendee
    ? `${HEADLINE[event].attendee}: ${meeting.typeName} with Clausebridge, ${when}`
    : `${HEADLINE[event].host}: ${meeting.typeName} with ${meeting.attendee.fullName} (${meeting.attendee.company}), ${when}`;
  const lines = toAttendee
    ? [
        `Hello ${meeting.attendee.fullName},`,
        "",
        cancelled
          ? `Your ${meeting.typeName.toLowerCase()} on ${when} is cancelled.`
          : `Your ${meeting.typeName.toLowerCase()} with ${host.name} is ${event === "rescheduled" ? "now" : "booked for"} ${when}. It lasts ${Math.round((meeting.end - meeting.start) / 60_000)} minutes.`,
        "",
        ...(cancelled
          ? ["You can book another time on our website."]
          : [`To reschedule or cancel: ${manageUrl}`]),
        "",
        "Clausebridge",
      ]
    : [
        `${meeting.typeName}: ${meeting.attendee.fullName}, ${meeting.attendee.company}`,
        `${cancelled ? "Was" : "When"}: ${when}`,
        `E-mail: ${meeting.attendee.email}`,
        ...(meeting.attendee.phone ? [`Phone: ${meeting.attendee.phone}`] : []),
        ...(leadUrl ? ["", `The lead: ${leadUrl}`] : []),
      ];
  const hostAddress = host.email ?? addressOf(settings.from);
  const calendar = invitationText({
    method: cancelled ? "CANCEL" : "REQUEST",
    uid: meeting.uid,
    sequence: meeting.sequence,
    start: meeting.start,
    end: meeting.end,
    stamp: now,
    summary: `${meeting.typeName}: Clausebridge and ${meeting.attendee.company}`,
    description: cancelled ? "Cancelled." : `To reschedule or cancel: ${manageUrl}`,
    organizer: { name: host.name, email: hostAddress },
    attendee: { name: meeting.attendee.fullName, email: meeting.attendee.email },
  });
  const to = toAttendee
    ? { name: meeting.attendee.fullName, address: meeting.attendee.email }
    : { name: host.name, address: host.email ?? "" };
  return {
    from: settings.from,
    to,
    subject,
    text: lines.join("\n"),
    html: linesAsHtml(lines),
    // nodemailer adds it as the text/calendar alternative (with its METHOD) and as invite.ics.
    icalEvent: { method: cancelled ? "CANCEL" : "REQUEST", filename: "invite.ics", content: calendar },
    messageId: `<meeting-${meeting.id}-${payload.recipient}-${outboxId}@clausebridge>`,
  };
}

/** A reminder: the meeting's time from the reader's "now", the manage link; no invitation attached. */
export function composeReminderEmail(
  meeting: MeetingRecord,
  host: Host,
  payload: MeetingEmailPayload & { reminder: Reminder },
  settings: MeetingEmailSettings,
  outboxId: number,
  now: number,
) {
  const toAttendee = payload.recipient === "attendee";
  const zone = toAttendee ? meeting.attendee.timeZone : host.timeZone;
  const when =
    payload.reminder === "hour"
      ? `in one hour, at ${meetingTime(meeting.start, zone).split(", ").at(-1)}`
      : dayAndTime(meeting.start, now, zone);
  const origin = payload.origin.replace(/\/+$/, "");
  const manageUrl = manageLink(origin, settings.secret, meeting.id);
  const leadUrl = meeting.leadId ? `${origin}/admin/leads/${meeting.leadId}` : null;
  const minutes = Math.round((meeting.end - meeting.start) / 60_000);
  const type = meeting.typeName.toLowerCase();
  const subject = toAttendee
    ? `Reminder: your ${type} ${when}`
    : `Reminder: ${meeting.typeName} with ${meeting.attendee.fullName} (${meeting.attendee.company}) ${when}`;
  const lines = toAttendee
    ? [
        `Hello ${meeting.attendee.fullName},`,
        "",
        `Reminder: your ${type} with ${host.name} is ${when} (${meetingTime(meeting.start, zone)}). It lasts ${minutes} minutes.`,
        "",
        `To reschedule or cancel: ${manageUrl}`,
        "",
        "Clausebridge",
      ]
    : [
        `Reminder: ${meeting.typeName} with ${meeting.attendee.fullName}, ${meeting.attendee.company}, ${when}`,
        `When: ${meetingTime(meeting.start, zone)}`,
        `E-mail: ${meeting.attendee.email}`,
        ...(meeting.attendee.phone ? [`Phone: ${meeting.attendee.phone}`] : []),
        ...(leadUrl ? ["", `The lead: ${leadUrl}`] : []),
      ];
  const to = toAttendee
    ? { name: meeting.attendee.fullName, address: meeting.attendee.email }
    : { name: host.name, address: host.email ?? "" };
  return {
    from: settings.from,
    to,
    subject,
    text: lines.join("\n"),
    html: linesAsHtml(lines),
    messageId: `<meeting-${meeting.id}-${payload.recipient}-${outboxId}@clausebridge>`,
  };
}

/** Whether a reminder queued for `payload.start` still stands: the meeting booked then, not begun. */
function reminderStands(meeting: MeetingRecord, payload: MeetingEmailPayload, now: number): boolean {
  return (
    meeting.status === "booked" &&
    typeof payload.start === "string" &&
    Date.parse(payload.start) === meeting.start &&
    now < meeting.start
  );
}

export function createMeetingEmailSender({
  db,
  transport,
  settings,
  now = () => Date.now(),
}: {
  db: Kysely<Database>;
  transport: Pick<MailTransport, "sendMail">;
  settings: MeetingEmailSettings;
  now?: () => number;
}): OutboxSend {
  return async (message: OutboxMessage) => {
    const payload = message.payload as Partial<MeetingEmailPayload> | null;
    const meetingId = Number(payload?.meetingId);
    if (
      !payload ||
      !Number.isInteger(meetingId) ||
      (payload.recipient !== "attendee" && payload.recipient !== "host") ||
      typeof payload.origin !== "string"
    )
      throw new PermanentSendError("payload has no meeting");
    const meeting = await findMeeting(db, meetingId);
    if (!meeting) throw new PermanentSendError(`meeting ${meetingId} no longer exists`);
    // The attendee was erased: nothing about them goes out any more (the row counts as done).
    if (meeting.erased) return;
    const reminder = payload.event === "reminder" ? payload.reminder : undefined;
    if (payload.event === "reminder" && reminder !== "day" && reminder !== "hour")
      throw new PermanentSendError("a reminder without its kind");
    // Cancelled, moved or begun since it was queued: the reminder has nothing left to say.
    if (reminder && !reminderStands(meeting, payload as MeetingEmailPayload, now())) return;
    const found = await hostById(db, meeting.hostId);
    if (!found) throw new PermanentSendError("the host no longer exists");
    if (payload.recipient === "host" && !found.email)
      throw new PermanentSendError("the host has no e-mail address");
    const host = { name: found.username, email: found.email, timeZone: found.profile.timeZone };
    await transport.sendMail(
      reminder
        ? composeReminderEmail(
            meeting,
            host,
            { ...(payload as MeetingEmailPayload), reminder },
            settings,
            Number(message.id),
            now(),
          )
        : composeMeetingEmail(
            meeting,
            host,
            payload as MeetingEmailPayload & { event: MeetingEvent },
            settings,
            Number(message.id),
            now(),
          ),
    );
  };
}

/**
 * Queues the change's e-mails in its transaction: the prospect's, and the host's when they have an
 * address. Keeps the links' origin on the meeting for its reminders.
 */
export async function queueMeetingEmails(
  trx: Transaction<Database>,
  change: { event: MeetingEvent; meetingId: number; occurredAt: number; origin: string },
): Promise<number> {
  if (change.event !== "cancelled")
    await trx
      .updateTable("meetings")
      .set({ linksOrigin: change.origin })
      .where("id", "=", change.meetingId)
      .execute();
  return queueEmails(
    trx,
    change.meetingId,
    { event: change.event, origin: change.origin },
    change.occurredAt,
  );
}

/** The meeting's e-mail with `fields` to its prospect, and to its host when they have an address: how many. */
export async function queueEmails(
  trx: Transaction<Database>,
  meetingId: number,
  fields: Omit<MeetingEmailPayload, "meetingId" | "recipient">,
  at: number,
): Promise<number> {
  const host = await trx
    .selectFrom("meetings")
    .innerJoin("users", "users.id", "meetings.hostId")
    .select("users.email")
    .where("meetings.id", "=", meetingId)
    .executeTakeFirst();
  const recipients: MeetingEmailPayload["recipient"][] = host?.email ? ["attendee", "host"] : ["attendee"];
  for (const recipient of recipients)
    await enqueue(
      trx,
      MEETING_EMAIL,
      { meetingId, recipient, ...fields } satisfies MeetingEmailPayload,
      new Date(at),
    );
  return recipients.length;
}
