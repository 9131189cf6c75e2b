import http from "node:http";
import type net from "node:net";
import ICAL from "ical.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { AppDatabase } from "#app/db/database.server.ts";
import { createUser } from "#app/features/auth/users.server.ts";
import { answerBooking, answerCancel, answerReschedule } from "#app/features/meetings/booking-http.server.ts";
import {
  CALENDAR_EVENT,
  CALENDAR_MESSAGES,
  calendarKey,
} from "#app/features/meetings/caldav/calendar-connections.server.ts";
import {
  type CalendarService,
  createCalendarService,
} from "#app/features/meetings/caldav/calendar-service.server.ts";
import { manageUrl } from "#app/features/meetings/manage-link.server.ts";
import type { MeetingServices } from "#app/features/meetings/meetings-context.server.ts";
import { answerSlotQuery } from "#app/features/meetings/slot-query.server.ts";
import { createOutboxProcessor, dispatchByKind } from "#app/lib/outbox/outbox-worker.server.ts";
import { METADATA_NAMES_RESOLVED, startFakeNetwork } from "#app/lib/safe-fetch/testing/fake-network.ts";
import { openSecret } from "#app/lib/sealed-secret.server.ts";
import { describeEachDatabase } from "../tests/support/databases.ts";
import { type Radicale, startRadicale } from "../tests/support/radicale.ts";
import { testMeetingServices } from "./testing/meeting-services.ts";

// Issue 34, real calendars: a host's CalDAV calendar (a real Radicale on 127.0.0.1) gives busy times
// to the slots and receives every booking as an event, moved and removed with it; a calendar server
// that hangs, fails or sends nonsense leaves the slots answering from the cache within the bound, and
// the connection says what went wrong. Monday 7 December 2026, 08:00 London (= UTC): the defaults
// offer 10:00 to 16:30 that day.

const SECRET = "test-secret-test-secret-test-secret";
const START = Date.parse("2026-12-07T08:00:00Z");
let clock = START;
const PASSWORD = "app-password-1234";
const CONTACT = { fullName: "Amara Okafor", company: "Okafor Build Ltd", phone: "+44 7700 900123" };
const HEAD = {
  headers: new Headers({ "content-type": "application/json" }),
  host: "www.clausebridge.test",
  protocol: "https:",
};
const bytes = (body: unknown) => async (limit: number) => {
  const encoded = new TextEncoder().encode(JSON.stringify(body));
  return encoded.length > limit ? null : encoded;
};

let radicale: Radicale;
beforeAll(async () => {
  radicale = await startRadicale();
}, 60_000);
afterAll(async () => {
  await radicale?.stop();
});

