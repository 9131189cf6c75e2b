import { z } from "zod";
import { firstErrorPerField } from "#app/lib/field-errors.ts";
import { parseJsonObject } from "#app/lib/http.server.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { isTimeZone } from "#app/lib/time-zones.ts";
import { BLOCK_MINUTES, DEFAULT_TIME_ZONE } from "./booking-profile.ts";
import { MEETING_TYPE_SLUG } from "./booking-types.ts";
import { leadBookingToken, leadTokenLead, manageTokenMeeting, manageUrl } from "./manage-link.server.ts";
import {
  bookMeeting,
  cancelMeeting,
  findMeeting,
  findMeetingType,
  findSlots,
  hasUpcomingMeeting,
  type MeetingChangeHook,
  type MeetingRecord,
  type MeetingType,
  rescheduleMeeting,
} from "./meeting-store.server.ts";
import type { MeetingServices } from "./meetings-context.server.ts";
import { tooMany } from "./slot-query.server.ts";

export { leadBookingToken };

// POST /api/meetings and the manage link's calls (issue 34). A booking from /book/* or an integration
// stores its lead first, as the forms do (their spam and rate-limit rules), unless it carries the
// leadToken its lead's request was answered with; then the database decides who, if anyone, gets the
// time (meeting-store.server.ts). Nothing is stored for bad input: the time is checked before the lead.

export const MAX_BOOKING_BODY_BYTES = 4 * 1024;
const MINUTE_MS = 60_000;
/** Fresh times offered with a 409: the next ones from the requested day on. */
const FRESH_SLOT_DAYS = 7;
const FRESH_SLOT_COUNT = 12;

export const BOOKING_MESSAGES = {
  type: "Unknown meeting type: use demo, investor or another meeting type's link name.",
  start: "start must be a time in ISO 8601, such as 2026-12-08T10:00:00Z, on a five-minute mark.",
  past: "That time has passed. Choose one of the times offered.",
  taken: "That time is no longer available. Please choose another.",
  name: "Enter your name on one line, without ; or control characters.",
  email: "Enter a valid email address",
  company: "Enter your company name on one line.",
  phone: "Enter a valid phone number",
  timeZone: "timeZone must be a time zone such as Europe/London or America/New_York.",
  leadToken: "This booking link has expired. Please enter your details again.",
  manageLink: "This link is not valid. Use the link in your confirmation e-mail.",
  manageEnded: "This meeting has ended or was cancelled; the link no longer changes it.",
  held: "Thank you. We have your request and will confirm a time by e-mail.",
  alreadyBooked:
    "You already have this meeting booked. Use the link in your confirmation e-mail to move it to another time.",
} as const;

const oneLine = (max: number, message: string) =>
  z
    .string(message)
    .trim()
    .min(1, message)
    .max(max, message)
    .refine((value) => !breaksTextRule(value, "one-line-no-bidi"), message);

