import ICAL from "ical.js";
import { expect, it } from "vitest";
import { busyParseKit } from "./busy-parse.ts";
import { parseBusyAnswer } from "./busy-parse-worker.server.ts";

// What a calendar-query answer says about busy times (the kit in-process; one case through the worker).

const kit = busyParseKit(ICAL);
const FROM = Date.parse("2026-12-06T00:00:00Z");
const TO = Date.parse("2026-12-20T00:00:00Z");

const answer = (...objects: string[]) =>
  `<?xml version="1.0"?>\n<d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav">${objects
    .map(
      (object, index) =>
        `<d:response><d:href>/c/${index}.ics</d:href><d:propstat><d:prop><cal:calendar-data>${object}</cal:calendar-data></d:prop></d:propstat></d:response>`,
    )
    .join("")}</d:multistatus>`;
const calendar = (...lines: string[]) =>
  ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//T//T//EN", ...lines, "END:VCALENDAR"].join("\r\n");
const event = (uid: string, ...lines: string[]) =>
  ["BEGIN:VEVENT", `UID:${uid}`, "DTSTAMP:20261201T000000Z", ...lines, "END:VEVENT"].join("\r\n");
const utc = (text: string) => Date.parse(text);

it("expands a weekly series with an EXDATE and a moved occurrence, skipping a cancelled one", () => {
  const result = kit.busyFromAnswer(
    answer(
      calendar(
        event(
          "series",
          "DTSTART:20261207T090000Z",
          "DTEND:20261207T100000Z",
          "RRULE:FREQ=WEEKLY;COUNT=4",
          "EXDATE:20261214T090000Z",
        ),
        event(
          "series",
          "RECURRENCE-ID:20261221T090000Z",
          "DTSTART:20261221T120000Z",
          "DTEND:20261221T130000Z",
        ),
        event(
          "series",
          "RECURRENCE-ID:20261228T090000Z",
          "DTSTART:20261228T090000Z",
          "DTEND:20261228T100000Z",
          "STATUS:CANCELLED",
        ),
      ),
    ),
    FROM,
    Date.parse("2027-01-10T00:00:00Z"),
  );
  expect(result).toEqual({
    ok: true,
    busy: [
      { start: utc("2026-12-07T09:00:00Z"), end: utc("2026-12-07T10:00:00Z") },
      { start: utc("2026-12-21T12:00:00Z"), end: utc("2026-12-21T13:00:00Z") },
    ],
  });
});

it("reads zones the calendar defines as instants, and floating times and dates as wall times", () => {
  const result = kit.busyFromAnswer(
    answer(
      calendar(
        "BEGIN:VTIMEZONE",
        "TZID:Custom/Plus2",
        "BEGIN:STANDARD",
        "DTSTART:19700101T000000",
        "TZOFFSETFROM:+0200",
        "TZOFFSETTO:+0200",
        "END:STANDARD",
        "END:VTIMEZONE",
        event(
          "defined",
          "DTSTART;TZID=Custom/Plus2:20261208T120000",
          "DTEND;TZID=Custom/Plus2:20261208T130000",
        ),
        event("floating", "DTSTART:20261209T120000", "DTEND:20261209T130000"),
        event("all-day", "DTSTART;VALUE=DATE:20261210", "DTEND;VALUE=DATE:20261211"),
        event("free", "DTSTART:20261211T120000Z", "DTEND:20261211T130000Z", "TRANSP:TRANSPARENT"),
        event("m1@clausebridge", "DTSTART:20261211T140000Z", "DTEND:20261211T150000Z"),
      ),
    ),
    FROM,
    TO,
  );
  expect(result).toEqual({
    ok: true,
    busy: [
      { start: utc("2026-12-08T10:00:00Z"), end: utc("2026-12-08T11:00:00Z") },
      { start: { wall: "2026-12-09T12:00", zone: null }, end: { wall: "2026-12-09T13:00", zone: null } },
      { start: { wall: "2026-12-10T00:00", zone: null }, end: { wall: "2026-12-11T00:00", zone: null } },
    ],
  });
});

it("decodes escaped and CDATA calendar data, and refuses what is not CalDAV or not iCalendar", () => {
  const text = calendar(event("a&b", "DTSTART:20261208T120000Z", "DTEND:20261208T130000Z"));
  const escaped = text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  expect(kit.busyFromAnswer(answer(escaped), FROM, TO)).toMatchObject({ ok: true, busy: [{}] });
  expect(kit.busyFromAnswer(answer(`<![CDATA[${text}]]>`), FROM, TO)).toMatchObject({ ok: true, busy: [{}] });
  expect(kit.busyFromAnswer("<html><body>Sign in</body></html>", FROM, TO)).toEqual({
    ok: false,
    error: "The answer is not a CalDAV multistatus.",
  });
  for (const broken of ["BEGIN:VCALENDAR\r\nthis is not: a calendar\r\nEND:VCALENDAR", "hello"])
    expect(kit.busyFromAnswer(answer(broken), FROM, TO)).toEqual({
      ok: false,
      error: "The calendar returned an event that is not valid iCalendar.",
    });
});

it("stops a rule that repeats every minute for decades at its step limit, off the event loop", async () => {
  const result = await parseBusyAnswer(
    answer(
      calendar(event("flood", "DTSTART:19700101T000000Z", "DTEND:19700101T000100Z", "RRULE:FREQ=MINUTELY")),
    ),
    FROM,
    TO,
    // The step limit is what stops it (a budget this long never runs out here).
    30_000,
  );
  expect(result).toEqual({ ok: true, busy: [] });
});
