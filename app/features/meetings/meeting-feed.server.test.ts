import ICAL from "ical.js";
import { beforeAll, expect, it } from "vitest";
import { createUser } from "#app/features/auth/users.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { manageToken } from "./manage-link.server.ts";
import { answerMeetingFeed, currentFeedPath, feedPath, resetFeed } from "./meeting-feed.server.ts";
import {
  type Attendee,
  bookMeeting,
  cancelMeeting,
  findMeetingType,
  type MeetingType,
} from "./meeting-store.server.ts";

// Issue 34: a host's private iCalendar feed. Monday 7 December 2026, 08:00 London (= UTC).

const SECRET = "test-secret-test-secret-test-secret";
const NOW = Date.parse("2026-12-07T08:00:00Z");
const PASSWORD = "a long enough passphrase";
const ATTENDEE: Attendee = {
  fullName: "Amara Okafor",
  email: "amara@okafor-build.example",
  company: "Okafor Build Ltd",
  phone: "+44 7700 900123",
  timeZone: "Europe/London",
};

describeEachDatabase("meeting feeds", (use) => {
  let host = 0;
  let other = 0;
  let type: MeetingType;
  const uids: Record<string, string> = {};
  const services = () => ({
    database: use(),
    secret: SECRET,
    publicUrl: "https://www.clausebridge.test",
    now: () => NOW,
  });
  const fetchFeed = (path: string) =>
    answerMeetingFeed(new Request(`http://127.0.0.1${path}`), path.split("/").pop(), services());

  const book = async (hostId: number, start: string, now: number, leadId: number | null = null) => {
    const outcome = await bookMeeting(use().db, {
      type: { ...type, hostIds: [hostId] },
      start: Date.parse(start),
      attendee: ATTENDEE,
      leadId,
      ownerId: null,
      source: "api",
      now,
    });
    if (outcome.kind !== "booked") throw new Error(`${start} was taken`);
    return outcome.meeting;
  };

  beforeAll(async () => {
    host = (await createUser(use().db, { username: "feed-host", password: PASSWORD, role: "sales" })).id;
    other = (await createUser(use().db, { username: "feed-other", password: PASSWORD, role: "sales" })).id;
    await use()
      .db.updateTable("users")
      .set({ email: "host@clausebridge.test" })
      .where("id", "=", host)
      .execute();
    const found = await findMeetingType(use().db, "demo");
    if (!found) throw new Error("the migration seeds the demo type");
    type = found;
    // 48 days before: out of the feed. 17 days before and held: in it. Today: in it.
    uids.old = (await book(host, "2026-10-20T09:00:00Z", Date.parse("2026-10-19T08:00:00Z"))).uid;
    const held = await book(host, "2026-11-20T10:00:00Z", Date.parse("2026-11-19T08:00:00Z"));
    await use().db.updateTable("meetings").set({ status: "held" }).where("id", "=", held.id).execute();
    uids.held = held.uid;
    uids.today = (await book(host, "2026-12-07T10:00:00Z", NOW)).uid;
    const cancelled = await book(host, "2026-12-08T10:00:00Z", NOW);
    await cancelMeeting(use().db, cancelled.id, NOW);
    uids.cancelled = cancelled.uid;
    uids.other = (await book(other, "2026-12-07T11:00:00Z", NOW)).uid;
  });

  it("answers the host's booked and held meetings from 30 days back, with the invitations' UIDs and no phone", async () => {
    const answer = await fetchFeed(await currentFeedPath(use().db, SECRET, host));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
    const text = await answer.text();
    expect(text).not.toContain("7700");
    const calendar = ICAL.Component.fromString(text);
    expect(calendar.getFirstPropertyValue("x-wr-calname")).toBe("Meetings of feed-host (Clausebridge)");
    const events = calendar.getAllSubcomponents("vevent");
    expect(events.map((event) => event.getFirstPropertyValue("uid"))).toEqual([uids.held, uids.today]);
    const today = events[1] as ICAL.Component;
    expect(String(today.getFirstPropertyValue("dtstart"))).toBe("2026-12-07T10:00:00Z");
    expect(today.getFirstPropertyValue("summary")).toBe("Product demo: Amara Okafor (Okafor Build Ltd)");
    expect(today.getFirstPropertyValue("description")).toBe(
      "Amara Okafor, Okafor Build Ltd\nE-mail: amara@okafor-build.example",
    );
    expect(today.getFirstPropertyValue("organizer")).toBe("mailto:host@clausebridge.test");
    expect(today.getFirstPropertyValue("attendee")).toBe("mailto:amara@okafor-build.example");
  });

  it("refuses a forged link, another purpose's token, and a link once the feed is reset (404)", async () => {
    const first = await currentFeedPath(use().db, SECRET, host);
    const forged = first.replace(/(.)\.ics$/, (_, last: string) => `${last === "A" ? "B" : "A"}.ics`);
    expect((await fetchFeed(forged)).status).toBe(404);
    expect((await fetchFeed(`/meetings/feed/${manageToken(SECRET, host)}.ics`)).status).toBe(404);
    expect((await fetchFeed(feedPath("another-secret-another-secret-12", host, 0))).status).toBe(404);
    expect((await fetchFeed("/meetings/feed/not-a-token.ics")).status).toBe(404);

    const second = await resetFeed(use().db, SECRET, host, NOW);
    expect(second).not.toBe(first);
    expect(await currentFeedPath(use().db, SECRET, host)).toBe(second);
    expect((await fetchFeed(first)).status).toBe(404);
    expect((await fetchFeed(second)).status).toBe(200);
    const third = await resetFeed(use().db, SECRET, host, NOW);
    expect((await fetchFeed(second)).status).toBe(404);
    expect((await fetchFeed(third)).status).toBe(200);
    // Another host's link is theirs alone, and a reset of one leaves the other's working.
    const theirs = await currentFeedPath(use().db, SECRET, other);
    const text = await (await fetchFeed(theirs)).text();
    expect(text).toContain(uids.other);
    expect(text).not.toContain(uids.today);
  });

  it("stops answering for a disabled account or one that no longer hosts meetings", async () => {
    const id = (await createUser(use().db, { username: "feed-leaver", password: PASSWORD, role: "sales" }))
      .id;
    const path = await currentFeedPath(use().db, SECRET, id);
    expect((await fetchFeed(path)).status).toBe(200);
    await use().db.updateTable("users").set({ role: "marketing", isAdmin: 0 }).where("id", "=", id).execute();
    expect((await fetchFeed(path)).status).toBe(404);
    await use()
      .db.updateTable("users")
      .set({ role: "sales", isAdmin: 1, disabled: 1 })
      .where("id", "=", id)
      .execute();
    expect((await fetchFeed(path)).status).toBe(404);
  });
});
