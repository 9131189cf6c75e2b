import { beforeAll, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import type { Role } from "#app/lib/permissions.ts";
import type { StaffUser } from "#app/lib/staff-guard.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { loadAvailability, saveAvailability } from "./availability-admin.server.ts";
import { formErrorsOf, formValuesOf, profileFromForm } from "./availability-form.ts";
import { DEFAULT_BOOKING_PROFILE, PROFILE_MESSAGES } from "./booking-profile.ts";
import { findMeetingType, findSlots } from "./meeting-store.server.ts";

// Issue 34: a host's availability through the page's and the API's service: their own, or an
// admin's for anyone; the schema's messages for bad input, nothing stored; slots follow at once.

const PASSWORD = "a long enough passphrase";
// Monday 7 December 2026, 06:00 London.
const NOW = Date.parse("2026-12-07T06:00:00Z");

const MONDAY_ONLY = {
  ...DEFAULT_BOOKING_PROFILE,
  timeZone: "America/New_York",
  weeklyHours: {
    mon: [
      { start: "09:00", end: "10:00" },
      { start: "14:00", end: "15:00" },
    ],
    tue: [],
    wed: [],
    thu: [],
    fri: [],
    sat: [],
    sun: [],
  },
  daysOff: ["2026-12-14"],
  minimumNoticeMinutes: 0,
};

describeEachDatabase("availability", (use) => {
  const people: Record<"admin" | "sales" | "marketing" | "other", StaffUser> = {} as never;
  beforeAll(async () => {
    for (const [name, role] of [
      ["admin", "admin"],
      ["sales", "sales"],
      ["marketing", "marketing"],
      ["other", "sales"],
    ] as const) {
      const user = await createUser(use().db, { username: `avail-${name}`, password: PASSWORD, role });
      people[name] = { id: user.id, username: user.username, role: role as Role, isAdmin: role === "admin" };
    }
  });

  it("starts on the defaults, saves your own, and only your own unless you are an admin", async () => {
    const { sales, other, admin, marketing } = people;
    expect(await loadAvailability(use().db, sales, sales.id)).toMatchObject({
      userId: sales.id,
      isDefault: true,
      profile: DEFAULT_BOOKING_PROFILE,
      updatedAt: null,
    });
    const saved = await saveAvailability(use().db, sales, sales.id, MONDAY_ONLY, new Date(NOW));
    expect(saved).toMatchObject({ isDefault: false, profile: MONDAY_ONLY });
    expect(await loadAvailability(use().db, sales, sales.id)).toMatchObject({ profile: MONDAY_ONLY });

    // Another's: refused to a colleague, allowed to an admin; a marketing account hosts nothing.
    expect(await loadAvailability(use().db, sales, other.id)).toEqual({ kind: "forbidden" });
    expect(await saveAvailability(use().db, sales, other.id, MONDAY_ONLY)).toEqual({ kind: "forbidden" });
    expect(await loadAvailability(use().db, marketing, marketing.id)).toEqual({ kind: "forbidden" });
    expect(await loadAvailability(use().db, admin, sales.id)).toMatchObject({ profile: MONDAY_ONLY });
    expect(await saveAvailability(use().db, admin, other.id, MONDAY_ONLY)).toMatchObject({
      userId: other.id,
      isDefault: false,
    });
    expect(await loadAvailability(use().db, admin, marketing.id)).toEqual({ kind: "not-found" });
    expect(await loadAvailability(use().db, admin, 999_999)).toEqual({ kind: "not-found" });
  });

  it("offers exactly the saved hours in the host's zone, and none on a day off", async () => {
    const { admin, sales, other } = people;
    // The other hosts take no meetings this week, so the slots are the sales host's alone.
    const none = { ...MONDAY_ONLY, weeklyHours: { ...MONDAY_ONLY.weeklyHours, mon: [] } };
    const hosts = await use()
      .db.selectFrom("users")
      .select("id")
      .where("role", "in", ["admin", "sales"])
      .execute();
    for (const { id } of hosts) if (id !== sales.id) await saveAvailability(use().db, admin, id, none);
    await saveAvailability(use().db, sales, sales.id, MONDAY_ONLY);
    const type = await findMeetingType(use().db, "demo");
    if (!type) throw new Error("seeded");
    const week = await findSlots(use().db, type, { from: NOW, to: NOW + 14 * 86_400_000, now: NOW });
    // 09:00-10:00 and 14:00-15:00 New York (14:00-15:00 and 19:00-20:00 UTC), 30 minutes each,
    // on Monday 7 December only: the 14th is a day off.
    expect(week.slots.map((slot) => new Date(slot.start).toISOString())).toEqual([
      "2026-12-07T14:00:00.000Z",
      "2026-12-07T14:30:00.000Z",
      "2026-12-07T19:00:00.000Z",
      "2026-12-07T19:30:00.000Z",
    ]);
    expect(other.id).not.toBe(sales.id);
  });

  it("refuses bad hours with the schema's message and stores nothing", async () => {
    const { other, admin } = people;
    const before = await loadAvailability(use().db, admin, other.id);
    const backwards = {
      ...MONDAY_ONLY,
      weeklyHours: { ...MONDAY_ONLY.weeklyHours, tue: [{ start: "17:00", end: "09:00" }] },
    };
    expect(await saveAvailability(use().db, admin, other.id, backwards)).toEqual({
      kind: "invalid",
      errors: { "weeklyHours.tue.0.end": PROFILE_MESSAGES.range },
    });
    expect(
      await saveAvailability(use().db, admin, other.id, { ...MONDAY_ONLY, timeZone: "Mars/Olympus" }),
    ).toEqual({
      kind: "invalid",
      errors: { timeZone: PROFILE_MESSAGES.timeZone },
    });
    expect(await loadAvailability(use().db, admin, other.id)).toEqual(before);
  });
});

it("reads the page's form as the profile and names its errors by field", () => {
  const values = formValuesOf(MONDAY_ONLY);
  expect(values).toMatchObject({
    "mon.on": "on",
    "mon.0.start": "09:00",
    "mon.1.end": "15:00",
    daysOff: "2026-12-14",
    timeZone: "America/New_York",
  });
  expect(values["tue.on"]).toBeUndefined();
  expect(profileFromForm(new URLSearchParams(values))).toEqual({
    ...MONDAY_ONLY,
    weeklyHours: MONDAY_ONLY.weeklyHours,
  });
  // A day ticked with no hours is an error on its first period; an empty second period is none.
  const form = new URLSearchParams({ ...values, "tue.on": "on", "mon.1.start": "", "mon.1.end": "" });
  const profile = profileFromForm(form) as typeof MONDAY_ONLY;
  expect(profile.weeklyHours.mon).toEqual([{ start: "09:00", end: "10:00" }]);
  expect(profile.weeklyHours.tue).toEqual([{ start: "", end: "" }]);
  expect(formErrorsOf({ "weeklyHours.tue.0.start": "x", "weeklyHours.wed": "y", "daysOff.2": "z" })).toEqual({
    "tue.0.start": "x",
    "wed.0.end": "y",
    daysOff: "z",
  });
});
