import { afterAll, beforeAll, expect, it } from "vitest";
import type { AppDatabase } from "#app/db/database.server.ts";
import { createUser } from "#app/features/auth/users.server.ts";
import { saveAvailability } from "#app/features/meetings/availability-admin.server.ts";
import { answerBooking, answerCancel, answerReschedule } from "#app/features/meetings/booking-http.server.ts";
import { DEFAULT_BOOKING_PROFILE } from "#app/features/meetings/booking-profile.ts";
import {
  createMeetingEmailSender,
  MEETING_EMAIL,
  type MeetingEmailPayload,
} from "#app/features/meetings/meeting-email.server.ts";
import { queueDueReminders } from "#app/features/meetings/meeting-reminders.server.ts";
import type { MeetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { createMailTransport } from "#app/lib/mailer.server.ts";
import { createOutboxProcessor, dispatchByKind } from "#app/lib/outbox/outbox-worker.server.ts";
import { mimePart, startTestSmtp, type TestSmtp } from "#app/lib/testing/test-smtp.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";
import { testMeetingServices } from "./testing/meeting-services.ts";

// Issue 34: reminders 24 hours and one hour before a booked meeting, queued by the sweep (which
// server instances run every minute) and sent through the outbox to a real SMTP server on loopback.
// A fixed clock: Monday 7 December 2026, London on GMT; the defaults offer 09:00-17:00 London.

const SECRET = "test-secret-test-secret-test-secret";
const SITE = "https://www.clausebridge.test";
let clock = Date.parse("2026-12-07T08:00:00Z");
const at = (iso: string) => {
  clock = Date.parse(iso);
};
const HEAD = {
  headers: new Headers({ "content-type": "application/json" }),
  host: "www.clausebridge.test",
  protocol: "https:",
};
const bytes = (body: unknown) => async (limit: number) => {
  const encoded = new TextEncoder().encode(JSON.stringify(body));
  return encoded.length > limit ? null : encoded;
};

/** Sets up a host with an e-mail address (and an admin), and the helpers the tests share. */
function remindersWorld(use: () => AppDatabase) {
  let smtp: TestSmtp;
  let services: MeetingServices;
  let address = 0;
  const world = {
    services: () => services,
    smtp: () => smtp,
    async setUp() {
      smtp = await startTestSmtp();
      const host = await createUser(use().db, {
        username: "ada",
        password: "a long enough passphrase",
        role: "sales",
      });
      await use()
        .db.updateTable("users")
        .set({ email: "ada@clausebridge.test" })
        .where("id", "=", host.id)
        .execute();
      const admin = await createUser(use().db, {
        username: "root",
        password: "a long enough passphrase",
        isAdmin: true,
      });
      // Only ada hosts; she takes bookings at 5 minutes' notice (so one can come within the hour).
      await saveAvailability(
        use().db,
        { id: admin.id, username: "root", role: "admin", isAdmin: true },
        admin.id,
        {
          ...DEFAULT_BOOKING_PROFILE,
          weeklyHours: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
        },
      );
      await saveAvailability(
        use().db,
        { id: admin.id, username: "root", role: "admin", isAdmin: true },
        host.id,
        { ...DEFAULT_BOOKING_PROFILE, minimumNoticeMinutes: 5 },
      );
      // No PUBLIC_URL: the links' origin comes from the booking request; the sweep finds it on the meeting.
      services = testMeetingServices(use(), { secret: SECRET, now: () => clock });
    },
    /** Books `start` as a prospect in New York with `email`: the meeting's id and its manage token. */
    async book(start: string, email: string, company = "Okafor Build Ltd") {
      const answer = await answerBooking(
        HEAD,
        bytes({
          type: "demo",
          start,
          timeZone: "America/New_York",
          fullName: "Amara Okafor",
          email,
          company,
          phone: "+44 7700 900123",
        }),
        `198.51.100.${++address}`,
        services,
      );
      expect(answer.status).toBe(201);
      const body = answer.body as { id: number; manageUrl: string };
      return { id: body.id, token: body.manageUrl.split("/").at(-1) ?? "" };
    },
    /** The sweep at `iso`: how many e-mails it queued. */
    sweep(iso: string) {
      at(iso);
      return queueDueReminders(use().db, { now: clock, publicUrl: undefined });
    },
    /** The reminders queued for a meeting, in order: "day:attendee", "hour:host", … */
    async remindersOf(meetingId: number): Promise<string[]> {
      const rows = await use()
        .db.selectFrom("outbox")
        .select("payload")
        .where("kind", "=", MEETING_EMAIL)
        .orderBy("id")
        .execute();
      return rows
        .map((row) => JSON.parse(row.payload) as MeetingEmailPayload)
        .filter((payload) => payload.meetingId === meetingId && payload.event === "reminder")
        .map((payload) => `${payload.reminder}:${payload.recipient}@${payload.start}`);
    },
    /** Sends what the outbox holds, as the worker does; the mails received. */
    async deliver() {
      const from = smtp.received.length;
      const transport = createMailTransport(smtp.url);
      const processor = createOutboxProcessor({
        db: use().db,
        dialect: use().dialect,
        now: () => new Date(clock),
        logger: { error: (message) => console.error(message) },
        ...dispatchByKind({
          [MEETING_EMAIL]: createMeetingEmailSender({
            db: use().db,
            transport,
            settings: { from: "Clausebridge <meetings@clausebridge.test>", secret: SECRET },
            now: () => clock,
          }),
        }),
      });
      while ((await processor.processNext()) !== "idle");
      transport.close();
      return smtp.received.slice(from);
    },
  };
  return world;
}

describeEachDatabase("meeting reminders", (use) => {
  const world = remindersWorld(use);
  beforeAll(() => world.setUp());
  afterAll(() => world.smtp().close());

  it("e-mails the prospect and the host 24 hours and one hour before, each once, in each reader's zone", async () => {
    at("2026-12-07T08:00:00Z");
    const meeting = await world.book(
      "2026-12-08T10:00:00Z",
      "amara@okafor-build.co.uk",
      "Okafor & Sons <Build>",
    );
    // The booking's own e-mails first.
    expect((await world.deliver()).map((mail) => mail.subject)).toHaveLength(2);

    expect(await world.sweep("2026-12-07T09:59:00Z")).toBe(0);
    expect(await world.sweep("2026-12-07T10:00:00Z")).toBe(2);
    expect(await world.sweep("2026-12-07T10:01:00Z")).toBe(0);
    const day = await world.deliver();
    expect(day.map((mail) => [mail.to, mail.subject])).toEqual([
      [["amara@okafor-build.co.uk"], "Reminder: your product demo tomorrow at 05:00 EST"],
      [
        ["ada@clausebridge.test"],
        "Reminder: Product demo with Amara Okafor (Okafor & Sons <Build>) tomorrow at 10:00 GMT",
      ],
    ]);
    const [toProspect, toHost] = day;
    expect(toProspect?.text).toContain(
      "Reminder: your product demo with ada is tomorrow at 05:00 EST (Tuesday 8 December, 05:00 EST). It lasts 30 minutes.",
    );
    expect(toProspect?.text).toMatch(
      /To reschedule or cancel: https:\/\/www\.clausebridge\.test\/meetings\/manage\/[\w.-]+\n/,
    );
    // No invitation on a reminder; the HTML part escapes what the prospect typed.
    expect(mimePart(toProspect?.raw ?? "", "text/calendar")).toBeNull();
    const html = mimePart(toHost?.raw ?? "", "text/html")?.content ?? "";
    expect(html.replace(/=\r\n/g, "").replace(/=3D/g, "=")).toContain("Okafor &#38; Sons &#60;Build&#62;");
    expect(toHost?.text).toContain(`The lead: ${SITE}/admin/leads/`);

    expect(await world.sweep("2026-12-08T08:59:00Z")).toBe(0);
    expect(await world.sweep("2026-12-08T09:00:00Z")).toBe(2);
    expect(await world.sweep("2026-12-08T09:30:00Z")).toBe(0);
    expect((await world.deliver()).map((mail) => mail.subject)).toEqual([
      "Reminder: your product demo in one hour, at 05:00 EST",
      "Reminder: Product demo with Amara Okafor (Okafor & Sons <Build>) in one hour, at 10:00 GMT",
    ]);
    expect(await world.sweep("2026-12-08T10:01:00Z")).toBe(0);
    expect(await world.remindersOf(meeting.id)).toEqual([
      "day:attendee@2026-12-08T10:00:00.000Z",
      "day:host@2026-12-08T10:00:00.000Z",
      "hour:attendee@2026-12-08T10:00:00.000Z",
      "hour:host@2026-12-08T10:00:00.000Z",
    ]);
  });

  it("sends only the one-hour reminder for a meeting booked less than a day ahead, none within the hour", async () => {
    at("2026-12-09T09:00:00Z");
    const soon = await world.book("2026-12-09T14:00:00Z", "soon@example.com");
    const sooner = await world.book("2026-12-09T09:30:00Z", "sooner@example.com");
    for (const moment of ["2026-12-09T09:01:00Z", "2026-12-09T09:29:00Z", "2026-12-09T12:59:00Z"])
      await world.sweep(moment);
    expect(await world.remindersOf(soon.id)).toEqual([]);
    await world.sweep("2026-12-09T13:00:00Z");
    expect(await world.remindersOf(soon.id)).toEqual([
      "hour:attendee@2026-12-09T14:00:00.000Z",
      "hour:host@2026-12-09T14:00:00.000Z",
    ]);
    expect(await world.remindersOf(sooner.id)).toEqual([]);
  });

  it("sends nothing for a cancelled meeting, and reminds of a moved meeting's new time only", async () => {
    at("2026-12-14T08:00:00Z");
    const cancelled = await world.book("2026-12-15T11:00:00Z", "gone@example.com");
    const moved = await world.book("2026-12-15T12:00:00Z", "moved@example.com");
    await world.deliver();
    at("2026-12-14T09:00:00Z");
    expect(await answerCancel(cancelled.token, HEAD, world.services())).toMatchObject({ status: 200 });
    expect((await world.deliver()).map((mail) => mail.subject.split(":")[0])).toEqual([
      "Cancelled",
      "Cancelled",
    ]);

    // The day reminder of 12:00 tomorrow is queued, then the meeting moves before it goes out.
    expect(await world.sweep("2026-12-14T12:00:00Z")).toBe(2);
    at("2026-12-14T12:00:30Z");
    expect(
      await answerReschedule(moved.token, HEAD, bytes({ start: "2026-12-16T12:00:00Z" }), world.services()),
    ).toMatchObject({ status: 200 });
    expect((await world.deliver()).map((mail) => mail.subject)).toEqual([
      "Updated: Product demo with Clausebridge, Wednesday 16 December, 07:00 EST",
      "Moved: Product demo with Amara Okafor (Okafor Build Ltd), Wednesday 16 December, 12:00 GMT",
    ]);
    // Nothing at the old time's hour; the new time's reminders at theirs.
    expect(await world.sweep("2026-12-15T11:00:00Z")).toBe(0);
    expect(await world.sweep("2026-12-15T12:00:00Z")).toBe(2);
    expect((await world.deliver()).map((mail) => mail.subject)).toEqual([
      "Reminder: your product demo tomorrow at 07:00 EST",
      "Reminder: Product demo with Amara Okafor (Okafor Build Ltd) tomorrow at 12:00 GMT",
    ]);
    expect(await world.sweep("2026-12-16T11:00:00Z")).toBe(2);
    expect(await world.remindersOf(cancelled.id)).toEqual([]);
    expect(await world.remindersOf(moved.id)).toEqual([
      "day:attendee@2026-12-15T12:00:00.000Z",
      "day:host@2026-12-15T12:00:00.000Z",
      "day:attendee@2026-12-16T12:00:00.000Z",
      "day:host@2026-12-16T12:00:00.000Z",
      "hour:attendee@2026-12-16T12:00:00.000Z",
      "hour:host@2026-12-16T12:00:00.000Z",
    ]);
    // Moved to within the day: the new time gets the one-hour reminder alone.
    at("2026-12-16T11:10:00Z");
    expect(
      await answerReschedule(moved.token, HEAD, bytes({ start: "2026-12-16T15:00:00Z" }), world.services()),
    ).toMatchObject({ status: 200 });
    expect(await world.sweep("2026-12-16T11:11:00Z")).toBe(0);
    expect(await world.sweep("2026-12-16T14:00:00Z")).toBe(2);
  });
});

describeEachDatabase("meeting reminders with several instances", (use) => {
  const world = remindersWorld(use);
  beforeAll(() => world.setUp());
  afterAll(() => world.smtp().close());

  it("queues each reminder once when sweeps race, and sends each once", async () => {
    at("2026-12-07T08:00:00Z");
    const meetings = [];
    for (const [index, start] of ["10:00", "10:30", "11:00", "11:30"].entries())
      meetings.push(await world.book(`2026-12-08T${start}:00Z`, `race${index}@example.com`));
    await world.deliver();
    at("2026-12-07T11:30:00Z");
    // Four instances sweeping at the same moment (on PostgreSQL over separate pooled connections).
    const queued = await Promise.all(
      Array.from({ length: 4 }, () => queueDueReminders(use().db, { now: clock, publicUrl: undefined })),
    );
    expect(queued.reduce((sum, count) => sum + count, 0)).toBe(8);
    for (const meeting of meetings)
      expect((await world.remindersOf(meeting.id)).map((entry) => entry.split("@")[0])).toEqual([
        "day:attendee",
        "day:host",
      ]);
    const mails = await world.deliver();
    expect(mails).toHaveLength(8);
    expect(new Set(mails.map((mail) => `${mail.to.join()} ${mail.subject}`)).size).toBe(8);
    expect(mails.filter((mail) => mail.to.includes("race0@example.com")).map((mail) => mail.subject)).toEqual(
      ["Reminder: your product demo tomorrow at 05:00 EST"],
    );
  });
});
