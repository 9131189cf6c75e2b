import { randomUUID } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { dateIn } from "#app/lib/time-zones.ts";
import { type Interval, mergeSlots, openSlots } from "./availability.ts";
import {
  BLOCK_MINUTES,
  type BookingProfile,
  bookingProfileSchema,
  DEFAULT_BOOKING_PROFILE,
  meetingGapMinutes,
} from "./booking-profile.ts";

// Meetings in the database (issue 34, ADR 039): who hosts a type, when they are free, and booking
// one of them so that two bookings of one time can never both succeed. The database decides: a
// meeting holds its host's five-minute blocks (meeting_blocks' primary key), inserted in the
// booking's transaction; the loser of a race inserts nothing and tries the next free host, and with
// none left the booking is "taken". What is checked before (the host's hours, the calendar's busy
// times, the daily maximum) only chooses which host to try.

type Db = Kysely<Database>;

export type MeetingType = {
  id: number;
  slug: string;
  name: string;
  durationMinutes: number;
  hostChoice: "round_robin" | "owner_first";
  /** null: every admin and sales account. */
  hostIds: number[] | null;
  active: boolean;
};

export type Host = { id: number; username: string; email: string | null; profile: BookingProfile };

/** Busy times from a host's own calendar (CalDAV), cached; none when not connected. */
export type BusyTimes = (hostId: number, from: number, to: number) => Promise<Interval[]>;
const noBusyTimes: BusyTimes = async () => [];

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

function parseHostIds(value: string | null): number[] | null {
  if (value === null) return null;
  const parsed: unknown = JSON.parse(value);
  return Array.isArray(parsed) ? parsed.filter((id): id is number => Number.isInteger(id)) : [];
}

export async function findMeetingType(db: Db, slug: string): Promise<MeetingType | null> {
  const row = await db.selectFrom("meetingTypes").selectAll().where("slug", "=", slug).executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    durationMinutes: row.durationMinutes,
    hostChoice: row.hostChoice,
    hostIds: parseHostIds(row.hostIds),
    active: row.active === 1,
  };
}

/** A stored profile, or the defaults when there is none (or it no longer reads as one). */
export function profileFromRow(
  row: {
    timeZone: string | null;
    weeklyHours: string | null;
    daysOff: string | null;
    bufferBeforeMinutes: number | null;
    bufferAfterMinutes: number | null;
    minimumNoticeMinutes: number | null;
    horizonDays: number | null;
    maxPerDay: number | null;
  } | null,
): BookingProfile {
  if (!row?.timeZone || !row.weeklyHours) return DEFAULT_BOOKING_PROFILE;
  const parsed = bookingProfileSchema.safeParse({
    timeZone: row.timeZone,
    weeklyHours: JSON.parse(row.weeklyHours),
    daysOff: JSON.parse(row.daysOff ?? "[]"),
    bufferBeforeMinutes: row.bufferBeforeMinutes,
    bufferAfterMinutes: row.bufferAfterMinutes,
    minimumNoticeMinutes: row.minimumNoticeMinutes,
    horizonDays: row.horizonDays,
    maxPerDay: row.maxPerDay,
  });
  return parsed.success ? parsed.data : DEFAULT_BOOKING_PROFILE;
}

/** A booking profile's columns, as profileFromRow reads them (null without a profile). */
export const PROFILE_COLUMNS = [
  "bookingProfiles.timeZone",
  "bookingProfiles.weeklyHours",
  "bookingProfiles.daysOff",
  "bookingProfiles.bufferBeforeMinutes",
  "bookingProfiles.bufferAfterMinutes",
  "bookingProfiles.minimumNoticeMinutes",
  "bookingProfiles.horizonDays",
  "bookingProfiles.maxPerDay",
] as const;

/** Accounts with their booking profile's columns (null without a profile). */
function hostRows(db: Db | Transaction<Database>) {
  return db
    .selectFrom("users")
    .leftJoin("bookingProfiles", "bookingProfiles.userId", "users.id")
    .select(["users.id", "users.username", "users.email", ...PROFILE_COLUMNS]);
}

