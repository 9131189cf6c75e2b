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
import { invitationText } from "./invitation.server.ts";
import { manageUrl as manageLink } from "./manage-link.server.ts";
import { findMeeting, hostById, type MeetingRecord } from "./meeting-store.server.ts";

// The e-mails a booking sends (issue 34): to the prospect and to the host, each with the meeting as an
// invitation calendar apps add with one click, queued in the outbox in the booking's own transaction
// and sent by the outbox worker. The row names the meeting, not its text: what goes out is the
// meeting as it is then (a meeting moved twice before the first send goes out once, at its latest
// time, with its latest SEQUENCE), and a cancelled one goes out as METHOD:CANCEL.

export const MEETING_EMAIL = "meeting-email";
export type MeetingEvent = "booked" | "rescheduled" | "cancelled";
export type MeetingEmailPayload = {
  meetingId: number;
  recipient: "attendee" | "host";
  event: MeetingEvent;
  /** The site's address for the links (PUBLIC_URL, or the booking request's origin). */
  origin: string;
};

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
  payload: MeetingEmailPayload,
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
    const found = await hostById(db, meeting.hostId);
    if (!found) throw new PermanentSendError("the host no longer exists");
    if (payload.recipient === "host" && !found.email)
      throw new PermanentSendError("the host has no e-mail address");
    const host = { name: found.username, email: found.email, timeZone: found.profile.timeZone };
    await transport.sendMail(
      composeMeetingEmail(meeting, host, payload as MeetingEmailPayload, settings, Number(message.id), now()),
    );
  };
}

/** Queues the change's e-mails in its transaction: the prospect's, and the host's when they have an address. */
export async function queueMeetingEmails(
  trx: Transaction<Database>,
  change: { event: MeetingEvent; meetingId: number; occurredAt: number; origin: string },
): Promise<number> {
  const host = await trx
    .selectFrom("meetings")
    .innerJoin("users", "users.id", "meetings.hostId")
    .select("users.email")
    .where("meetings.id", "=", change.meetingId)
    .executeTakeFirst();
  const recipients: MeetingEmailPayload["recipient"][] = host?.email ? ["attendee", "host"] : ["attendee"];
  for (const recipient of recipients)
    await enqueue(
      trx,
      MEETING_EMAIL,
      {
        meetingId: change.meetingId,
        recipient,
        event: change.event,
        origin: change.origin,
      } satisfies MeetingEmailPayload,
      new Date(change.occurredAt),
    );
  return recipients.length;
}
