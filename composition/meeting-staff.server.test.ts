import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { createLeadService, type LeadChangeHook } from "#app/features/leads/lead-service.server.ts";
import { leadTimeline, type TimelineEntry } from "#app/features/leads/lead-timeline.server.ts";
import {
  answerBooking,
  answerCancel,
  answerReschedule,
  leadBookingToken,
} from "#app/features/meetings/booking-http.server.ts";
import { listMeetings, recordOutcome } from "#app/features/meetings/meeting-staff.server.ts";
import type { MeetingServices } from "#app/features/meetings/meetings-context.server.ts";
import {
  startTestReceiver,
  type TestReceiver,
  verifyLikeAReceiver,
} from "#app/features/webhooks/testing/test-receiver.ts";
import { createWebhookSender } from "#app/features/webhooks/webhook-sender.server.ts";
import { createWebhook } from "#app/features/webhooks/webhook-service.server.ts";
import { queueWebhookEvent, WEBHOOK_DELIVERY } from "#app/features/webhooks/webhook-store.server.ts";
import { createOutboxProcessor, dispatchByKind } from "#app/lib/outbox/outbox-worker.server.ts";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";
import { createMeetingChangeHooks } from "./meeting-changes.server.ts";
import { createMeetingLeads } from "./meeting-leads.server.ts";

// Issue 34, the staff side: what a booking, a move, a cancellation and a recorded outcome leave on
// the lead (its timeline; the host as the owner of an unowned lead), the staff list of meetings, and
// the meeting.* webhooks, signed and delivered like the lead ones. The real booking calls, lead
// service and composition hooks, on both databases. Monday 7 December 2026, 08:00 London.

const SECRET = "test-secret-test-secret-test-secret";
const MONDAY_8AM = Date.parse("2026-12-07T08:00:00Z");
let clock = MONDAY_8AM;
const CONTACT = {
  fullName: "Amara Okafor",
  email: "amara@okafor-build.co.uk",
  company: "Okafor Build Ltd",
  phone: "+44 7700 900123",
};
const HEAD = () => ({
  headers: new Headers({ "content-type": "application/json" }),
  host: "www.clausebridge.test",
  protocol: "https:",
});
const bytes = (body: unknown) => async (limit: number) => {
  const encoded = new TextEncoder().encode(JSON.stringify(body));
  return encoded.length > limit ? null : encoded;
};
const loopbackOnly = (address: string) => address === "127.0.0.1";