type HostRow = Parameters<typeof profileFromRow>[0] & { id: number; username: string; email: string | null };
const toHost = (row: HostRow): Host => ({
  id: row.id,
  username: row.username,
  email: row.email,
  profile: profileFromRow(row),
});

/** The accounts that host `type`: active admin and sales accounts (of its list, when it has one). */
export async function hostsOf(db: Db | Transaction<Database>, type: MeetingType): Promise<Host[]> {
  let query = hostRows(db)
    .where("users.role", "in", ["admin", "sales"])
    .where("users.disabled", "=", 0)
    .orderBy("users.id");
  if (type.hostIds) {
    if (type.hostIds.length === 0) return [];
    query = query.where("users.id", "in", type.hostIds);
  }
  return (await query.execute()).map(toHost);
}

/** One account as a host (whatever its role now), or null when it is gone. */
export async function hostById(db: Db, id: number): Promise<Host | null> {
  const row = await hostRows(db).where("users.id", "=", id).executeTakeFirst();
  return row ? toHost(row) : null;
}

/** Each host's meetings that still take time (booked, held, no-show) between `from` and `to`. */
async function meetingsByHost(
  db: Db | Transaction<Database>,
  hostIds: number[],
  from: number,
  to: number,
  ignoreMeetingId?: number,
): Promise<Map<number, Interval[]>> {
  const byHost = new Map<number, Interval[]>(hostIds.map((id) => [id, []]));
  if (hostIds.length === 0) return byHost;
  let query = db.selectFrom("meetings").select(["hostId", "startAt", "endAt"]);
  if (ignoreMeetingId !== undefined) query = query.where("id", "!=", ignoreMeetingId);
  const rows = await query
    .where("hostId", "in", hostIds)
    .where("status", "!=", "cancelled")
    .where("startAt", "<", new Date(to).toISOString())
    .where("endAt", ">", new Date(from).toISOString())
    .execute();
  for (const row of rows)
    byHost.get(row.hostId)?.push({ start: Date.parse(row.startAt), end: Date.parse(row.endAt) });
  return byHost;
}

export type SlotsAnswer = {
  /** Each open start once, ascending, no host named. */
  slots: Interval[];
  /** Which hosts are free at each start (for booking). */
  hostsAt: Map<number, number[]>;
};

/** The open times of `type` between `from` and `to` (as if `ignoreMeetingId` were not booked: it moves). */
export async function findSlots(
  db: Db | Transaction<Database>,
  type: MeetingType,
  window: { from: number; to: number; now: number },
  busyTimes: BusyTimes = noBusyTimes,
  ignoreMeetingId?: number,
): Promise<SlotsAnswer> {
  const hosts = await hostsOf(db, type);
  // A day either side: a host's daily maximum counts the whole day in their zone.
  const meetings = await meetingsByHost(
    db,
    hosts.map((host) => host.id),
    window.from - DAY_MS - 2 * 60 * MINUTE_MS,
    window.to + DAY_MS + 2 * 60 * MINUTE_MS,
    ignoreMeetingId,
  );
  const hostsAt = new Map<number, number[]>();
  const lists = await Promise.all(
    hosts.map(async (host) => {
      const slots = openSlots({
        profile: host.profile,
        durationMinutes: type.durationMinutes,
        from: window.from,
        to: window.to,
        now: window.now,
        meetings: meetings.get(host.id) ?? [],
        busy: await busyTimes(host.id, window.from - DAY_MS, window.to + DAY_MS),
      });
      for (const slot of slots) hostsAt.set(slot.start, [...(hostsAt.get(slot.start) ?? []), host.id]);
      return slots;
    }),
  );
  return { slots: mergeSlots(lists), hostsAt };
}

export type Attendee = {
  fullName: string;
  email: string;
  company: string;
  phone: string | null;
  timeZone: string;
};

export type BookingRequest = {
  type: MeetingType;
  start: number;
  attendee: Attendee;
  leadId: number | null;
  /** The lead's owner: hosts an "owner first" type when free. */
  ownerId: number | null;
  source: "form" | "page" | "api";
  now: number;
};