/** An event as another calendar app would write it. */
function eventText(uid: string, lines: string[]): string {
  return [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Test//Other app//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20261201T000000Z",
    ...lines,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");
}

/**
 * A calendar server in front of Radicale that can go bad: `pass` forwards, `hang` accepts and never
 * answers, `error` answers 500, `garbled` a multistatus whose calendar data is not iCalendar, `html`
 * a page that is not CalDAV at all.
 */
async function startFlakyFront(target: string) {
  let mode: "pass" | "hang" | "error" | "garbled" | "html" = "pass";
  const sockets = new Set<net.Socket>();
  const server = http.createServer(async (request, response) => {
    if (mode === "hang") return;
    if (mode === "error") return void response.writeHead(500).end("Internal Server Error");
    if (mode === "garbled")
      return void response
        .writeHead(207, { "content-type": "application/xml" })
        .end(
          `<?xml version="1.0"?><multistatus xmlns="DAV:" xmlns:C="urn:ietf:params:xml:ns:caldav"><response><href>/x.ics</href><propstat><prop><C:calendar-data>BEGIN:VCALENDAR&#13;\nthis is not: a calendar\nEND:VEVENT</C:calendar-data></prop><status>HTTP/1.1 200 OK</status></propstat></response></multistatus>`,
        );
    if (mode === "html") return void response.writeHead(207).end("<html><body>Hello</body></html>");
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const upstream = await fetch(new URL(request.url ?? "/", target), {
      method: request.method,
      headers: Object.fromEntries(
        Object.entries(request.headers).filter(
          (entry): entry is [string, string] => typeof entry[1] === "string" && entry[0] !== "host",
        ),
      ),
      body: chunks.length ? Buffer.concat(chunks) : undefined,
    });
    const etag = upstream.headers.get("etag");
    response.writeHead(upstream.status, etag ? { etag } : {});
    response.end(Buffer.from(await upstream.arrayBuffer()));
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    set(next: typeof mode) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function calendarsFor(
  database: AppDatabase,
  timing: { waitMs: number; requestTimeoutMs: number },
  allowPrivate = true,
): CalendarService {
  return createCalendarService({
    db: database.db,
    secret: SECRET,
    network: { allowPrivate },
    now: () => clock,
    fallbackAddress: "no-reply@clausebridge.test",
    timing,
  });
}

async function openTimes(services: MeetingServices, days = 2): Promise<string[]> {
  const answer = await answerSlotQuery(
    new URLSearchParams({ type: "demo", from: "2026-12-07", days: String(days) }),
    "198.51.100.7",
    services,
  );
  expect(answer.status).toBe(200);
  return (answer.body as { slots: { start: string }[] }).slots.map((slot) => slot.start.slice(0, 16));
}

describeEachDatabase("a host's CalDAV calendar", (use) => {
  let hostId: number;
  let user: string;
  let calendarUrl: string;
  let calendars: CalendarService;
  let services: MeetingServices;
  let booked = 0;

  /** Sends the queued calendar writes, as the outbox worker does. */
  const sendCalendarWrites = () =>
    createOutboxProcessor({
      db: use().db,
      dialect: use().dialect,
      ...dispatchByKind({ [CALENDAR_EVENT]: calendars.eventSender }),
      now: () => new Date(clock),
    }).drain();
  const book = (start: string) =>
    answerBooking(
      HEAD,
      bytes({ type: "demo", start, ...CONTACT, email: `amara${++booked}@okafor-build.co.uk` }),
      `198.51.100.${booked}`,
      services,
    );
  const ours = async () =>
    (await radicale.listEvents(calendarUrl, user, PASSWORD)).filter((event) =>
      event.text.includes("@clausebridge"),
    );

  beforeAll(async () => {
    clock = START;
    const host = await createUser(use().db, {
      username: `host-${use().dialect}`,
      password: "a long enough passphrase",
      role: "sales",
    });
    hostId = host.id;
    await use()
      .db.updateTable("users")
      .set({ email: "ada@clausebridge.test" })
      .where("id", "=", hostId)
      .execute();
    user = `ada-${use().dialect}`;
    radicale.addUser(user, PASSWORD);
    calendarUrl = await radicale.makeCalendar(user, PASSWORD, "work");
    // Healthy server: waits long enough that a busy machine never falls back to the cache here.
    calendars = calendarsFor(use(), { waitMs: 20_000, requestTimeoutMs: 20_000 });
    services = testMeetingServices(use(), { secret: SECRET, now: () => clock, calendars });
  });

  it("connects only a calendar that accepts the credentials, and keeps the password sealed", async () => {
    expect(
      await calendars.connect(hostId, { url: calendarUrl, username: user, password: "wrong" }),
    ).toMatchObject({
      ok: false,
      errors: { password: CALENDAR_MESSAGES.refused },
    });
    // The user's own collection is a folder of calendars, not one.
    expect(
      await calendars.connect(hostId, {
        url: `${radicale.origin}/${user}/`,
        username: user,
        password: PASSWORD,
      }),
    ).toMatchObject({ ok: false, errors: { url: CALENDAR_MESSAGES.notCalendar } });
    expect(
      await calendars.connect(hostId, { url: "ftp://example.com/cal", username: user, password: PASSWORD }),
    ).toMatchObject({
      ok: false,
      errors: { url: expect.stringMatching(/^Refused: ftp URLs/) },
    });
    expect(await calendars.status(hostId)).toBeNull();

    const connected = await calendars.connect(hostId, {
      url: calendarUrl,
      username: user,
      password: PASSWORD,
    });
    expect(connected).toMatchObject({
      ok: true,
      status: { url: calendarUrl, username: user, refreshedAt: null, lastError: null },
    });
    expect(JSON.stringify(connected)).not.toContain(PASSWORD);
    const row = await use()
      .db.selectFrom("calendarConnections")
      .selectAll()
      .where("userId", "=", hostId)
      .executeTakeFirstOrThrow();
    expect(row.passwordSealed).not.toContain(PASSWORD);
    expect(openSecret(row.passwordSealed, calendarKey(SECRET))).toBe(PASSWORD);
  });

  it("takes the calendar's busy times out of the open slots (recurrences, zones, free and cancelled events)", async () => {
    const put = (file: string, lines: string[]) =>
      radicale.putEvent(calendarUrl, file, eventText(file, lines), user, PASSWORD);
    expect(
      await put("site-visit.ics", [
        "DTSTART:20261207T110000Z",
        "DTEND:20261207T120000Z",
        "SUMMARY:Site visit",
      ]),
    ).toBe(201);
    // 10:00 in New York is 15:00 in London, on the 7th and the 8th.
    expect(
      await put("standup.ics", [
        "DTSTART;TZID=America/New_York:20261207T100000",
        "DTEND;TZID=America/New_York:20261207T103000",
        "RRULE:FREQ=DAILY;COUNT=2",
      ]),
    ).toBe(201);
    expect(
      await put("free.ics", ["DTSTART:20261207T130000Z", "DTEND:20261207T140000Z", "TRANSP:TRANSPARENT"]),
    ).toBe(201);
    expect(
      await put("off.ics", ["DTSTART:20261207T140000Z", "DTEND:20261207T143000Z", "STATUS:CANCELLED"]),
    ).toBe(201);

    const times = await openTimes(services);
    expect(times).toContain("2026-12-07T10:00");
    expect(times).not.toContain("2026-12-07T11:00");
    expect(times).not.toContain("2026-12-07T11:30");
    expect(times).toContain("2026-12-07T13:00");
    expect(times).toContain("2026-12-07T14:00");
    expect(times).not.toContain("2026-12-07T15:00");
    expect(times).not.toContain("2026-12-08T15:00");
    expect(times).toContain("2026-12-08T11:00");
    expect(await calendars.status(hostId)).toMatchObject({
      refreshedAt: new Date(clock).toISOString(),
      lastError: null,
    });
    // A booking of a busy time is refused.
    expect((await book("2026-12-07T11:00:00Z")).status).toBe(409);
  });

  it("reads the calendar again before confirming a booking, even while the slots' cache is fresh", async () => {
    expect(
      await radicale.putEvent(
        calendarUrl,
        "late-call.ics",
        eventText("late-call", ["DTSTART:20261207T160000Z", "DTEND:20261207T163000Z"]),
        user,
        PASSWORD,
      ),
    ).toBe(201);
    clock += 60_000;
    // The cache is a minute old: the slots still show 16:00…
    expect(await openTimes(services)).toContain("2026-12-07T16:00");
    // …the booking reads the calendar first and finds the time taken.
    expect((await book("2026-12-07T16:00:00Z")).status).toBe(409);
    expect(await openTimes(services)).not.toContain("2026-12-07T16:00");
  });

  it("writes a booking into the calendar, moves it there (same UID) and removes it when cancelled", async () => {
    const answer = await book("2026-12-07T10:30:00Z");
    expect(answer.status).toBe(201);
    const { id } = answer.body as { id: number };
    const meeting = await use()
      .db.selectFrom("meetings")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(await ours()).toEqual([]); // nothing was written in the booking's answer
    await sendCalendarWrites();
    const [written, ...others] = await ours();
    expect(others).toEqual([]);
    const event = ICAL.Component.fromString(written?.text ?? "");
    expect(event.getFirstPropertyValue("method")).toBeNull();
    const vevent = event.getFirstSubcomponent("vevent") as ICAL.Component;
    expect(vevent.getFirstPropertyValue("uid")).toBe(meeting.uid);
    expect(vevent.getFirstPropertyValue("dtstart")?.toString()).toBe("2026-12-07T10:30:00Z");
    expect(vevent.getFirstPropertyValue("summary")).toBe("Product demo: Amara Okafor (Okafor Build Ltd)");
    expect(vevent.getFirstPropertyValue("description")).toContain("E-mail: amara");
    expect(vevent.getFirstProperty("attendee")?.getParameter("schedule-agent")).toBe("CLIENT");

    // The calendar now holds our own event; it does not stand in the way of moving the meeting.
    clock += 30_000;
    const token = manageUrl("https://x", SECRET, id).split("/").pop() ?? "";
    const moved = await answerReschedule(token, HEAD, bytes({ start: "2026-12-07T12:00:00Z" }), services);
    expect(moved.status).toBe(200);
    await sendCalendarWrites();
    const [rewritten, ...more] = await ours();
    expect(more).toEqual([]);
    expect(rewritten?.href).toBe(written?.href);
    const again = ICAL.Component.fromString(rewritten?.text ?? "").getFirstSubcomponent(
      "vevent",
    ) as ICAL.Component;
    expect(again.getFirstPropertyValue("uid")).toBe(meeting.uid);
    expect(again.getFirstPropertyValue("dtstart")?.toString()).toBe("2026-12-07T12:00:00Z");
    expect(again.getFirstPropertyValue("sequence")).toBe(1);

    expect((await answerCancel(token, HEAD, services)).status).toBe(200);
    await sendCalendarWrites();
    expect(await ours()).toEqual([]);
    // The other app's events are untouched.
    expect((await radicale.listEvents(calendarUrl, user, PASSWORD)).length).toBe(5);
  });
});

describeEachDatabase("a calendar server that hangs, fails or sends nonsense", (use) => {
  let hostId: number;
  let front: Awaited<ReturnType<typeof startFlakyFront>>;
  let calendars: CalendarService;
  let services: MeetingServices;
  const user = () => `eve-${use().dialect}`;

  beforeAll(async () => {
    clock = START;
    const host = await createUser(use().db, {
      username: `host-${use().dialect}`,
      password: "a long enough passphrase",
      role: "sales",
    });
    hostId = host.id;
    radicale.addUser(user(), PASSWORD);
    const calendarUrl = await radicale.makeCalendar(user(), PASSWORD, "work");
    await radicale.putEvent(
      calendarUrl,
      "site-visit.ics",
      eventText("site-visit", ["DTSTART:20261207T110000Z", "DTEND:20261207T120000Z"]),
      user(),
      PASSWORD,
    );
    front = await startFlakyFront(radicale.origin);
    // A page waits at most a second for the calendar; one exchange gives up after two.
    calendars = calendarsFor(use(), { waitMs: 1_000, requestTimeoutMs: 2_000 });
    services = testMeetingServices(use(), { secret: SECRET, now: () => clock, calendars });
    const connected = await calendars.connect(hostId, {
      url: `${front.origin}/${user()}/work/`,
      username: user(),
      password: PASSWORD,
    });
    expect(connected.ok).toBe(true);
    expect(await calendars.refresh(hostId)).toBe("refreshed");
  });
  afterAll(async () => {
    await calendars.settle();
    await front?.close();
  });

  it.each([
    ["hangs", "hang", /^Reading busy times failed: Timed out: No complete answer within 2 s\.$/],
    ["answers 500", "error", /^Reading busy times failed: .*HTTP 500/],
    ["sends calendar data that is not iCalendar", "garbled", /not valid iCalendar/],
    ["answers with something that is not CalDAV", "html", /not a CalDAV multistatus/],
  ] as const)(
    "when it %s, the slots answer from the cache within the bound and staff see the error",
    async (_, mode, error) => {
      front.set(mode);
      clock += 6 * 60_000; // the cache is stale: the slot query tries the calendar
      const started = performance.now();
      const times = await openTimes(services);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(times).toContain("2026-12-07T13:00");
      expect(times).not.toContain("2026-12-07T11:00"); // from the cache
      await calendars.settle();
      const status = await calendars.status(hostId);
      expect(status?.lastError).toMatch(error);
      expect(status?.lastErrorAt).toBe(new Date(clock).toISOString());
      // A booking still answers within the bound, from the cache.
      clock += 60_000;
      const bookingStarted = performance.now();
      const answer = await answerBooking(
        HEAD,
        bytes({ type: "demo", start: "2026-12-07T11:00:00Z", ...CONTACT, email: `eve-${mode}@example.com` }),
        "198.51.100.9",
        services,
      );
      expect(performance.now() - bookingStarted).toBeLessThan(5_000);
      expect(answer.status).toBe(409);
      await calendars.settle();
    },
  );

  it("clears the error once the calendar answers again", async () => {
    front.set("pass");
    clock += 6 * 60_000;
    expect(await calendars.refresh(hostId)).toBe("refreshed");
    expect(await calendars.status(hostId)).toMatchObject({ lastError: null, lastErrorAt: null });
  });

  it("disconnects: no busy times, no connection", async () => {
    expect(await calendars.disconnect(hostId)).toBe(true);
    expect(await calendars.status(hostId)).toBeNull();
    expect(await openTimes(services)).toContain("2026-12-07T11:00");
    expect(await calendars.disconnect(hostId)).toBe(false);
  });
});

describeEachDatabase("the calendars' outbound policy", (use) => {
  let hostId: number;

  beforeAll(async () => {
    const host = await createUser(use().db, {
      username: `host-${use().dialect}`,
      password: "a long enough passphrase",
      role: "sales",
    });
    hostId = host.id;
  });

  it("refuses private addresses unless CALDAV_ALLOW_PRIVATE_TARGETS, and cloud metadata always", async () => {
    // Every name resolves from this table and every connection goes through the injected connector
    // (startFakeNetwork): the metadata addresses below are refused by the policy, never connected to,
    // and nothing here could reach past loopback even if the policy failed.
    // The metadata names are in the table too (METADATA_NAMES_RESOLVED, the addresses they have in a
    // cloud, rebind.example's included): were the name check to fail, the lookup would still come
    // from here and the address check refuse it.
    const network = await startFakeNetwork({
      ...METADATA_NAMES_RESOLVED,
      "calendar.internal.example": ["10.0.0.7"],
    });
    try {
      const closed = createCalendarService({
        db: use().db,
        secret: SECRET,
        network: { allowPrivate: false, resolve: network.resolve, connect: network.connect },
        fallbackAddress: "no-reply@clausebridge.test",
      });
      const input = (url: string) => ({ url, username: "ada", password: PASSWORD });
      const loopback = await closed.connect(hostId, input(`${radicale.origin}/ada/work/`));
      expect(loopback).toMatchObject({ ok: false });
      if (loopback.ok) throw new Error("connected");
      expect(loopback.errors.url).toMatch(
        /^Refused: 127\.0\.0\.1 is a loopback address .*CALDAV_ALLOW_PRIVATE_TARGETS=true/,
      );
      const internal = await closed.connect(hostId, input("https://calendar.internal.example/dav/"));
      expect(internal.ok ? "" : internal.errors.url).toMatch(/resolves to a private address/);

      const open = createCalendarService({
        db: use().db,
        secret: SECRET,
        network: { allowPrivate: true, resolve: network.resolve, connect: network.connect },
        fallbackAddress: "no-reply@clausebridge.test",
      });
      for (const url of [
        "http://169.254.169.254/latest/meta-data/",
        "http://metadata.google.internal/computeMetadata/v1/",
        "http://rebind.example/dav/",
        "http://[::ffff:169.254.169.254]/",
      ]) {
        const refused = await open.connect(hostId, input(url));
        expect(refused.ok ? "" : refused.errors.url).toMatch(/cloud metadata/);
      }
      expect(network.outward()).toEqual([]);
      expect(network.metadataHits()).toBe(0);
      expect(network.attempts).toEqual([]);
      // The metadata name is refused before any lookup; the rebinding one is looked up in the table only.
      expect(network.resolve.calls).not.toContain("metadata.google.internal");
      expect(await open.status(hostId)).toBeNull();
    } finally {
      await network.close();
    }
  });

  it("refuses a stored calendar at refresh once private targets are no longer allowed", async () => {
    const user = `zoe-${use().dialect}`;
    radicale.addUser(user, PASSWORD);
    const url = await radicale.makeCalendar(user, PASSWORD, "work");
    const allowed = calendarsFor(use(), { waitMs: 20_000, requestTimeoutMs: 20_000 });
    expect((await allowed.connect(hostId, { url, username: user, password: PASSWORD })).ok).toBe(true);
    const closed = calendarsFor(use(), { waitMs: 20_000, requestTimeoutMs: 20_000 }, false);
    expect(await closed.refresh(hostId)).toBe("failed");
    expect((await closed.status(hostId))?.lastError).toMatch(/Refused: 127\.0\.0\.1 is a loopback address/);
  });
});
