import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { parseEnv } from "#app/env.server.ts";
import { createUser } from "#app/features/auth/users.server.ts";
import { createLeadAdmin } from "#app/features/leads/lead-admin.server.ts";
import { answerBooking, answerCancel } from "#app/features/meetings/booking-http.server.ts";
import { CALENDAR_EVENT } from "#app/features/meetings/caldav/calendar-connections.server.ts";
import {
  type CalendarService,
  createCalendarService,
} from "#app/features/meetings/caldav/calendar-service.server.ts";
import { createMeetingEmailSender, MEETING_EMAIL } from "#app/features/meetings/meeting-email.server.ts";
import type { MeetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { answerSlotQuery } from "#app/features/meetings/slot-query.server.ts";
import { createOutboxProcessor, dispatchByKind } from "#app/lib/outbox/outbox-worker.server.ts";
import { runPurge } from "#app/lib/purge.server.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";
import { type Radicale, startRadicale } from "../tests/support/radicale.ts";
import { createPeopleLeads } from "./people-leads.server.ts";
import { retentionCategories } from "./retention.server.ts";
import { testMeetingServices } from "./testing/meeting-services.ts";

// Issue 34, the privacy of meetings: erasing a person (the people page's and API's erasure, through
// the composition root) cancels their meetings still to come and clears their name, e-mail, company
// and phone from all of them, past ones included; every one of their events leaves the host's
// calendar (a real Radicale on 127.0.0.1), and nothing more is e-mailed to them. The retention
// policy does the same to the meetings of the leads it anonymises. Monday 7 December 2026, London on
// GMT: the defaults offer 10:00 to 16:30 that day.

const SECRET = "test-secret-test-secret-test-secret";
const PASSWORD = "app-password-1234";
let clock = Date.parse("2026-12-07T08:00:00Z");
const HEAD = {
  headers: new Headers({ "content-type": "application/json" }),
  host: "www.clausebridge.test",
  protocol: "https:",
};
const bytes = (body: unknown) => async (limit: number) => {
  const encoded = new TextEncoder().encode(JSON.stringify(body));
  return encoded.length > limit ? null : encoded;
};
const PERSON = {
  fullName: "Amara Okafor",
  email: "amara@okafor-build.co.uk",
  company: "Okafor Build Ltd",
  phone: "+44 7700 900123",
};

let radicale: Radicale;
beforeAll(async () => {
  radicale = await startRadicale();
}, 60_000);
afterAll(async () => {
  await radicale?.stop();
});

describeEachDatabase("a person's meetings when they are erased or anonymised", (use) => {
  let calendars: CalendarService;
  let services: MeetingServices;
  let calendarUrl: string;
  let user: string;
  let address = 0;
  let officer: { id: number; username: string };

  const book = async (start: string, contact: typeof PERSON) => {
    const answer = await answerBooking(
      HEAD,
      bytes({ type: "demo", start, ...contact }),
      `198.51.100.${++address}`,
      services,
    );
    expect(answer.status).toBe(201);
    const body = answer.body as { id: number; manageUrl: string };
    return { id: body.id, token: body.manageUrl.split("/").at(-1) ?? "" };
  };
  const sendCalendarWrites = () =>
    createOutboxProcessor({
      db: use().db,
      dialect: use().dialect,
      ...dispatchByKind({ [CALENDAR_EVENT]: calendars.eventSender }),
      now: () => new Date(clock),
    }).drain();
  /** The summaries of the meetings in the host's calendar. */
  const calendarSummaries = async () =>
    (await radicale.listEvents(calendarUrl, user, PASSWORD))
      .map((event) => /SUMMARY:(.*)/.exec(event.text)?.[1]?.trim() ?? "")
      .sort();
  const meeting = (id: number) =>
    use().db.selectFrom("meetings").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const mailKinds = async () =>
    Number(
      (
        await use()
          .db.selectFrom("outbox")
          .select((eb) => eb.fn.countAll().as("n"))
          .where("kind", "=", MEETING_EMAIL)
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    const host = await createUser(use().db, {
      username: `host-${use().dialect}`,
      password: "a long enough passphrase",
      role: "sales",
    });
    await use()
      .db.updateTable("users")
      .set({ email: "ada@clausebridge.test" })
      .where("id", "=", host.id)
      .execute();
    officer = await createUser(use().db, {
      username: "privacy-officer",
      password: "a long enough passphrase",
      isAdmin: true,
    });
    // The officer hosts nothing: only the host's calendar is in play.
    await use()
      .db.updateTable("meetingTypes")
      .set({ hostIds: JSON.stringify([host.id]) })
      .execute();
    user = `privacy-${use().dialect}`;
    radicale.addUser(user, PASSWORD);
    calendarUrl = await radicale.makeCalendar(user, PASSWORD, "work");
    calendars = createCalendarService({
      db: use().db,
      secret: SECRET,
      network: { allowPrivate: true },
      now: () => clock,
      fallbackAddress: "no-reply@clausebridge.test",
      timing: { waitMs: 20_000, requestTimeoutMs: 20_000 },
    });
    expect(
      await calendars.connect(host.id, { url: calendarUrl, username: user, password: PASSWORD }),
    ).toMatchObject({ ok: true });
    services = testMeetingServices(use(), { secret: SECRET, now: () => clock, calendars });
  });

  it("cancels their meetings to come, clears them from all, takes them out of the calendar, e-mails them nothing", async () => {
    clock = Date.parse("2026-12-07T08:00:00Z");
    const past = await book("2026-12-07T10:00:00Z", PERSON);
    // Booked once the first is over (a person holds one upcoming demo; this joins their lead).
    clock = Date.parse("2026-12-07T10:45:00Z");
    const future = await book("2026-12-08T10:00:00Z", { ...PERSON, email: "Amara@Okafor-Build.co.uk" });
    const other = await book("2026-12-08T11:00:00Z", {
      ...PERSON,
      fullName: "Ben Cole",
      email: "ben@example.com",
    });
    await sendCalendarWrites();
    expect(await calendarSummaries()).toEqual([
      "Product demo: Amara Okafor (Okafor Build Ltd)",
      "Product demo: Amara Okafor (Okafor Build Ltd)",
      "Product demo: Ben Cole (Okafor Build Ltd)",
    ]);

    // The first meeting is over; the person asks to be erased. Their booking e-mails are still queued.
    clock = Date.parse("2026-12-07T12:00:00Z");
    const mailsBefore = await mailKinds();
    let woken = 0;
    const people = createPeopleLeads(
      use().db,
      SECRET,
      createLeadAdmin({ db: use().db, notify: false }),
      () => {
        woken++;
      },
    );
    // The erasure reads the system clock: fixed at the test's.
    vi.useFakeTimers({ toFake: ["Date"], now: clock });
    const erased = await people
      .erasePerson({
        email: " AMARA@okafor-build.co.uk",
        reason: "Asked by e-mail",
        actor: officer,
        clientAddress: null,
      })
      .finally(() => vi.useRealTimers());
    expect(erased.leads).toBeGreaterThan(0);
    expect(woken).toBe(1);

    // Their leads are gone, and their meetings no longer point at them.
    const cleared = { fullName: "", email: "", company: "", phone: null, leadId: null };
    expect(await meeting(past.id)).toMatchObject({ ...cleared, status: "booked" });
    expect(await meeting(future.id)).toMatchObject({ ...cleared, status: "cancelled" });
    expect((await meeting(future.id)).attendeeErasedAt).not.toBeNull();
    expect(await meeting(other.id)).toMatchObject({
      fullName: "Ben Cole",
      email: "ben@example.com",
      status: "booked",
    });
    // The host's time is free again.
    const slots = await answerSlotQuery(
      new URLSearchParams({ type: "demo", from: "2026-12-08", days: "1" }),
      "198.51.100.250",
      services,
    );
    expect((slots.body as { slots: { start: string }[] }).slots.map((slot) => slot.start)).toContain(
      "2026-12-08T10:00:00.000Z",
    );
    // The manage link no longer changes anything.
    expect(await answerCancel(future.token, HEAD, services)).toMatchObject({ status: 410 });

    // No e-mail was queued by the erasure, and the ones still queued about the person send nothing.
    expect(await mailKinds()).toBe(mailsBefore);
    const sent: { to: unknown; subject: string }[] = [];
    await createOutboxProcessor({
      db: use().db,
      dialect: use().dialect,
      now: () => new Date(clock),
      ...dispatchByKind({
        [MEETING_EMAIL]: createMeetingEmailSender({
          db: use().db,
          transport: {
            sendMail: async (mail: { to: unknown; subject: string }) => {
              sent.push({ to: mail.to, subject: mail.subject });
              return {};
            },
          } as never,
          settings: { from: "Clausebridge <meetings@clausebridge.test>", secret: SECRET },
          now: () => clock,
        }),
      }),
    }).drain();
    expect(sent.map((mail) => mail.subject)).toEqual([
      "Confirmed: Product demo with Clausebridge, Tuesday 8 December, 11:00 GMT",
      "New booking: Product demo with Ben Cole (Okafor Build Ltd), Tuesday 8 December, 11:00 GMT",
    ]);

    // Both of their events leave the calendar, the past one too.
    await sendCalendarWrites();
    expect(await calendarSummaries()).toEqual(["Product demo: Ben Cole (Okafor Build Ltd)"]);
  });

  it("clears the meetings of leads the retention policy anonymises, and takes them out of the calendar", async () => {
    clock = Date.parse("2026-12-07T08:00:00Z");
    const old = await book("2026-12-09T10:00:00Z", {
      ...PERSON,
      fullName: "Cara Diaz",
      email: "cara@example.com",
    });
    await sendCalendarWrites();
    expect(await calendarSummaries()).toContain("Product demo: Cara Diaz (Okafor Build Ltd)");

    // 25 months later, with no activity since: the leads are anonymised, their meetings cleared.
    clock = Date.parse("2029-01-10T03:00:00Z");
    const result = await runPurge({
      db: use().db,
      categories: retentionCategories(use().db, parseEnv({})),
      clock: () => new Date(clock),
    });
    expect(result).toMatchObject({ ran: true });
    expect(await meeting(old.id)).toMatchObject({ fullName: "", email: "", company: "", phone: null });
    const remaining = await use()
      .db.selectFrom("meetings")
      .select(["fullName", "email", "company", "phone"])
      .where("attendeeErasedAt", "is", null)
      .execute();
    expect(remaining).toEqual([]);
    await sendCalendarWrites();
    expect(await calendarSummaries()).toEqual([]);
  });
});