export type BookedMeeting = {
  id: number;
  uid: string;
  start: number;
  end: number;
  host: Host;
};

export type BookingOutcome = { kind: "booked"; meeting: BookedMeeting } | { kind: "taken" };

class BlockTaken extends Error {}

export type MeetingChange = {
  event: "booked" | "rescheduled" | "cancelled";
  meetingId: number;
  occurredAt: number;
  /** A move's former start (the lead's timeline and the webhook say where it was). */
  previousStart?: number;
};
/**
 * Called inside the transaction that changes a meeting, so what it queues (e-mails, webhook
 * deliveries, the lead's timeline) is committed with the change or not at all.
 */
export type MeetingChangeHook = (trx: Transaction<Database>, change: MeetingChange) => Promise<unknown>;
const noHook: MeetingChangeHook = async () => {};

/** The five-minute blocks a meeting holds: its time and the host's gap after it. */
export function blocksOf(start: number, end: number, profile: BookingProfile): string[] {
  const until = end + meetingGapMinutes(profile) * MINUTE_MS;
  const blocks: string[] = [];
  for (let block = start; block < until; block += BLOCK_MINUTES * MINUTE_MS)
    blocks.push(new Date(block).toISOString());
  return blocks;
}

/**
 * Takes the host's blocks for a meeting in its transaction, or throws BlockTaken when another
 * booking holds any of them (the database's answer: ADR 039).
 */
async function holdBlocks(
  trx: Transaction<Database>,
  meetingId: number,
  host: Host,
  start: number,
  end: number,
) {
  const blocks = blocksOf(start, end, host.profile);
  const held = await trx
    .insertInto("meetingBlocks")
    .values(blocks.map((blockStart) => ({ hostId: host.id, blockStart, meetingId })))
    .onConflict((conflict) => conflict.columns(["hostId", "blockStart"]).doNothing())
    .returning("blockStart")
    .execute();
  if (held.length !== blocks.length) throw new BlockTaken();
}

/**
 * The free hosts in the order to try them: the lead's owner first for an "owner first" type, then
 * the one with the fewest meetings of the type that month, ties to the one whose last booking is
 * oldest (idle longest).
 */
async function hostOrder(db: Db, request: BookingRequest, free: number[]): Promise<number[]> {
  const month = new Date(request.start).toISOString().slice(0, 7);
  const monthStart = `${month}-01T00:00:00.000Z`;
  const next = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1)).toISOString();
  const counts = new Map<number, number>();
  for (const row of await db
    .selectFrom("meetings")
    .select(["hostId", (eb) => eb.fn.countAll<number>().as("count")])
    .where("hostId", "in", free)
    .where("typeId", "=", request.type.id)
    .where("status", "!=", "cancelled")
    .where("startAt", ">=", monthStart)
    .where("startAt", "<", next)
    .groupBy("hostId")
    .execute())
    counts.set(row.hostId, Number(row.count));
  const lastBooked = new Map<number, string>();
  for (const row of await db
    .selectFrom("meetings")
    .select(["hostId", (eb) => eb.fn.max("createdAt").as("last")])
    .where("hostId", "in", free)
    .groupBy("hostId")
    .execute())
    if (row.last) lastBooked.set(row.hostId, String(row.last));
  const ordered = [...free].sort(
    (a, b) =>
      (counts.get(a) ?? 0) - (counts.get(b) ?? 0) ||
      (lastBooked.get(a) ?? "").localeCompare(lastBooked.get(b) ?? "") ||
      a - b,
  );
  const owner = request.type.hostChoice === "owner_first" ? request.ownerId : null;
  return owner !== null && ordered.includes(owner)
    ? [owner, ...ordered.filter((id) => id !== owner)]
    : ordered;
}

/**
 * Books `request.start` with the first free host that the database lets have it. "taken" when no
 * host is free then, or every free one was taken by a concurrent booking.
 */
