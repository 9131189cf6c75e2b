import ICAL from "ical.js";
import { expect, it } from "vitest";
import { invitationText } from "./invitation.server.ts";

const base = {
  method: "REQUEST" as const,
  uid: "3f1c@clausebridge",
  sequence: 2,
  start: Date.parse("2026-12-08T10:00:00Z"),
  end: Date.parse("2026-12-08T10:30:00Z"),
  stamp: Date.parse("2026-12-07T08:00:00Z"),
  summary: "Product demo: Clausebridge and O'Brien, Sons; Partners",
  description: `To reschedule or cancel: https://www.clausebridge.test/meetings/manage/1.0.${"x".repeat(22)}`,
  organizer: { name: "ada", email: "ada@clausebridge.test" },
  attendee: { name: 'Eve "The Builder" Smith, Jr', email: "eve@example.com" },
};

it("writes an RFC 5545 request: CRLF, folded lines, UTC times, one event with its UID and SEQUENCE", () => {
  const text = invitationText(base);
  expect(text.split("\r\n").every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
  expect(text).toContain("DTSTART:20261208T100000Z\r\n");
  const calendar = ICAL.Component.fromString(text);
  expect(calendar.getFirstPropertyValue("method")).toBe("REQUEST");
  const events = calendar.getAllSubcomponents("vevent");
  expect(events).toHaveLength(1);
  const event = events[0] as ICAL.Component;
  expect(event.getFirstPropertyValue("uid")).toBe(base.uid);
  expect(event.getFirstPropertyValue("sequence")).toBe(2);
  expect(event.getFirstPropertyValue("summary")).toBe(base.summary);
  expect(event.getFirstPropertyValue("description")).toBe(base.description);
  expect(event.getFirstProperty("attendee")?.getParameter("cn")).toBe("Eve The Builder Smith, Jr");
});

it("keeps text a visitor typed inside its property: no line of it starts a property of its own", () => {
  const text = invitationText({
    ...base,
    summary: "Demo\r\nATTENDEE:mailto:attacker@example.com",
    attendee: { name: "Eve\r\nORGANIZER:mailto:x@example.com", email: "eve@example.com" },
  });
  const event = ICAL.Component.fromString(text).getFirstSubcomponent("vevent") as ICAL.Component;
  expect(event.getAllProperties("attendee")).toHaveLength(1);
  expect(event.getAllProperties("organizer")).toHaveLength(1);
  expect(event.getFirstPropertyValue("organizer")).toBe("mailto:ada@clausebridge.test");
  expect(text).not.toMatch(/\r\nATTENDEE:mailto:attacker/);
});

it("cancels with METHOD:CANCEL and STATUS:CANCELLED", () => {
  const calendar = ICAL.Component.fromString(invitationText({ ...base, method: "CANCEL" }));
  expect(calendar.getFirstPropertyValue("method")).toBe("CANCEL");
  expect(calendar.getFirstSubcomponent("vevent")?.getFirstPropertyValue("status")).toBe("CANCELLED");
});
