import ICAL from "ical.js";
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import {
  answerBooking,
  answerCancel,
  answerReschedule,
  BOOKING_MESSAGES,
  leadBookingToken,
} from "#app/features/meetings/booking-http.server.ts";
import { createMeetingEmailSender, MEETING_EMAIL } from "#app/features/meetings/meeting-email.server.ts";
import type { MeetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { createMailTransport } from "#app/lib/mailer.server.ts";
import { createOutboxProcessor, dispatchByKind } from "#app/lib/outbox/outbox-worker.server.ts";
import { mimePart, startTestSmtp, type TestSmtp } from "#app/lib/testing/test-smtp.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";
import { parseWithPythonIcalendar } from "../tests/support/python-icalendar.ts";
import { testMeetingServices } from "./testing/meeting-services.ts";

// Issue 34: POST /api/meetings and the manage link's calls, with the real lead service behind them.
// Monday 7 December 2026, 08:00 London: the defaults offer 10:00 to 16:30 that day.

const SECRET = "test-secret-test-secret-test-secret";
let clock = Date.parse("2026-12-07T08:00:00Z");
const CONTACT = {
  fullName: "Amara Okafor",
  email: "amara@okafor-build.co.uk",
  company: "Okafor Build Ltd",
  phone: "+44 7700 900123",
};
const HEAD = (contentType = "application/json") => ({
  headers: new Headers({ "content-type": contentType }),
  host: "www.clausebridge.test",
  protocol: "https:",
});
const bytes = (body: unknown) => async (limit: number) => {
  const encoded = new TextEncoder().encode(typeof body === "string" ? body : JSON.stringify(body));
  return encoded.length > limit ? null : encoded;
};

/** The meetings' services over `database` with the real lead service (no rate limit, no time trap). */
describeEachDatabase("booking a meeting", (use) => {
  let services: MeetingServices;
  let address = 0;
  const book = (body: unknown, contentType?: string) =>
    answerBooking(HEAD(contentType), bytes(body), `198.51.100.${++address}`, services);
  const count = async (table: "leads" | "meetings") =>
    Number(
      (
        await use()
          .db.selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const counts = async () => ({ leads: await count("leads"), meetings: await count("meetings") });

  beforeAll(async () => {
    await createUser(use().db, { username: "ada", password: "a long enough passphrase", role: "sales" });
    services = testMeetingServices(use(), { secret: SECRET, now: () => clock });
  });
  beforeEach(() => {
    clock = Date.parse("2026-12-07T08:00:00Z");
  });

  it("books a time, stores the lead as a form does, and answers with a manage link", async () => {
    const answer = await book({
      type: "demo",
      start: "2026-12-07T10:00:00Z",
      timeZone: "America/New_York",
      ...CONTACT,
    });
    expect(answer.status).toBe(201);
    const body = answer.body as {
      id: number;
      start: string;
      end: string;
      hostName: string;
      manageUrl: string;
    };
    expect(body).toMatchObject({
      start: "2026-12-07T10:00:00.000Z",
      end: "2026-12-07T10:30:00.000Z",
      hostName: "ada",
    });
    expect(body.manageUrl).toMatch(/^https:\/\/www\.clausebridge\.test\/meetings\/manage\/[\w.-]+$/);
    const meeting = await use()
      .db.selectFrom("meetings")
      .selectAll()
      .where("id", "=", body.id)
      .executeTakeFirstOrThrow();
    const lead = await use()
      .db.selectFrom("leads")
      .selectAll()
      .where("id", "=", meeting.leadId ?? -1)
      .executeTakeFirstOrThrow();
    expect(lead).toMatchObject({ fullName: CONTACT.fullName, email: CONTACT.email, requestType: "demo" });
    expect(meeting).toMatchObject({ status: "booked", timeZone: "America/New_York", email: CONTACT.email });

    // The same time again: nobody is free, nothing more is stored, fresh times come with the 409.
    const before = await counts();
    const again = await book({
      type: "demo",
      start: "2026-12-07T10:00:00Z",
      ...CONTACT,
      email: "b@example.com",
    });
    expect(again.status).toBe(409);
    const conflict = again.body as { message: string; slots: { start: string }[] };
    expect(conflict.message).toBe(BOOKING_MESSAGES.taken);
    expect(conflict.slots[0]?.start).toBe("2026-12-07T10:30:00.000Z");
    expect(await counts()).toEqual(before);
  });

  it.each([
    [{ start: "2026-12-07T07:30:00Z" }, "start", BOOKING_MESSAGES.past],
    [{ start: "2026-12-07T10:03:00Z" }, "start", BOOKING_MESSAGES.start],
    [{ start: "next tuesday" }, "start", BOOKING_MESSAGES.start],
    [{ fullName: "Eve\r\nBcc: all@example.com" }, "fullName", BOOKING_MESSAGES.name],
    [{ fullName: "Eve;ROLE=CHAIR" }, "fullName", BOOKING_MESSAGES.name],
    [{ email: "eve@example.com\r\nATTENDEE:mailto:x@example.com" }, "email", BOOKING_MESSAGES.email],
    [{ company: "Evil\nLOCATION:nowhere" }, "company", BOOKING_MESSAGES.company],
    [{ phone: undefined }, "phone", BOOKING_MESSAGES.phone],
    [{ type: "lunch" }, "type", BOOKING_MESSAGES.type],
    [{ timeZone: "Mars/Olympus" }, "timeZone", BOOKING_MESSAGES.timeZone],
  ])("refuses %o with 400 on %s and stores nothing", async (change, field, message) => {
    const before = await counts();
    const answer = await book({ type: "demo", start: "2026-12-07T11:00:00Z", ...CONTACT, ...change });
    expect(answer.status).toBe(400);
    expect((answer.body as { errors: Record<string, string> }).errors[field]).toBe(message);
    expect(await counts()).toEqual(before);
  });

  it("refuses a time outside the hours with 409 and fresh times, storing nothing", async () => {
    const before = await counts();
    const answer = await book({ type: "demo", start: "2026-12-07T18:00:00Z", ...CONTACT });
    expect(answer.status).toBe(409);
    expect(await counts()).toEqual(before);
  });

  it("refuses a body too large or not JSON", async () => {
    expect((await book({ type: "demo", start: "x", fullName: "a".repeat(5000) })).status).toBe(413);
    expect((await book("type=demo", "application/x-www-form-urlencoded")).status).toBe(415);
    expect((await book("{", "application/json")).status).toBe(400);
  });

  it("books with a lead's token without asking again; an expired or forged token is refused", async () => {
    const stored = await services.leads.submit({ requestType: "demo", ...CONTACT }, HEAD(), "203.0.113.5");
    if (stored.kind !== "stored") throw new Error(`not stored: ${stored.kind}`);
    const token = leadBookingToken(SECRET, stored.leadId, clock);
    const before = await counts();
    const answer = await book({ type: "demo", start: "2026-12-07T12:00:00Z", leadToken: token });
    expect(answer.status).toBe(201);
    expect(await counts()).toEqual({ leads: before.leads, meetings: before.meetings + 1 });
    // One upcoming demo per lead: the token does not book a second one.
    expect(await book({ type: "demo", start: "2026-12-07T13:00:00Z", leadToken: token })).toMatchObject({
      status: 409,
      body: { message: BOOKING_MESSAGES.alreadyBooked },
    });
    expect(await counts()).toEqual({ leads: before.leads, meetings: before.meetings + 1 });
    const forged = `${token.slice(0, -2)}AA`;
    for (const leadToken of [forged, "1.1.AAAAAAAAAAAAAAAAAAAAAA", "nonsense"])
      expect(await book({ type: "demo", start: "2026-12-07T12:30:00Z", leadToken })).toMatchObject({
        status: 400,
        body: { errors: { leadToken: BOOKING_MESSAGES.leadToken } },
      });
    clock += 25 * 60 * 60 * 1000; // a day and an hour later
    expect((await book({ type: "demo", start: "2026-12-09T12:30:00Z", leadToken: token })).status).toBe(400);
  });

  it("joins a returning prospect's own lead, and gives an owner-first type to the owner of their leads", async () => {
    const ada = await use()
      .db.selectFrom("users")
      .select("id")
      .where("username", "=", "ada")
      .executeTakeFirstOrThrow();
    // Ben hosts too, with fewer meetings: round robin alone would pick him.
    await createUser(use().db, { username: "ben", password: "a long enough passphrase", role: "sales" });
    const person = { ...CONTACT, email: "returning@example.com" };
    const first = await services.leads.submit({ requestType: "demo", ...person }, HEAD(), "203.0.113.21");
    if (first.kind !== "stored") throw new Error(`not stored: ${first.kind}`);
    await use().db.updateTable("leads").set({ ownerId: ada.id }).where("id", "=", first.leadId).execute();
    // A later request of theirs, not yet assigned.
    const later = await services.leads.submit({ requestType: "demo", ...person }, HEAD(), "203.0.113.22");
    if (later.kind !== "stored") throw new Error(`not stored: ${later.kind}`);
    const before = await counts();
    const answer = await book({
      type: "demo",
      start: "2026-12-10T11:00:00Z",
      ...person,
      email: " Returning@Example.com ",
    });
    expect(answer).toMatchObject({ status: 201, body: { hostName: "ada" } });
    // No third lead: the booking is the later request's.
    expect(await counts()).toEqual({ leads: before.leads, meetings: before.meetings + 1 });
    const meeting = await use()
      .db.selectFrom("meetings")
      .select("leadId")
      .where("id", "=", (answer.body as { id: number }).id)
      .executeTakeFirstOrThrow();
    expect(meeting.leadId).toBe(later.leadId);
    // Their one upcoming demo: another booking of theirs is refused, as with a token.
    expect(await book({ type: "demo", start: "2026-12-10T12:00:00Z", ...person })).toMatchObject({
      status: 409,
      body: { message: BOOKING_MESSAGES.alreadyBooked },
    });
  });

  it("books nothing with the token of a request kept as spam, and answers as for any held booking", async () => {
    const stored = await services.leads.submit(
      { requestType: "demo", ...CONTACT, email: "held@example.com" },
      HEAD(),
      "203.0.113.6",
    );
    if (stored.kind !== "stored") throw new Error(`not stored: ${stored.kind}`);
    // Staff (or the spam verdict) kept it for review: its thank-you carried a token like any other.
    await use().db.updateTable("leads").set({ isSpam: 1 }).where("id", "=", stored.leadId).execute();
    const before = await counts();
    const answer = await book({
      type: "demo",
      start: "2026-12-07T12:00:00Z",
      leadToken: leadBookingToken(SECRET, stored.leadId, clock),
    });
    expect(answer).toMatchObject({ status: 202, body: { message: BOOKING_MESSAGES.held } });
    expect(await counts()).toEqual(before);
  });

  it("reschedules and cancels through the manage link, which a changed character or the meeting's end refuses", async () => {
    const booked = await book({ type: "investor", start: "2026-12-08T14:00:00Z", ...CONTACT });
    expect(booked.status).toBe(201);
    const { id, manageUrl } = booked.body as { id: number; manageUrl: string };
    const token = manageUrl.split("/").at(-1) ?? "";
    const uid = (
      await use().db.selectFrom("meetings").select("uid").where("id", "=", id).executeTakeFirstOrThrow()
    ).uid;

    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    expect(await answerCancel(tampered, HEAD(), services)).toMatchObject({ status: 404 });
    const moved = await answerReschedule(token, HEAD(), bytes({ start: "2026-12-08T15:00:00Z" }), services);
    expect(moved).toMatchObject({
      status: 200,
      body: { start: "2026-12-08T15:00:00.000Z", status: "booked" },
    });
    const row = await use()
      .db.selectFrom("meetings")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ uid, sequence: 1, startAt: "2026-12-08T15:00:00.000Z" });
    // The old time is free again, the new one held.
    const blocks = await use()
      .db.selectFrom("meetingBlocks")
      .select("blockStart")
      .where("meetingId", "=", id)
      .execute();
    expect(blocks.map((block) => block.blockStart).sort()).toEqual([
      "2026-12-08T15:00:00.000Z",
      "2026-12-08T15:05:00.000Z",
      "2026-12-08T15:10:00.000Z",
      "2026-12-08T15:15:00.000Z",
      "2026-12-08T15:20:00.000Z",
      "2026-12-08T15:25:00.000Z",
    ]);
    expect(
      (await answerReschedule(token, HEAD(), bytes({ start: "2026-12-08T20:00:00Z" }), services)).status,
    ).toBe(409);

    expect(await answerCancel(token, HEAD(), services)).toMatchObject({
      status: 200,
      body: { status: "cancelled" },
    });
    expect(await answerCancel(token, HEAD(), services)).toMatchObject({ status: 410 });
    expect(
      await use().db.selectFrom("meetingBlocks").selectAll().where("meetingId", "=", id).execute(),
    ).toEqual([]);

    const later = await book({ type: "investor", start: "2026-12-08T16:00:00Z", ...CONTACT });
    const laterToken = (later.body as { manageUrl: string }).manageUrl.split("/").at(-1) ?? "";
    clock = Date.parse("2026-12-08T16:30:00Z");
    expect(await answerCancel(laterToken, HEAD(), services)).toMatchObject({ status: 410 });
  });
});

describeEachDatabase("a booking's e-mails", (use) => {
  let smtp: TestSmtp;
  let services: MeetingServices;
  beforeAll(async () => {
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
    services = testMeetingServices(use(), {
      secret: SECRET,
      now: () => clock,
      publicUrl: "https://www.clausebridge.test",
    });
  });
  afterAll(() => smtp.close());

  /** Sends what the outbox holds, as the worker does; the mails received since `from`. */
  async function deliver(from: number) {
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
  }

  const invitationOf = (mail: { raw: string }) => {
    const part = mimePart(mail.raw, "text/calendar");
    if (!part) throw new Error("no text/calendar part");
    const event = new ICAL.Component(ICAL.parse(part.content)).getFirstSubcomponent("vevent");
    if (!event) throw new Error("no VEVENT");
    return {
      contentType: part.contentType,
      text: part.content,
      calendar: ICAL.Component.fromString(part.content),
      event,
    };
  };

  it("invites the prospect and the host, then updates and cancels the same event", async () => {
    clock = Date.parse("2026-12-07T08:00:00Z");
    const booked = await answerBooking(
      HEAD(),
      bytes({ type: "demo", start: "2026-12-08T10:00:00Z", timeZone: "America/New_York", ...CONTACT }),
      "198.51.100.200",
      services,
    );
    expect(booked.status).toBe(201);
    const { manageUrl } = booked.body as { manageUrl: string };
    const token = manageUrl.split("/").at(-1) ?? "";
    const mails = await deliver(0);
    expect(mails.map((mail) => mail.to)).toEqual([["amara@okafor-build.co.uk"], ["ada@clausebridge.test"]]);
    const [toProspect, toHost] = mails;
    if (!toProspect || !toHost) throw new Error("two mails");
    expect(toProspect.subject).toBe(
      "Confirmed: Product demo with Clausebridge, Tuesday 8 December, 05:00 EST",
    );
    expect(toProspect.text).toContain(manageUrl);
    expect(toHost.subject).toBe(
      "New booking: Product demo with Amara Okafor (Okafor Build Ltd), Tuesday 8 December, 10:00 GMT",
    );
    expect(toHost.text).toMatch(/The lead: https:\/\/www\.clausebridge\.test\/admin\/leads\/\d+/);

    const invited = invitationOf(toProspect);
    expect(invited.contentType).toMatch(/method=REQUEST/i);
    expect(invited.calendar.getFirstPropertyValue("method")).toBe("REQUEST");
    const uid = invited.event.getFirstPropertyValue("uid");
    expect(uid).toMatch(/@clausebridge$/);
    expect(invited.event.getFirstPropertyValue("sequence")).toBe(0);
    expect(String(invited.event.getFirstPropertyValue("dtstart"))).toBe("2026-12-08T10:00:00Z");
    expect(String(invited.event.getFirstPropertyValue("dtend"))).toBe("2026-12-08T10:30:00Z");
    expect(invited.event.getFirstPropertyValue("organizer")).toBe("mailto:ada@clausebridge.test");
    const attendee = invited.event.getFirstProperty("attendee");
    expect(attendee?.getFirstValue()).toBe("mailto:amara@okafor-build.co.uk");
    expect(attendee?.getParameter("cn")).toBe("Amara Okafor");
    expect(invitationOf(toHost).event.getFirstPropertyValue("uid")).toBe(uid);
    // The same invitation read by Python's icalendar, as a calendar built on it would.
    expect(await parseWithPythonIcalendar(invited.text)).toEqual({
      method: "REQUEST",
      events: [
        expect.objectContaining({
          uid,
          sequence: 0,
          start: "2026-12-08T10:00:00Z",
          end: "2026-12-08T10:30:00Z",
          organizer: "mailto:ada@clausebridge.test",
          attendees: [
            expect.objectContaining({ address: "mailto:amara@okafor-build.co.uk", cn: "Amara Okafor" }),
          ],
        }),
      ],
    });

    const moved = await answerReschedule(token, HEAD(), bytes({ start: "2026-12-09T14:30:00Z" }), services);
    expect(moved.status).toBe(200);
    const updates = await deliver(2);
    expect(updates.map((mail) => mail.subject)).toEqual([
      "Updated: Product demo with Clausebridge, Wednesday 9 December, 09:30 EST",
      "Moved: Product demo with Amara Okafor (Okafor Build Ltd), Wednesday 9 December, 14:30 GMT",
    ]);
    const update = invitationOf(updates[0] ?? toProspect);
    expect(update.event.getFirstPropertyValue("uid")).toBe(uid);
    expect(update.event.getFirstPropertyValue("sequence")).toBe(1);
    expect(String(update.event.getFirstPropertyValue("dtstart"))).toBe("2026-12-09T14:30:00Z");
    expect((await parseWithPythonIcalendar(update.text)).events[0]).toMatchObject({
      uid,
      sequence: 1,
      start: "2026-12-09T14:30:00Z",
    });

    expect((await answerCancel(token, HEAD(), services)).status).toBe(200);
    const cancellations = await deliver(4);
    expect(cancellations.map((mail) => mail.subject)[0]).toMatch(
      /^Cancelled: Product demo with Clausebridge/,
    );
    const cancel = invitationOf(cancellations[0] ?? toProspect);
    expect(cancel.contentType).toMatch(/method=CANCEL/i);
    expect(cancel.calendar.getFirstPropertyValue("method")).toBe("CANCEL");
    expect(cancel.event.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(cancel.event.getFirstPropertyValue("sequence")).toBe(2);
    expect(cancel.event.getFirstPropertyValue("uid")).toBe(uid);
    expect(await parseWithPythonIcalendar(cancel.text)).toMatchObject({
      method: "CANCEL",
      events: [{ uid, sequence: 2, status: "CANCELLED" }],
    });
  });
});