export async function bookMeeting(
  db: Db,
  request: BookingRequest,
  busyTimes: BusyTimes = noBusyTimes,
  onChange: MeetingChangeHook = noHook,
): Promise<BookingOutcome> {
  const end = request.start + request.type.durationMinutes * MINUTE_MS;
  const { hostsAt } = await findSlots(
    db,
    request.type,
    { from: request.start, to: request.start + MINUTE_MS, now: request.now },
    busyTimes,
  );
  const free = hostsAt.get(request.start) ?? [];
  if (free.length === 0) return { kind: "taken" };
  const hosts = new Map((await hostsOf(db, request.type)).map((host) => [host.id, host]));
  for (const hostId of await hostOrder(db, request, free)) {
    const host = hosts.get(hostId);
    if (!host) continue;
    try {
      const meeting = await db.transaction().execute(async (trx) => {
        const now = new Date(request.now).toISOString();
        const uid = `${randomUUID()}@clausebridge`;
        const inserted = await trx
          .insertInto("meetings")
          .values({
            typeId: request.type.id,
            hostId,
            leadId: request.leadId,
            status: "booked",
            startAt: new Date(request.start).toISOString(),
            endAt: new Date(end).toISOString(),
            uid,
            fullName: request.attendee.fullName,
            email: request.attendee.email,
            company: request.attendee.company,
            phone: request.attendee.phone,
            timeZone: request.attendee.timeZone,
            source: request.source,
            createdAt: now,
            updatedAt: now,
            scheduledAt: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
        await holdBlocks(trx, inserted.id, host, request.start, end);
        // The daily maximum, counted now that this booking holds its time (a concurrent booking of
        // another time the same day may still slip past it: a limit, not a guarantee).
        const date = dateIn(request.start, host.profile.timeZone);
        const sameDay = await meetingsByHost(trx, [hostId], request.start - DAY_MS, request.start + DAY_MS);
        const count = (sameDay.get(hostId) ?? []).filter(
          (meeting) => dateIn(meeting.start, host.profile.timeZone) === date,
        ).length;
        if (count > host.profile.maxPerDay) throw new BlockTaken();
        await onChange(trx, { event: "booked", meetingId: inserted.id, occurredAt: request.now });
        return { id: inserted.id, uid, start: request.start, end, host };
      });
      return { kind: "booked", meeting };
    } catch (error) {
      if (!(error instanceof BlockTaken)) throw error;
    }
  }
  return { kind: "taken" };
}

/** Cancels a booked meeting: its time is free again at once. False when it was not booked. */
export async function cancelMeeting(
  db: Db,
  meetingId: number,
  now: number,
  onChange: MeetingChangeHook = noHook,
): Promise<boolean> {
  return db.transaction().execute((trx) => cancelMeetingIn(trx, meetingId, now, onChange));
}

/** cancelMeeting in a transaction already open (a person's erasure cancels their meetings in its own). */
export async function cancelMeetingIn(
  trx: Transaction<Database>,
  meetingId: number,
  now: number,
  onChange: MeetingChangeHook = noHook,
): Promise<boolean> {
  const updated = await trx
    .updateTable("meetings")
    .set((eb) => ({
      status: "cancelled",
      cancelledAt: new Date(now).toISOString(),
      updatedAt: new Date(now).toISOString(),
      sequence: eb("sequence", "+", 1),
    }))
    .where("id", "=", meetingId)
    .where("status", "=", "booked")
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) return false;
  await trx.deleteFrom("meetingBlocks").where("meetingId", "=", meetingId).execute();
  await onChange(trx, { event: "cancelled", meetingId, occurredAt: now });
  return true;
}

/** Whether the lead has a booked meeting of the type that has not ended. */
export async function hasUpcomingMeeting(
  db: Db,
  leadId: number,
  typeId: number,
  now: number,
): Promise<boolean> {
  const row = await db
    .selectFrom("meetings")
    .select("id")
    .where("leadId", "=", leadId)
    .where("typeId", "=", typeId)
    .where("status", "=", "booked")
    .where("endAt", ">", new Date(now).toISOString())
    .executeTakeFirst();
  return row !== undefined;
}

export type MeetingRecord = {
  id: number;
  typeId: number;
  typeName: string;
  hostId: number;
  hostName: string;
  leadId: number | null;
  status: "booked" | "cancelled" | "held" | "no_show";
  start: number;
  end: number;
  uid: string;
  sequence: number;
  attendee: Attendee;
  /** The attendee's personal data was cleared (their erasure, or retention): nothing goes to them. */
  erased: boolean;
};

export async function findMeeting(db: Db, id: number): Promise<MeetingRecord | null> {
  const row = await db
    .selectFrom("meetings")
    .innerJoin("users", "users.id", "meetings.hostId")
    .innerJoin("meetingTypes", "meetingTypes.id", "meetings.typeId")
    .select([
      "meetings.id",
      "meetings.typeId",
      "meetingTypes.name as typeName",
      "meetings.hostId",
      "users.username as hostName",
      "meetings.leadId",
      "meetings.status",
      "meetings.startAt",
      "meetings.endAt",
      "meetings.uid",
      "meetings.sequence",
      "meetings.fullName",
      "meetings.email",
      "meetings.company",
      "meetings.phone",
      "meetings.timeZone",
      "meetings.attendeeErasedAt",
    ])
    .where("meetings.id", "=", id)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    typeId: row.typeId,
    typeName: row.typeName,
    hostId: row.hostId,
    hostName: row.hostName,
    leadId: row.leadId,
    status: row.status,
    start: Date.parse(row.startAt),
    end: Date.parse(row.endAt),
    uid: row.uid,
    sequence: row.sequence,
    attendee: {
      fullName: row.fullName,
      email: row.email,
      company: row.company,
      phone: row.phone,
      timeZone: row.timeZone,
    },
    erased: row.attendeeErasedAt !== null,
  };
}

