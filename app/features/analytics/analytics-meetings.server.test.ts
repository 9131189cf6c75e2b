import type { Insertable } from "kysely";
import { beforeAll, beforeEach, expect, it } from "vitest";
import type { LeadAttributionsTable, MeetingsTable } from "#app/db/schema.ts";
import { createUser } from "#app/features/auth/users.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { leadRow } from "../../../tests/support/lead-rows.ts";
import { buildAnalyticsReport } from "./analytics-report.server.ts";

// Meetings in the analytics report (issue 34) on both databases, from leads of two channels and
// campaigns whose meetings were booked, cancelled, held or missed, some across the period's edges:
// the funnel's "booked a meeting" step, the meetings by channel and campaign, and the median time
// from the request to the booking, every figure counted by hand.

const NOW = new Date("2026-11-25T12:00:00.000Z");
const PERIOD = { from: "2026-11-01", to: "2026-11-10", rawDays: 30, now: NOW };

const EMAIL = { status: "linked", channel: "Email", utmCampaign: "launch" } as const;
const PAID = { status: "linked", channel: "Paid", utmCampaign: "spring" } as const;

type Status = MeetingsTable["status"];

describeEachDatabase("meetings in the analytics report", (use) => {
  const db = () => use().db;
  let hostId = 0;
  let typeId = 0;
  let made = 0;

  beforeAll(async () => {
    hostId = (
      await createUser(db(), {
        username: "report-host",
        password: "Report host passphrase 34",
        isAdmin: true,
      })
    ).id;
    const type = await db()
      .selectFrom("meetingTypes")
      .select("id")
      .where("slug", "=", "demo")
      .executeTakeFirstOrThrow();
    typeId = type.id;
  });

  async function addLead(
    at: string,
    attribution: Partial<Insertable<LeadAttributionsTable>> | null,
    lead: Parameters<typeof leadRow>[0] = {},
  ): Promise<number> {
    const createdAt = `${at}:00.000Z`;
    const { id } = await db()
      .insertInto("leads")
      .values(leadRow({ email: `lead-${at}@example.com`, createdAt, updatedAt: createdAt, ...lead }))
      .returning("id")
      .executeTakeFirstOrThrow();
    if (attribution)
      await db()
        .insertInto("leadAttributions")
        .values({
          leadId: Number(id),
          submittedAt: createdAt,
          status: "unknown",
          channel: "Unknown",
          ...attribution,
        })
        .execute();
    return Number(id);
  }

  /** A meeting booked at `at` (its created_at) for `leadId`, now in `status`; it starts a week later. */
  async function addMeeting(leadId: number | null, at: string, status: Status): Promise<void> {
    made += 1;
    const createdAt = `${at}:00.000Z`;
    const start = new Date(Date.parse(createdAt) + 7 * 86_400_000);
    await db()
      .insertInto("meetings")
      .values({
        typeId,
        hostId,
        leadId,
        status,
        startAt: start.toISOString(),
        endAt: new Date(start.getTime() + 30 * 60_000).toISOString(),
        uid: `report-${made}@clausebridge.test`,
        fullName: "Attendee",
        email: "attendee@example.com",
        company: "Acme Construction Ltd",
        timeZone: "Europe/London",
        source: "form",
        createdAt,
        updatedAt: createdAt,
        cancelledAt: status === "cancelled" ? createdAt : null,
      })
      .execute();
  }

  beforeEach(async () => {
    for (const table of ["meetingBlocks", "meetings", "leadAttributions", "leads"] as const)
      await db().deleteFrom(table).execute();
    // In the period: booked 4 minutes after the request, held.
    await addMeeting(await addLead("2026-11-02T09:00", EMAIL), "2026-11-02T09:04", "held");
    // 2 h 10 min after, the prospect did not come.
    await addMeeting(await addLead("2026-11-03T10:00", PAID), "2026-11-03T12:10", "no_show");
    // A first booking cancelled, then one 36 hours (1.5 days) after the request, still to come.
    const third = await addLead("2026-11-04T08:00", EMAIL);
    await addMeeting(third, "2026-11-04T08:30", "cancelled");
    await addMeeting(third, "2026-11-05T20:00", "booked");
    // Its only meeting cancelled: no meeting in the funnel, none in the tables.
    await addMeeting(await addLead("2026-11-05T09:00", PAID), "2026-11-05T09:10", "cancelled");
    // The period's last lead books after the period: a step of the funnel, not a meeting of the period.
    await addMeeting(await addLead("2026-11-10T23:00", EMAIL), "2026-11-11T01:00", "booked");
    // A lead of the day before the period books in it, 2.5 hours later: a meeting of the period only.
    await addMeeting(await addLead("2026-10-31T22:00", PAID), "2026-11-01T00:30", "held");
    // Before the period, lead and meeting: counted nowhere.
    await addMeeting(await addLead("2026-10-30T10:00", EMAIL), "2026-10-31T23:59", "held");
    // A lead without a meeting.
    await addLead("2026-11-06T09:00", EMAIL);
    // A lead held as spam with a meeting: counted nowhere.
    await addMeeting(
      await addLead("2026-11-06T10:00", PAID, { isSpam: 1, spamReason: "honeypot" }),
      "2026-11-06T10:05",
      "booked",
    );
    // A meeting whose lead was erased since (lead_id set null): Unknown, held, no time to measure.
    await addMeeting(null, "2026-11-07T15:00", "held");
  });

  it("counts the leads with a meeting, the meetings by channel and campaign, and the median wait", async () => {
    const report = await buildAnalyticsReport(db(), PERIOD);
    // Website leads of the period: 11-02, 11-03, 11-04, 11-05, 11-10, 11-06 (the spam one is not).
    // With a meeting not cancelled: 11-02 (held), 11-03 (no-show), 11-04 (booked), 11-10 (booked 11-11).
    expect(report.funnel).toEqual({
      visitors: 0,
      formPageVisitors: 0,
      leads: 6,
      bookedMeeting: 4,
      qualified: 0,
    });
    expect(report.meetings).toEqual({
      meetings: 5,
      held: 3,
      noShow: 1,
      byChannel: [
        { channel: "Email", meetings: 2, held: 1, noShow: 0 },
        { channel: "Paid", meetings: 2, held: 1, noShow: 1 },
        { channel: "Unknown", meetings: 1, held: 1, noShow: 0 },
      ],
      byCampaign: [
        { campaign: "launch", meetings: 2, held: 1, noShow: 0 },
        { campaign: "spring", meetings: 2, held: 1, noShow: 1 },
      ],
      // 4 min, 2 h 10 min, 2 h 30 min, 36 h: the two middle ones' mean, 2 h 20 min.
      requestToMeeting: { medianSeconds: 8400, meetings: 4 },
    });
  });

  it("takes the middle meeting of an odd count, and shows no median without meetings", async () => {
    // 2026-11-01 to 11-03: 2 h 30 min, 4 min, 2 h 10 min (and the erased lead's, not timed).
    const three = await buildAnalyticsReport(db(), { ...PERIOD, from: "2026-11-01", to: "2026-11-03" });
    expect(three.meetings.requestToMeeting).toEqual({ medianSeconds: 7800, meetings: 3 });
    expect(three.funnel).toMatchObject({ leads: 2, bookedMeeting: 2 });

    // The day after the period: the last lead's meeting, but not its lead.
    const after = await buildAnalyticsReport(db(), { ...PERIOD, from: "2026-11-11", to: "2026-11-11" });
    expect(after.funnel).toMatchObject({ leads: 0, bookedMeeting: 0 });
    expect(after.meetings).toMatchObject({ meetings: 1, held: 0, noShow: 0 });
    expect(after.meetings.requestToMeeting).toEqual({ medianSeconds: 7200, meetings: 1 });

    const none = await buildAnalyticsReport(db(), { ...PERIOD, from: "2026-11-20", to: "2026-11-21" });
    expect(none.meetings).toEqual({
      meetings: 0,
      held: 0,
      noShow: 0,
      byChannel: [],
      byCampaign: [],
      requestToMeeting: null,
    });
    expect(none.funnel.bookedMeeting).toBe(0);
  });

  it("counts a meeting marked held or no-show later, and drops one cancelled later", async () => {
    await db()
      .updateTable("meetings")
      .set({ status: "cancelled" })
      .where("createdAt", "=", "2026-11-02T09:04:00.000Z")
      .execute();
    await db()
      .updateTable("meetings")
      .set({ status: "held" })
      .where("createdAt", "=", "2026-11-05T20:00:00.000Z")
      .execute();
    const report = await buildAnalyticsReport(db(), PERIOD);
    expect(report.funnel.bookedMeeting).toBe(3);
    expect(report.meetings).toMatchObject({ meetings: 4, held: 3, noShow: 1 });
    expect(report.meetings.byChannel[0]).toEqual({ channel: "Paid", meetings: 2, held: 1, noShow: 1 });
    expect(report.meetings.byChannel[1]).toEqual({ channel: "Email", meetings: 1, held: 1, noShow: 0 });
    // 2 h 10 min, 2 h 30 min, 36 h.
    expect(report.meetings.requestToMeeting).toEqual({ medianSeconds: 9000, meetings: 3 });
  });
});