describeEachDatabase("meetings for staff", (use) => {
  let services: MeetingServices;
  let onMeetingOutcome: ReturnType<typeof createMeetingChangeHooks>["onMeetingOutcome"];
  let receiver: TestReceiver;
  const users: Record<"ada1" | "bob" | "cyd", { id: number; username: string }> = {} as never;
  let address = 0;

  beforeAll(async () => {
    receiver = await startTestReceiver();
    const db = use().db;
    // Two sales hosts; cyd (marketing) hosts nothing but may own a lead.
    for (const [username, role] of [
      ["ada1", "sales"],
      ["bob", "sales"],
      ["cyd", "marketing"],
    ] as const) {
      const user = await createUser(db, { username, password: "a long enough passphrase", role });
      users[username] = { id: Number(user.id), username };
    }
    // Lead changes go to the webhooks as the composition root wires them.
    const onLeadChange: LeadChangeHook = (trx, change) =>
      queueWebhookEvent(trx, {
        type: change.type,
        lead: { id: change.leadId },
        occurredAt: change.occurredAt,
      });
    const hooks = createMeetingChangeHooks({ onLeadChange });
    onMeetingOutcome = hooks.onMeetingOutcome;
    const leads = createLeadService({
      db,
      secret: SECRET,
      rateLimiter: createRateLimiter(db, { limit: 0, windowMs: 600_000 }),
      notify: false,
      timeTrap: false,
    });
    services = {
      database: use(),
      slotQueries: createRateLimiter(db, { limit: 0, windowMs: 600_000 }),
      busyTimes: async () => [],
      now: () => clock,
      secret: SECRET,
      publicUrl: undefined,
      leads: createMeetingLeads(db, leads),
      onMeetingChange: hooks.onMeetingChange,
      meetingChanged: () => {},
    };
  });
  afterAll(async () => {
    await receiver.close();
  });
  beforeEach(async () => {
    clock = MONDAY_8AM;
    const { db } = use();
    await db.deleteFrom("webhookDeliveries").execute();
    await db.deleteFrom("webhooks").execute();
    await db.deleteFrom("outbox").execute();
    await db.deleteFrom("meetingBlocks").execute();
    await db.deleteFrom("meetings").execute();
    await db.deleteFrom("leads").execute();
    receiver.received.length = 0;
  });

  async function book(start: string, extra: Record<string, unknown> = {}) {
    const answer = await answerBooking(
      HEAD(),
      bytes({ type: "demo", start, ...CONTACT, email: `a${++address}@okafor-build.co.uk`, ...extra }),
      `198.51.100.${address % 250}`,
      services,
    );
    if (answer.status !== 201) throw new Error(`booking answered ${answer.status}`);
    const body = answer.body as { id: number; hostName: string; manageUrl: string };
    const row = await use()
      .db.selectFrom("meetings")
      .select(["leadId", "hostId"])
      .where("id", "=", body.id)
      .executeTakeFirstOrThrow();
    return {
      ...body,
      token: body.manageUrl.split("/").at(-1) ?? "",
      leadId: Number(row.leadId),
      hostId: row.hostId,
    };
  }

  async function timelineOf(leadId: number): Promise<TimelineEntry[]> {
    const lead = await use()
      .db.selectFrom("leads")
      .select(["id", "createdAt", "source", "sourcePage"])
      .where("id", "=", leadId)
      .executeTakeFirstOrThrow();
    return leadTimeline(use().db, { ...lead, id: Number(lead.id) });
  }
  const meetingEntries = async (leadId: number) =>
    (await timelineOf(leadId)).filter((entry) => entry.kind === "meeting");

  it("records a booking on the lead with its time, and gives an unowned lead the host as owner", async () => {
    const booked = await book("2026-12-07T10:00:00Z");
    const lead = await use()
      .db.selectFrom("leads")
      .select("ownerId")
      .where("id", "=", booked.leadId)
      .executeTakeFirstOrThrow();
    expect(lead.ownerId).toBe(booked.hostId);
    const timeline = await timelineOf(booked.leadId);
    // Newest first: the owner change came with the booking, after its entry.
    expect(timeline.map((entry) => entry.kind)).toEqual(["owner_changed", "meeting", "submitted"]);
    expect(timeline[0]).toMatchObject({ actor: null, from: null, to: booked.hostName, reason: "meeting" });
    expect(timeline[1]).toMatchObject({
      change: "booked",
      meetingId: booked.id,
      meetingType: "Product demo",
      start: "2026-12-07T10:00:00.000Z",
      end: "2026-12-07T10:30:00.000Z",
      host: booked.hostName,
      actor: null,
      previousStart: null,
    });
  });

  it("leaves a lead's owner alone: only a lead without one gets the host", async () => {
    const stored = await services.leads.submit({ requestType: "demo", ...CONTACT }, HEAD(), "203.0.113.9");
    if (stored.kind !== "stored") throw new Error(stored.kind);
    await use()
      .db.updateTable("leads")
      .set({ ownerId: users.cyd.id })
      .where("id", "=", stored.leadId)
      .execute();
    const booked = await book("2026-12-07T11:00:00Z", {
      leadToken: leadBookingToken(SECRET, stored.leadId, clock),
    });
    expect(booked.leadId).toBe(stored.leadId);
    const lead = await use()
      .db.selectFrom("leads")
      .select("ownerId")
      .where("id", "=", stored.leadId)
      .executeTakeFirstOrThrow();
    expect(lead.ownerId).toBe(users.cyd.id);
    expect((await timelineOf(stored.leadId)).map((entry) => entry.kind)).toEqual(["meeting", "submitted"]);
  });

  it("records a move with where it was, and a cancellation", async () => {
    const booked = await book("2026-12-08T14:00:00Z");
    clock += 60_000;
    expect(
      (await answerReschedule(booked.token, HEAD(), bytes({ start: "2026-12-08T15:00:00Z" }), services))
        .status,
    ).toBe(200);
    clock += 60_000;
    expect((await answerCancel(booked.token, HEAD(), services)).status).toBe(200);
    expect(await meetingEntries(booked.leadId)).toMatchObject([
      { change: "cancelled", start: "2026-12-08T15:00:00.000Z", actor: null },
      {
        change: "rescheduled",
        start: "2026-12-08T15:00:00.000Z",
        previousStart: "2026-12-08T14:00:00.000Z",
      },
      { change: "booked", start: "2026-12-08T14:00:00.000Z" },
    ]);
  });

  it("lists upcoming meetings soonest first and past ones latest first, per host and status, paged", async () => {
    const first = await book("2026-12-07T10:00:00Z");
    const second = await book("2026-12-07T11:00:00Z");
    const third = await book("2026-12-07T12:00:00Z");
    const cancelled = await book("2026-12-07T13:00:00Z");
    await answerCancel(cancelled.token, HEAD(), services);
    clock = Date.parse("2026-12-07T11:15:00Z");
    const list = async (filter: Partial<Parameters<typeof listMeetings>[1]>) =>
      listMeetings(use().db, { when: "upcoming", page: 1, pageSize: 50, ...filter }, clock);

    const upcoming = await list({});
    expect(upcoming.total).toBe(2);
    expect(upcoming.meetings.map((meeting) => meeting.id)).toEqual([third.id, cancelled.id]);
    expect(upcoming.meetings[0]).toEqual({
      id: third.id,
      type: "demo",
      typeName: "Product demo",
      start: "2026-12-07T12:00:00.000Z",
      end: "2026-12-07T12:30:00.000Z",
      status: "booked",
      hostId: third.hostId,
      hostName: third.hostName,
      fullName: CONTACT.fullName,
      company: CONTACT.company,
      email: expect.stringMatching(/@okafor-build\.co\.uk$/),
      timeZone: "Europe/London",
      leadId: third.leadId,
      erased: false,
    });
    // A meeting in progress (11:00–11:30) has started: it is past, where its outcome is recorded.
    expect((await list({ when: "past" })).meetings.map((meeting) => meeting.id)).toEqual([
      second.id,
      first.id,
    ]);
    expect((await list({ status: "cancelled" })).meetings.map((meeting) => meeting.id)).toEqual([
      cancelled.id,
    ]);
    expect((await list({ status: "held" })).total).toBe(0);
    const mine = await list({ when: "past", hostId: first.hostId });
    expect(mine.meetings.every((meeting) => meeting.hostId === first.hostId)).toBe(true);
    expect(mine.total).toBe([first, second].filter((meeting) => meeting.hostId === first.hostId).length);
    const pageTwo = await list({ when: "past", pageSize: 1, page: 2 });
    expect(pageTwo).toMatchObject({ total: 2, meetings: [{ id: first.id }] });
  });

  it("records an outcome only once a meeting has started, by a staff member, on the lead's timeline", async () => {
    const booked = await book("2026-12-07T10:00:00Z");
    const later = await book("2026-12-07T12:00:00Z");
    const outcome = (meetingId: number, value: "held" | "no_show") =>
      recordOutcome(
        use().db,
        { meetingId, outcome: value, actor: users.ada1, occurredAt: clock },
        onMeetingOutcome,
      );
    expect(await outcome(booked.id, "held")).toMatchObject({ kind: "not-started" });
    expect(await outcome(999_999, "held")).toEqual({ kind: "not-found" });

    clock = Date.parse("2026-12-07T10:05:00Z");
    expect(await outcome(booked.id, "held")).toMatchObject({
      kind: "recorded",
      changed: true,
      meeting: { id: booked.id, status: "held" },
    });
    // The same again changes and records nothing; a correction is recorded.
    expect(await outcome(booked.id, "held")).toMatchObject({ kind: "recorded", changed: false });
    clock += 60_000;
    expect(await outcome(booked.id, "no_show")).toMatchObject({ kind: "recorded", changed: true });
    expect(await meetingEntries(booked.leadId)).toMatchObject([
      { change: "no_show", actor: "ada1", start: "2026-12-07T10:00:00.000Z" },
      { change: "held", actor: "ada1", at: "2026-12-07T10:05:00.000Z" },
      { change: "booked", actor: null },
    ]);

    // A cancelled meeting has no outcome, however late.
    await answerCancel(later.token, HEAD(), services);
    clock = Date.parse("2026-12-07T13:00:00Z");
    expect(await outcome(later.id, "no_show")).toMatchObject({ kind: "cancelled" });
    const row = await use()
      .db.selectFrom("meetings")
      .select("status")
      .where("id", "=", later.id)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("cancelled");
  });

  it("sends meeting.booked, .rescheduled and .cancelled, signed like the lead events, without the attendee's details", async () => {
    const created = await createWebhook(
      use().db,
      {
        url: receiver.url,
        events: ["meeting.booked", "meeting.rescheduled", "meeting.cancelled", "lead.updated"],
      },
      "tester",
      { allowPrivate: loopbackOnly },
    );
    if (!created.ok) throw new Error(created.message);
    receiver.secret = created.webhook.secret;
    const booked = await book("2026-12-08T14:00:00Z");
    clock += 60_000;
    await answerReschedule(booked.token, HEAD(), bytes({ start: "2026-12-08T15:00:00Z" }), services);
    clock += 60_000;
    await answerCancel(booked.token, HEAD(), services);

    // Sent on the test's clock (the deliveries were queued at its times).
    const processor = createOutboxProcessor({
      db: use().db,
      dialect: use().dialect,
      ...dispatchByKind({
        [WEBHOOK_DELIVERY]: createWebhookSender({
          db: use().db,
          allowPrivate: loopbackOnly,
          timeoutMs: 2000,
          now: () => new Date(clock),
        }),
      }),
      logger: { error: () => {} },
      now: () => new Date(clock),
      random: () => 0.5,
    });
    while ((await processor.processNext()) === "sent");
    const bodies = receiver.received.map((delivery) => JSON.parse(delivery.body));
    expect(bodies.map((body) => body.event)).toEqual([
      "meeting.booked",
      // The host became the unowned lead's owner in the booking's transaction.
      "lead.updated",
      "meeting.rescheduled",
      "meeting.cancelled",
    ]);
    const meeting = {
      id: booked.id,
      type: "demo",
      typeName: "Product demo",
      end: expect.any(String),
      hostName: booked.hostName,
      leadId: booked.leadId,
    };
    expect(bodies[0].data).toEqual({
      meeting: { ...meeting, start: "2026-12-08T14:00:00.000Z", status: "booked" },
    });
    expect(bodies[2].data).toEqual({
      meeting: {
        ...meeting,
        start: "2026-12-08T15:00:00.000Z",
        previousStart: "2026-12-08T14:00:00.000Z",
        status: "booked",
      },
    });
    expect(bodies[3].data.meeting).toMatchObject({ status: "cancelled", start: "2026-12-08T15:00:00.000Z" });
    for (const delivery of receiver.received) {
      expect(delivery.headers["x-clausebridge-event"]).toBe(JSON.parse(delivery.body).event);
      expect(delivery.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
      expect(
        verifyLikeAReceiver(receiver.secret, delivery.headers, delivery.body, Math.floor(clock / 1000)),
      ).toBe(true);
      // The meeting events carry no more of the person than its lead's id.
      for (const text of [CONTACT.fullName, CONTACT.company, "okafor-build", CONTACT.phone])
        expect(delivery.body).not.toContain(text);
    }
  });
});
