import { beforeAll, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { findMeetingType, findSlots } from "./meeting-store.server.ts";
import {
  createMeetingType,
  listMeetingTypes,
  MEETING_TYPE_MESSAGES,
  updateMeetingType,
} from "./meeting-types-admin.server.ts";
import { answerSlotQuery, SLOT_QUERY_MESSAGES } from "./slot-query.server.ts";
import { meetingTypeFromForm } from "./ui/meeting-type-form.tsx";

// Issue 34: an admin's changes to the meeting types: names, lengths, hosts, how a host is chosen,
// whether prospects are offered it, and new types, each checked by the server and followed at once
// by the times offered.

const PASSWORD = "a long enough passphrase";
// Monday 7 December 2026, 06:00 London: the defaults offer 09:00 to 17:00.
const NOW = Date.parse("2026-12-07T06:00:00Z");
const DAY = { from: Date.parse("2026-12-07T00:00:00Z"), to: Date.parse("2026-12-08T00:00:00Z"), now: NOW };

describeEachDatabase("meeting types", (use) => {
  let ada = 0;
  let ben = 0;
  beforeAll(async () => {
    ada = (await createUser(use().db, { username: "types-ada", password: PASSWORD, role: "sales" })).id;
    ben = (await createUser(use().db, { username: "types-ben", password: PASSWORD, role: "admin" })).id;
    await createUser(use().db, { username: "types-mia", password: PASSWORD, role: "marketing" });
  });

  it("lists the two seeded types, hosted by everyone who hosts", async () => {
    expect(await listMeetingTypes(use().db)).toMatchObject([
      { slug: "demo", name: "Product demo", durationMinutes: 30, hostChoice: "owner_first", hosts: null },
      {
        slug: "investor",
        name: "Investor call",
        durationMinutes: 30,
        hostChoice: "round_robin",
        hosts: null,
      },
    ]);
  });

  it("changes a type's name, length and hosts, and the times offered follow", async () => {
    const investor = await findMeetingType(use().db, "investor");
    if (!investor) throw new Error("seeded");
    const changed = await updateMeetingType(use().db, investor.id, {
      name: "Investor meeting",
      durationMinutes: 60,
      hostIds: [ada],
    });
    expect(changed).toMatchObject({
      name: "Investor meeting",
      durationMinutes: 60,
      hostIds: [ada],
      hosts: [{ id: ada, username: "types-ada" }],
    });
    const type = await findMeetingType(use().db, "investor");
    if (!type) throw new Error("still there");
    const { slots, hostsAt } = await findSlots(use().db, type, DAY);
    // One hour each, 09:00 to 16:00 London, every one hosted by Ada alone.
    expect(slots[0]).toEqual({
      start: Date.parse("2026-12-07T09:00:00Z"),
      end: Date.parse("2026-12-07T10:00:00Z"),
    });
    expect(new Set([...hostsAt.values()].flat())).toEqual(new Set([ada]));
    // Back to everyone.
    expect(await updateMeetingType(use().db, investor.id, { hostIds: null })).toMatchObject({ hosts: null });
  });

  it("takes a type off offer: the API says so and offers no times", async () => {
    const investor = await findMeetingType(use().db, "investor");
    if (!investor) throw new Error("seeded");
    await updateMeetingType(use().db, investor.id, { active: false });
    const services = {
      database: use(),
      slotQueries: { hit: async () => ({ allowed: true, retryAfterSeconds: 0 }) },
      busyTimes: async () => [],
      now: () => NOW,
    };
    const answer = await answerSlotQuery(
      new URLSearchParams("type=investor"),
      "203.0.113.1",
      services as never,
    );
    expect(answer.status).toBe(404);
    await updateMeetingType(use().db, investor.id, { active: true });
    expect(
      (await answerSlotQuery(new URLSearchParams("type=investor"), "203.0.113.1", services as never)).status,
    ).toBe(200);
    expect(
      await answerSlotQuery(new URLSearchParams("type=lunch"), "203.0.113.1", services as never),
    ).toEqual({
      status: 400,
      body: { message: SLOT_QUERY_MESSAGES.type },
    });
  });

  it("adds a type that is bookable by its link name", async () => {
    const added = await createMeetingType(use().db, {
      slug: "site-visit",
      name: "Site visit",
      durationMinutes: 45,
      hostChoice: "round_robin",
      hostIds: [ben],
    });
    expect(added).toMatchObject({ slug: "site-visit", durationMinutes: 45, active: true, hostIds: [ben] });
    const type = await findMeetingType(use().db, "site-visit");
    if (!type) throw new Error("added");
    const { slots } = await findSlots(use().db, type, DAY);
    expect(slots[0]?.end).toBe(Date.parse("2026-12-07T09:45:00Z"));
    expect(
      await createMeetingType(use().db, {
        slug: "site-visit",
        name: "Again",
        durationMinutes: 30,
        hostChoice: "round_robin",
      }),
    ).toEqual({ kind: "invalid", errors: { slug: MEETING_TYPE_MESSAGES.slugTaken } });
  });

  it.each([
    [{ name: "" }, { name: MEETING_TYPE_MESSAGES.name }],
    [{ name: "Two\nlines" }, { name: MEETING_TYPE_MESSAGES.name }],
    [{ durationMinutes: 33 }, { durationMinutes: MEETING_TYPE_MESSAGES.duration }],
    [{ hostChoice: "random" }, { hostChoice: MEETING_TYPE_MESSAGES.hostChoice }],
    [{ hostIds: [999_999] }, { hostIds: MEETING_TYPE_MESSAGES.hosts }],
    [{}, { form: MEETING_TYPE_MESSAGES.empty }],
    // The link name is fixed once made: pages and links use it.
    [{ slug: "other" }, { slug: expect.any(String), form: MEETING_TYPE_MESSAGES.empty }],
  ])("refuses %j with the field's message and changes nothing", async (patch, errors) => {
    const before = await listMeetingTypes(use().db);
    const demo = before.find((type) => type.slug === "demo");
    if (!demo) throw new Error("seeded");
    expect(await updateMeetingType(use().db, demo.id, patch)).toEqual({ kind: "invalid", errors });
    expect(await listMeetingTypes(use().db)).toEqual(before);
  });

  it("refuses a marketing account as host, an odd link name, and an unknown id", async () => {
    const mia = await use()
      .db.selectFrom("users")
      .select("id")
      .where("username", "=", "types-mia")
      .executeTakeFirstOrThrow();
    expect(
      await createMeetingType(use().db, {
        slug: "x-1",
        name: "X",
        durationMinutes: 30,
        hostChoice: "round_robin",
        hostIds: [mia.id],
      }),
    ).toEqual({ kind: "invalid", errors: { hostIds: MEETING_TYPE_MESSAGES.hosts } });
    for (const slug of ["Site Visit", "-x", "a".repeat(41), "../demo"])
      expect(
        await createMeetingType(use().db, {
          slug,
          name: "X",
          durationMinutes: 30,
          hostChoice: "round_robin",
        }),
      ).toEqual({ kind: "invalid", errors: { slug: MEETING_TYPE_MESSAGES.slug } });
    expect(await updateMeetingType(use().db, 999_999, { name: "X" })).toEqual({ kind: "not-found" });
  });
});

it("reads the page's form as the API's body", () => {
  const form = new URLSearchParams([
    ["name", "Site visit"],
    ["durationMinutes", "45"],
    ["hostChoice", "round_robin"],
    ["hostMode", "some"],
    ["hostIds", "3"],
    ["hostIds", "5"],
    ["active", "on"],
    ["slug", " site-visit "],
  ]);
  expect(meetingTypeFromForm(form, true)).toEqual({
    name: "Site visit",
    durationMinutes: 45,
    hostChoice: "round_robin",
    hostIds: [3, 5],
    active: true,
    slug: "site-visit",
  });
  form.set("hostMode", "all");
  form.delete("active");
  expect(meetingTypeFromForm(form, false)).toEqual({
    name: "Site visit",
    durationMinutes: 45,
    hostChoice: "round_robin",
    hostIds: null,
    active: false,
  });
});