const bookingSchema = z.object({
  type: z.string(BOOKING_MESSAGES.type).regex(MEETING_TYPE_SLUG, BOOKING_MESSAGES.type),
  start: z.string(BOOKING_MESSAGES.start).max(40, BOOKING_MESSAGES.start),
  // The name goes into an invitation's ATTENDEE;CN= and a mail's To: display name: escaped there
  // too, but a name with ; or a line break is refused outright.
  fullName: oneLine(100, BOOKING_MESSAGES.name)
    .refine((value) => !value.includes(";"), BOOKING_MESSAGES.name)
    .optional(),
  email: z
    .string(BOOKING_MESSAGES.email)
    .trim()
    .max(254, BOOKING_MESSAGES.email)
    .regex(/^[^\s@;,<>"]+@[^\s@.;,<>"]+(\.[^\s@.;,<>"]+)+$/, BOOKING_MESSAGES.email)
    .optional(),
  company: oneLine(100, BOOKING_MESSAGES.company).optional(),
  phone: z
    .string(BOOKING_MESSAGES.phone)
    .trim()
    .max(30, BOOKING_MESSAGES.phone)
    .regex(/^\+?[0-9 ()./-]*$/, BOOKING_MESSAGES.phone)
    .optional()
    .nullable(),
  timeZone: z.string().max(64).refine(isTimeZone, BOOKING_MESSAGES.timeZone).optional(),
  leadToken: z.string().max(60).optional(),
});

export type BookingAnswer = { status: number; body: unknown; headers?: Record<string, string> };
export type BookingRequestHead = {
  headers: { get(name: string): string | null };
  host: string;
  protocol: string;
};

const invalid = (errors: Record<string, string>): BookingAnswer => ({
  status: 400,
  body: { message: Object.values(errors).join(". "), errors },
});

/** "2026-12-08T10:00:00Z" (or with an offset) as an instant on a five-minute mark, else null. */
function parseStart(value: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return null;
  const instant = Date.parse(value);
  if (!Number.isFinite(instant) || instant % (BLOCK_MINUTES * MINUTE_MS) !== 0) return null;
  return instant;
}

function origin(head: BookingRequestHead, publicUrl: string | undefined): string {
  return (publicUrl ?? `${head.protocol}//${head.host}`).replace(/\/$/, "");
}

/** The change hook of `services` for a request from `head`, with the links' origin. */
const changeHook =
  (services: MeetingServices, head: BookingRequestHead): MeetingChangeHook =>
  (trx, change) =>
    services.onMeetingChange(trx, { ...change, origin: origin(head, services.publicUrl) });

/** The calendars' busy times as a booking or a move confirms them: read again when not just read. */
const beforeBooking = (services: MeetingServices) => services.busyTimesBeforeBooking ?? services.busyTimes;

async function freshSlots(services: MeetingServices, type: MeetingType, from: number) {
  const now = services.now();
  const start = Math.max(now, Math.min(from, now + 60 * 24 * 60 * MINUTE_MS) - 24 * 60 * MINUTE_MS);
  const { slots } = await findSlots(
    services.database.db,
    type,
    { from: start, to: start + FRESH_SLOT_DAYS * 24 * 60 * MINUTE_MS, now },
    services.busyTimes,
  );
  return slots
    .slice(0, FRESH_SLOT_COUNT)
    .map((slot) => ({ start: new Date(slot.start).toISOString(), end: new Date(slot.end).toISOString() }));
}

async function taken(
  services: MeetingServices,
  type: MeetingType,
  start: number,
  extra: Record<string, unknown> = {},
) {
  return {
    status: 409,
    body: { message: BOOKING_MESSAGES.taken, slots: await freshSlots(services, type, start), ...extra },
  };
}

/** The request's JSON object (at most MAX_BOOKING_BODY_BYTES), or the answer refusing it. */
async function readJson(
  head: BookingRequestHead,
  readBody: (limit: number) => Promise<Uint8Array | null>,
): Promise<{ value: Record<string, unknown> } | BookingAnswer> {
  const parsed = await parseJsonObject(head.headers.get("content-type"), readBody, MAX_BOOKING_BODY_BYTES);
  return parsed.ok
    ? { value: parsed.value }
    : { status: parsed.status, body: { message: parsed.message, errors: {} } };
}

/** POST /api/meetings. */
export async function answerBooking(
  head: BookingRequestHead,
  readBody: (limit: number) => Promise<Uint8Array | null>,
  clientAddress: string,
  services: MeetingServices,
): Promise<BookingAnswer> {
  const body = await readJson(head, readBody);
  return "status" in body ? body : bookFromInput(body.value, head, clientAddress, services, "api");
}

/**
 * A booking in the API's shape, from the API or the booking page's form: 201 with the meeting, or
 * the answer the API gives (400, 409, 429, 202).
 */
export async function bookFromInput(
  body: Record<string, unknown>,
  head: BookingRequestHead,
  clientAddress: string,
  services: MeetingServices,
  via: "api" | "page",
): Promise<BookingAnswer> {
  const parsed = bookingSchema.safeParse(body);
  if (!parsed.success) return invalid(firstErrorPerField(parsed.error));
  const input = parsed.data;
  const start = parseStart(input.start);
  if (start === null) return invalid({ start: BOOKING_MESSAGES.start });
  const now = services.now();
  if (start <= now) return invalid({ start: BOOKING_MESSAGES.past });
  const type = await findMeetingType(services.database.db, input.type);
  if (!type?.active) return invalid({ type: BOOKING_MESSAGES.type });

  // Who is booking: the lead the token names, else the contact fields (all of them, as the forms ask).
  let lead: Awaited<ReturnType<MeetingServices["leads"]["find"]>> = null;
  if (input.leadToken !== undefined) {
    const leadId = leadTokenLead(services.secret, input.leadToken, now);
    lead = leadId === null ? null : await services.leads.find(leadId);
    if (!lead) return invalid({ leadToken: BOOKING_MESSAGES.leadToken });
    // The request was kept as spam; it got the same thank-you as any, so this gets the held answer.
    if (lead.spam) return { status: 202, body: { message: BOOKING_MESSAGES.held } };
  } else {
    const missing: Record<string, string> = {};
    if (!input.fullName) missing.fullName = BOOKING_MESSAGES.name;
    if (!input.email) missing.email = BOOKING_MESSAGES.email;
    if (!input.company) missing.company = BOOKING_MESSAGES.company;
    if (!input.phone) missing.phone = BOOKING_MESSAGES.phone;
    if (Object.keys(missing).length > 0) return invalid(missing);
  }

  // A time nobody could have now is refused before any lead is stored.
  const open = await findSlots(
    services.database.db,
    type,
    { from: start, to: start + MINUTE_MS, now },
    beforeBooking(services),
  );
  if (!open.hostsAt.get(start)?.length) return taken(services, type, start);

  // A person already in the list joins their own lead (its owner, its one upcoming meeting), as a
  // CRM matches a contact by e-mail; anyone new is stored as the forms store a request.
  if (!lead && input.email) {
    const existing = await services.leads.latestOf(input.email);
    if (existing && !existing.spam) lead = existing;
  }
  if (!lead) {
    const stored = await services.leads.submit(
      {
        requestType: input.type === "investor" ? "investor" : "demo",
        fullName: input.fullName ?? "",
        email: input.email ?? "",
        company: input.company ?? "",
        phone: input.phone ?? "",
      },
      head,
      clientAddress,
    );
    if (stored.kind === "invalid") return invalid(stored.errors);
    if (stored.kind === "rate-limited") return tooMany(stored.retryAfterSeconds);
    // Held for review as spam: no host's calendar gets it; staff see the lead and can write back.
    if (stored.kind === "held") return { status: 202, body: { message: BOOKING_MESSAGES.held } };
    lead = await services.leads.find(stored.leadId);
    if (!lead) throw new Error("A lead just stored was not found");
  }

  // One upcoming meeting of a type per lead: a token is not a licence to fill every host's week.
  if (await hasUpcomingMeeting(services.database.db, lead.id, type.id, now))
    return { status: 409, body: { message: BOOKING_MESSAGES.alreadyBooked, slots: [] } };
  const outcome = await bookMeeting(
    services.database.db,
    {
      type,
      start,
      attendee: {
        fullName: input.fullName ?? lead.fullName,
        email: input.email ?? lead.email,
        company: input.company ?? lead.company,
        phone: input.phone ?? lead.phone,
        timeZone: input.timeZone ?? DEFAULT_TIME_ZONE,
      },
      leadId: lead.id,
      // A returning prospect's owner hosts an "owner first" type, whichever of their leads this is.
      ownerId: lead.ownerId ?? (await services.leads.ownerOf(lead.email)),
      source: input.leadToken ? "form" : via,
      now,
    },
    beforeBooking(services),
    changeHook(services, head),
  );
  // The lead is kept: a retry with its token books without storing it twice.
  if (outcome.kind === "taken")
    return taken(services, type, start, { leadToken: leadBookingToken(services.secret, lead.id, now) });
  const { meeting } = outcome;
  services.meetingChanged();
  return {
    status: 201,
    body: {
      id: meeting.id,
      start: new Date(meeting.start).toISOString(),
      end: new Date(meeting.end).toISOString(),
      hostName: meeting.host.username,
      manageUrl: manageUrl(origin(head, services.publicUrl), services.secret, meeting.id),
    },
  };
}

/** The meeting a manage link opens while it can still be changed, or the answer refusing the link. */
export async function meetingOfManageToken(
  token: string,
  services: MeetingServices,
): Promise<{ ok: true; meeting: MeetingRecord } | { ok: false; answer: BookingAnswer }> {
  const meetingId = manageTokenMeeting(services.secret, token);
  const meeting = meetingId === null ? null : await findMeeting(services.database.db, meetingId);
  if (!meeting) return { ok: false, answer: { status: 404, body: { message: BOOKING_MESSAGES.manageLink } } };
  if (meeting.status !== "booked" || meeting.end <= services.now())
    return { ok: false, answer: { status: 410, body: { message: BOOKING_MESSAGES.manageEnded } } };
  return { ok: true, meeting };
}

const describe = (meeting: MeetingRecord) => ({
  id: meeting.id,
  type: meeting.typeName,
  status: meeting.status,
  start: new Date(meeting.start).toISOString(),
  end: new Date(meeting.end).toISOString(),
  hostName: meeting.hostName,
});

/** POST /api/meetings/manage/:token/cancel. */
export async function answerCancel(
  token: string,
  head: BookingRequestHead,
  services: MeetingServices,
): Promise<BookingAnswer> {
  const found = await meetingOfManageToken(token, services);
  if (!found.ok) return found.answer;
  if (
    !(await cancelMeeting(services.database.db, found.meeting.id, services.now(), changeHook(services, head)))
  )
    return { status: 410, body: { message: BOOKING_MESSAGES.manageEnded } };
  services.meetingChanged();
  return { status: 200, body: { ...describe(found.meeting), status: "cancelled" } };
}

const rescheduleSchema = z.object({
  start: z.string(BOOKING_MESSAGES.start).max(40, BOOKING_MESSAGES.start),
});

/** POST /api/meetings/manage/:token/reschedule `{ start }`. */
export async function answerReschedule(
  token: string,
  head: BookingRequestHead,
  readBody: (limit: number) => Promise<Uint8Array | null>,
  services: MeetingServices,
): Promise<BookingAnswer> {
  const body = await readJson(head, readBody);
  if ("status" in body) return body;
  const parsed = rescheduleSchema.safeParse(body.value);
  return rescheduleTo(token, parsed.success ? parsed.data.start : "", head, services);
}

/** Moves the meeting a manage link opens to `startText` (the API's and the manage page's). */
export async function rescheduleTo(
  token: string,
  startText: string,
  head: BookingRequestHead,
  services: MeetingServices,
): Promise<BookingAnswer> {
  const found = await meetingOfManageToken(token, services);
  if (!found.ok) return found.answer;
  const start = parseStart(startText);
  if (start === null) return invalid({ start: BOOKING_MESSAGES.start });
  const now = services.now();
  if (start <= now) return invalid({ start: BOOKING_MESSAGES.past });
  const type = await findMeetingTypeById(services, found.meeting.typeId);
  const outcome = await rescheduleMeeting(
    services.database.db,
    found.meeting,
    type,
    start,
    now,
    beforeBooking(services),
    changeHook(services, head),
  );
  if (outcome.kind === "taken") return taken(services, type, start);
  services.meetingChanged();
  const moved = await findMeeting(services.database.db, found.meeting.id);
  if (!moved) throw new Error("A meeting just moved was not found");
  return { status: 200, body: describe(moved) };
}

/** The type of a meeting, for offering it other times. */
export async function meetingTypeOf(services: MeetingServices, meeting: MeetingRecord): Promise<MeetingType> {
  return findMeetingTypeById(services, meeting.typeId);
}

async function findMeetingTypeById(services: MeetingServices, typeId: number): Promise<MeetingType> {
  const row = await services.database.db
    .selectFrom("meetingTypes")
    .select("slug")
    .where("id", "=", typeId)
    .executeTakeFirstOrThrow();
  const type = await findMeetingType(services.database.db, row.slug);
  if (!type) throw new Error(`Meeting type ${typeId} went away`);
  return type;
}
