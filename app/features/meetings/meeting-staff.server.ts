import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { MeetingOutcome, MeetingStatus } from "./meeting-status.ts";

export {
  MEETING_OUTCOMES,
  MEETING_STATUSES,
  type MeetingOutcome,
  type MeetingStatus,
} from "./meeting-status.ts";

// The staff side of meetings (issue 34): every booked meeting with its lead, upcoming or past, per
// host and status, for the Meetings page and GET /api/admin/meetings; and the outcome staff record
// once a meeting has started (held, no-show). An outcome changes a meeting in one transaction with
// what follows it (the lead's timeline, through the composition root's hook).

type Db = Kysely<Database>;

/** "upcoming": not started yet, soonest first; "past": started, latest first. */
export type MeetingWhen = "upcoming" | "past";

export type MeetingListFilter = {
  when: MeetingWhen;
  hostId?: number;
  status?: MeetingStatus;
  page: number;
  pageSize: number;
};

/** A meeting as staff see it in the list and the API. */
export type StaffMeeting = {
  id: number;
  /** The type's slug (`demo`, `investor`). */
  type: string;
  typeName: string;
  start: string;
  end: string;
  status: MeetingStatus;
  hostId: number;
  hostName: string;
  fullName: string;
  company: string;
  email: string;
  /** The attendee's own time zone, as they booked. */
  timeZone: string;
  /** Null once the lead was erased. */
  leadId: number | null;
  /** The attendee's name, e-mail, company and phone were cleared (their erasure, or retention). */
  erased: boolean;
};

function meetingRows(db: Db | Transaction<Database>) {
  return db
    .selectFrom("meetings")
    .innerJoin("users", "users.id", "meetings.hostId")
    .innerJoin("meetingTypes", "meetingTypes.id", "meetings.typeId")
    .select([
      "meetings.id",
      "meetingTypes.slug as type",
      "meetingTypes.name as typeName",
      "meetings.startAt",
      "meetings.endAt",
      "meetings.status",
      "meetings.hostId",
      "users.username as hostName",
      "meetings.fullName",
      "meetings.company",
      "meetings.email",
      "meetings.timeZone",
      "meetings.leadId",
      "meetings.attendeeErasedAt",
    ]);
}

type MeetingRow = Awaited<ReturnType<ReturnType<typeof meetingRows>["executeTakeFirstOrThrow"]>>;

const toStaffMeeting = (row: MeetingRow): StaffMeeting => ({
  id: Number(row.id),
  type: row.type,
  typeName: row.typeName,
  start: row.startAt,
  end: row.endAt,
  status: row.status,
  hostId: Number(row.hostId),
  hostName: row.hostName,
  fullName: row.fullName,
  company: row.company,
  email: row.email,
  timeZone: row.timeZone,
  leadId: row.leadId === null ? null : Number(row.leadId),
  erased: row.attendeeErasedAt !== null,
});

/** One page of meetings and how many match in all. */
export async function listMeetings(
  db: Db,
  filter: MeetingListFilter,
  now: number,
): Promise<{ meetings: StaffMeeting[]; total: number }> {
  const nowIso = new Date(now).toISOString();
  let query = meetingRows(db).where("meetings.startAt", filter.when === "upcoming" ? ">" : "<=", nowIso);
  let count = db
    .selectFrom("meetings")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("startAt", filter.when === "upcoming" ? ">" : "<=", nowIso);
  if (filter.hostId !== undefined) {
    query = query.where("meetings.hostId", "=", filter.hostId);
    count = count.where("hostId", "=", filter.hostId);
  }
  if (filter.status !== undefined) {
    query = query.where("meetings.status", "=", filter.status);
    count = count.where("status", "=", filter.status);
  }
  const direction = filter.when === "upcoming" ? "asc" : "desc";
  const [rows, total] = await Promise.all([
    query
      .orderBy("meetings.startAt", direction)
      .orderBy("meetings.id", direction)
      .limit(filter.pageSize)
      .offset((filter.page - 1) * filter.pageSize)
      .execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { meetings: rows.map(toStaffMeeting), total: Number(total.count) };
}

export async function findStaffMeeting(
  db: Db | Transaction<Database>,
  id: number,
): Promise<StaffMeeting | null> {
  const row = await meetingRows(db).where("meetings.id", "=", id).executeTakeFirst();
  return row ? toStaffMeeting(row) : null;
}

/**
 * The people the host filter offers: everyone who hosts meetings now (admin and sales accounts) and
 * anyone who hosted one before, by name.
 */
export async function meetingHosts(db: Db): Promise<{ id: number; username: string }[]> {
  const rows = await db
    .selectFrom("users")
    .select(["id", "username"])
    .where((eb) =>
      eb.or([
        eb.and([eb("role", "in", ["admin", "sales"]), eb("disabled", "=", 0)]),
        eb.exists(
          eb.selectFrom("meetings").select("meetings.id").whereRef("meetings.hostId", "=", "users.id"),
        ),
      ]),
    )
    .orderBy("username")
    .execute();
  return rows.map((row) => ({ id: Number(row.id), username: row.username }));
}

export type OutcomeChange = {
  meetingId: number;
  outcome: MeetingOutcome;
  /** Who recorded it. */
  actor: { id: number; username: string };
  occurredAt: number;
};
/** Called in the outcome's transaction (the lead's timeline), so both are stored or neither. */
export type MeetingOutcomeHook = (trx: Transaction<Database>, change: OutcomeChange) => Promise<unknown>;

export type OutcomeResult =
  | { kind: "recorded"; meeting: StaffMeeting; changed: boolean }
  | { kind: "not-found" }
  | { kind: "not-started"; meeting: StaffMeeting }
  | { kind: "cancelled"; meeting: StaffMeeting };

/**
 * Records that a meeting took place or the attendee did not come. Only once it has started, never
 * on a cancelled one; a held meeting may be corrected to a no-show and back. The same outcome again
 * changes nothing and records nothing.
 */
export async function recordOutcome(
  db: Db,
  change: OutcomeChange,
  onOutcome: MeetingOutcomeHook = async () => {},
): Promise<OutcomeResult> {
  return db.transaction().execute(async (trx) => {
    const at = new Date(change.occurredAt).toISOString();
    // One statement decides, so a cancellation racing this one either happened first (nothing
    // updated here) or waits for this to commit (and then finds no booked meeting to cancel).
    const updated = await trx
      .updateTable("meetings")
      .set({ status: change.outcome, updatedAt: at })
      .where("id", "=", change.meetingId)
      .where("status", "in", ["booked", "held", "no_show"])
      .where("status", "!=", change.outcome)
      .where("startAt", "<=", at)
      .executeTakeFirst();
    const meeting = await findStaffMeeting(trx, change.meetingId);
    if (!meeting) return { kind: "not-found" };
    if (Number(updated.numUpdatedRows) > 0) {
      await onOutcome(trx, change);
      return { kind: "recorded", meeting, changed: true };
    }
    if (meeting.status === "cancelled") return { kind: "cancelled", meeting };
    if (Date.parse(meeting.start) > change.occurredAt) return { kind: "not-started", meeting };
    return { kind: "recorded", meeting, changed: false };
  });
}
