import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrate.server.ts";
import { createUser } from "#app/features/auth/users.server.ts";
import {
  checkPostgres,
  createPostgresSchema,
  describeEachDatabase,
  TEST_POSTGRES_URL,
} from "../../../tests/support/databases.ts";
import {
  type Attendee,
  bookMeeting,
  cancelMeeting,
  findMeetingType,
  findSlots,
  type MeetingType,
} from "./meeting-store.server.ts";

// Monday 7 December 2026, 08:00 London: the defaults offer 10:00 (two hours' notice) to 16:30.
const NOW = Date.parse("2026-12-07T08:00:00Z");
const TEN = Date.parse("2026-12-07T10:00:00Z");
const ATTENDEE: Attendee = {
  fullName: "Priya Raman",
  email: "priya@example.com",
  company: "Raman Builders",
  phone: null,
  timeZone: "America/New_York",
};
const PASSWORD = "a long enough passphrase";

async function addHosts(
  database: AppDatabase,
  names: string[],
  role: "admin" | "sales" | "marketing" = "sales",
) {
  const ids: number[] = [];
  for (const username of names)
    ids.push((await createUser(database.db, { username, password: PASSWORD, role })).id);
  return ids;
}

async function demo(database: AppDatabase): Promise<MeetingType> {
  const type = await findMeetingType(database.db, "demo");
  if (!type) throw new Error("the migration seeds the demo type");
  return type;
}

const book = (
  database: AppDatabase,
  type: MeetingType,
  start: number,
  extra: Partial<Parameters<typeof bookMeeting>[1]> = {},
) =>
  bookMeeting(database.db, {
    type,
    start,
    attendee: ATTENDEE,
    leadId: null,
    ownerId: null,
    source: "api",
    now: NOW,
    ...extra,
  });

describeEachDatabase("meetings", (use) => {
  let hosts: number[] = [];
  beforeAll(async () => {
    hosts = await addHosts(use(), ["ada", "ben"]);
    await addHosts(use(), ["mia"], "marketing");
  });

  it("seeds Product demo and Investor call, 30 minutes each, hosted by every admin and sales account", async () => {
    const type = await demo(use());
    expect(type).toMatchObject({ name: "Product demo", durationMinutes: 30, hostIds: null, active: true });
    expect(await findMeetingType(use().db, "investor")).toMatchObject({
      name: "Investor call",
      durationMinutes: 30,
    });
    const { slots, hostsAt } = await findSlots(use().db, type, { from: NOW, to: NOW + 86_400_000, now: NOW });
    expect(slots[0]?.start).toBe(TEN);
    expect(slots).toHaveLength(14);
    // Marketing hosts nothing.
    expect(hostsAt.get(TEN)).toEqual(hosts);
  });

  it("books each host once at a time, round robin, then answers taken; cancelling frees the time", async () => {
    const type = await demo(use());
    const first = await book(use(), type, TEN);
    const second = await book(use(), type, TEN);
    const third = await book(use(), type, TEN);
    expect(first.kind === "booked" && first.meeting.host.id).toBe(hosts[0]);
    expect(second.kind === "booked" && second.meeting.host.id).toBe(hosts[1]);
    expect(third).toEqual({ kind: "taken" });
    const { slots } = await findSlots(use().db, type, { from: NOW, to: NOW + 86_400_000, now: NOW });
    expect(slots.map((slot) => slot.start)).not.toContain(TEN);
    if (first.kind !== "booked") throw new Error("booked above");
    expect(await cancelMeeting(use().db, first.meeting.id, NOW)).toBe(true);
    expect(await cancelMeeting(use().db, first.meeting.id, NOW)).toBe(false);
    const again = await book(use(), type, TEN);
    expect(again.kind === "booked" && again.meeting.host.id).toBe(hosts[0]);
  });

  it("gives an owner-first type to the lead's owner when free, and spreads the rest evenly", async () => {
    const type = await demo(use());
    const eleven = Date.parse("2026-12-07T11:00:00Z");
    const owned = await book(use(), type, eleven, { ownerId: hosts[1] ?? null });
    expect(owned.kind === "booked" && owned.meeting.host.id).toBe(hosts[1]);
    // ada has fewer demos this month now (1 against 2): she takes the next one.
    const next = await book(use(), type, Date.parse("2026-12-07T12:00:00Z"));
    expect(next.kind === "booked" && next.meeting.host.id).toBe(hosts[0]);
  });

  it("refuses a time outside the hours, in the past or inside the notice", async () => {
    const type = await demo(use());
    for (const start of [
      Date.parse("2026-12-07T17:00:00Z"), // after 17:00
      Date.parse("2026-12-07T09:00:00Z"), // inside two hours' notice
      Date.parse("2026-12-06T10:00:00Z"), // yesterday, a Sunday
      Date.parse("2026-12-08T10:07:00Z"), // not an offered start
    ])
      expect(await book(use(), type, start)).toEqual({ kind: "taken" });
  });
});

/** Two connection pools on one database: two instances of the app. */
async function twoInstances(kind: "sqlite" | "postgres") {
  if (kind === "postgres") {
    const schema = await createPostgresSchema();
    const open = () => openDatabase(TEST_POSTGRES_URL, { postgresSchema: schema.schema, poolSize: 8 });
    const first = open();
    await migrateToLatest(first.db);
    const second = open();
    return {
      instances: [first, second],
      dispose: async () => (await Promise.all([first.close(), second.close()]), await schema.drop()),
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "meetings-race-"));
  const only = openDatabase(join(dir, "app.sqlite"));
  await migrateToLatest(only.db);
  return {
    instances: [only],
    dispose: async () => (await only.close(), rmSync(dir, { recursive: true, force: true })),
  };
}

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`200 bookings of one time at once [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    let setup: Awaited<ReturnType<typeof twoInstances>> | undefined;
    beforeAll(async () => {
      if (available) setup = await twoInstances(kind);
    });
    afterAll(async () => setup?.dispose());

    it.skipIf(!available)(
      "give exactly one meeting per free host; the rest are told the time was taken",
      { timeout: 60_000 },
      async () => {
        const instances = setup?.instances ?? [];
        const first = instances[0];
        if (!first) throw new Error("set up above");
        const hosts = await addHosts(first, ["ada", "ben", "cyd"]);
        const type = await demo(first);
        const outcomes = await Promise.all(
          Array.from({ length: 200 }, (_, i) => {
            const database = instances[i % instances.length] ?? first;
            return book(database, type, TEN, { attendee: { ...ATTENDEE, email: `p${i}@example.com` } });
          }),
        );
        const booked = outcomes.flatMap((outcome) =>
          outcome.kind === "booked" ? [outcome.meeting.host.id] : [],
        );
        expect(booked.sort()).toEqual([...hosts].sort());
        expect(outcomes.filter((outcome) => outcome.kind === "taken")).toHaveLength(197);
        const stored = await first.db
          .selectFrom("meetings")
          .select(["hostId", "startAt"])
          .where("status", "=", "booked")
          .execute();
        expect(stored.map((row) => row.hostId).sort()).toEqual([...hosts].sort());
        expect(new Set(stored.map((row) => row.startAt))).toEqual(new Set([new Date(TEN).toISOString()]));
      },
    );
  });
}