/**
 * Moves a booked meeting to `start`, with its host when they are free then, else with another free
 * host of its type: its blocks move in one transaction, so the old time stays held when the new one
 * cannot be had. The UID stays; the SEQUENCE goes up.
 */
export async function rescheduleMeeting(
  db: Db,
  meeting: MeetingRecord,
  type: MeetingType,
  start: number,
  now: number,
  busyTimes: BusyTimes = noBusyTimes,
  onChange: MeetingChangeHook = noHook,
): Promise<BookingOutcome> {
  const end = start + type.durationMinutes * MINUTE_MS;
  // Free hosts at the new time, counting the meeting's own time as free (it moves).
  const { hostsAt } = await findSlots(
    db,
    type,
    { from: start, to: start + MINUTE_MS, now },
    busyTimes,
    meeting.id,
  );
  const free = hostsAt.get(start) ?? [];
  const candidates = [
    ...(free.includes(meeting.hostId) ? [meeting.hostId] : []),
    ...free.filter((id) => id !== meeting.hostId),
  ];
  const hosts = new Map((await hostsOf(db, type)).map((host) => [host.id, host]));
  for (const hostId of candidates) {
    const host = hosts.get(hostId);
    if (!host) continue;
    try {
      await db.transaction().execute(async (trx) => {
        const moved = await trx
          .updateTable("meetings")
          .set((eb) => ({
            hostId,
            startAt: new Date(start).toISOString(),
            endAt: new Date(end).toISOString(),
            updatedAt: new Date(now).toISOString(),
            sequence: eb("sequence", "+", 1),
            // The new time gets its own reminders; none are left for the old one.
            scheduledAt: new Date(now).toISOString(),
            dayReminderAt: null,
            hourReminderAt: null,
          }))
          .where("id", "=", meeting.id)
          .where("status", "=", "booked")
          .executeTakeFirst();
        if (Number(moved.numUpdatedRows) === 0) throw new BlockTaken();
        await trx.deleteFrom("meetingBlocks").where("meetingId", "=", meeting.id).execute();
        await holdBlocks(trx, meeting.id, host, start, end);
        await onChange(trx, {
          event: "rescheduled",
          meetingId: meeting.id,
          occurredAt: now,
          previousStart: meeting.start,
        });
      });
      return { kind: "booked", meeting: { id: meeting.id, uid: meeting.uid, start, end, host } };
    } catch (error) {
      if (!(error instanceof BlockTaken)) throw error;
    }
  }
  return { kind: "taken" };
}
