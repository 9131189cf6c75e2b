import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { firstErrorPerField } from "#app/lib/field-errors.ts";
import { can, type Role } from "#app/lib/permissions.ts";
import type { StaffUser } from "#app/lib/staff-guard.server.ts";
import { type BookingProfile, bookingProfileSchema, DEFAULT_BOOKING_PROFILE } from "./booking-profile.ts";
import { PROFILE_COLUMNS, profileFromRow } from "./meeting-store.server.ts";

// Issue 34: each admin and sales account's availability, read and changed by its owner, or by an
// admin for anyone (the Availability page and GET/PUT /api/admin/availability share this). Changing
// hours never moves a meeting already booked: it only changes which times are offered from now on.

type Db = Kysely<Database>;

/** Roles that host meetings and so have an availability. */
const HOST_ROLES: readonly Role[] = ["admin", "sales"];

export type Availability = {
  userId: number;
  username: string;
  /** True while the account has no profile of its own (the defaults apply). */
  isDefault: boolean;
  profile: BookingProfile;
  updatedAt: string | null;
};

export type AvailabilityFailure =
  | { kind: "not-found" }
  | { kind: "forbidden" }
  | { kind: "invalid"; errors: Record<string, string> };

/** May `actor` see and change `userId`'s availability? Their own when they host; anyone's for an admin. */
export function mayManageAvailability(actor: StaffUser, userId: number): boolean {
  if (can(actor.role, "meetings.manage")) return true;
  return actor.id === userId && can(actor.role, "meetings.availability");
}

/**
 * The host `userId` when `actor` may manage their calendar and feed (the availability rule): their
 * own, or anyone's for an admin; not-found for an account that hosts no meetings.
 */
export async function manageableHost(
  db: Db,
  actor: StaffUser,
  userId: number,
): Promise<{ id: number; username: string } | { kind: "not-found" | "forbidden" }> {
  if (!mayManageAvailability(actor, userId)) return { kind: "forbidden" };
  const row = await db
    .selectFrom("users")
    .select(["id", "username", "role"])
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!row || !HOST_ROLES.includes(row.role as Role)) return { kind: "not-found" };
  return { id: row.id, username: row.username };
}

/** The accounts that host meetings, for an admin's choice of whose availability to open. */
export async function listHostAccounts(db: Db): Promise<{ id: number; username: string }[]> {
  return db
    .selectFrom("users")
    .select(["id", "username"])
    .where("role", "in", [...HOST_ROLES])
    .where("disabled", "=", 0)
    .orderBy("username")
    .execute();
}

export async function loadAvailability(
  db: Db,
  actor: StaffUser,
  userId: number,
): Promise<Availability | AvailabilityFailure> {
  if (!mayManageAvailability(actor, userId)) return { kind: "forbidden" };
  const row = await db
    .selectFrom("users")
    .leftJoin("bookingProfiles", "bookingProfiles.userId", "users.id")
    .select(["users.id", "users.username", "users.role", ...PROFILE_COLUMNS, "bookingProfiles.updatedAt"])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  if (!row || !HOST_ROLES.includes(row.role as Role)) return { kind: "not-found" };
  return {
    userId: row.id,
    username: row.username,
    isDefault: row.timeZone === null,
    profile: row.timeZone === null ? DEFAULT_BOOKING_PROFILE : profileFromRow(row),
    updatedAt: row.updatedAt,
  };
}

/** Validates and stores `input` as `userId`'s availability; answers the stored one. */
export async function saveAvailability(
  db: Db,
  actor: StaffUser,
  userId: number,
  input: unknown,
  now = new Date(),
): Promise<Availability | AvailabilityFailure> {
  const current = await loadAvailability(db, actor, userId);
  if ("kind" in current) return current;
  const parsed = bookingProfileSchema.safeParse(input);
  if (!parsed.success)
    // Keyed by the whole path ("weeklyHours.mon.0.end"): the page marks the one time that is wrong.
    return {
      kind: "invalid",
      errors: firstErrorPerField(parsed.error, { key: (issue) => issue.path.join(".") || "form" }),
    };
  const profile = parsed.data;
  const values = {
    timeZone: profile.timeZone,
    weeklyHours: JSON.stringify(profile.weeklyHours),
    daysOff: JSON.stringify(profile.daysOff),
    bufferBeforeMinutes: profile.bufferBeforeMinutes,
    bufferAfterMinutes: profile.bufferAfterMinutes,
    minimumNoticeMinutes: profile.minimumNoticeMinutes,
    horizonDays: profile.horizonDays,
    maxPerDay: profile.maxPerDay,
    updatedAt: now.toISOString(),
    updatedBy: actor.id,
  };
  await db
    .insertInto("bookingProfiles")
    .values({ userId, ...values })
    .onConflict((conflict) => conflict.column("userId").doUpdateSet(values))
    .execute();
  return { ...current, isDefault: false, profile, updatedAt: values.updatedAt };
}
