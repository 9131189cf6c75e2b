import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { MEETING_STAFF_MESSAGES } from "../../app/features/meetings/meeting-staff-http.server.ts";
import { leadRow } from "../support/lead-rows.ts";
import { signIn } from "./support/accounts.ts";
import { baseUrl, expectNoA11yViolations, MOBILE, setupBrowser } from "./support/browser.ts";
import { goto, openSignedIn, readText } from "./support/pages.ts";

// Issue 34, the staff side of meetings, against the shared e2e server: a prospect books a demo
// through the API; a signed-in staff member finds it under Meetings, follows it to the lead and
// reads the booking and the owner it gave the lead on its timeline; then records "Held" on a meeting
// whose time has passed (inserted with a start two hours ago: the server's clock is the real one),
// with JavaScript and without. Then GET /api/admin/meetings and PATCH /api/admin/meetings/:id:
// roles, validation, outcome only once started, unknown meetings.

setupBrowser();

const ADMIN = { username: inject("adminUsername"), password: inject("adminPassword") };
const RUN = Date.now().toString(36);
const PASSWORD = "meetings staff passphrase";
const SALES = `meet-sales-${RUN}`;
const MARKETING = `meet-mkt-${RUN}`;
const WAIT = { timeout: 10_000 };
const FAILED_LOAD = [/Failed to load resource/];

let database: AppDatabase;
let adminSession: string;
let salesSession: string;
let marketingSession: string;

beforeAll(async () => {
  database = openDatabase(inject("databaseUrl"), { poolSize: 1 });
  await createUser(database.db, { username: SALES, password: PASSWORD, role: "sales" });
  await createUser(database.db, { username: MARKETING, password: PASSWORD, role: "marketing" });
  [adminSession, salesSession, marketingSession] = await Promise.all([
    signIn(baseUrl, ADMIN.username, ADMIN.password),
    signIn(baseUrl, SALES, PASSWORD),
    signIn(baseUrl, MARKETING, PASSWORD),
  ]);
});

afterAll(async () => {
  if (!database) return;
  if (ownMeetings.length > 0)
    await database.db.deleteFrom("meetings").where("id", "in", ownMeetings).execute();
  // Other suites' bookings may have gone to the sales account (every sales account hosts): it is
  // disabled, so it hosts no more, rather than deleted from under them.
  await database.db
    .updateTable("users")
    .set({ disabled: 1 })
    .where("username", "in", [SALES, MARKETING])
    .execute();
  await database.close();
});

/** Meetings this file made, deleted at its end. */
const ownMeetings: number[] = [];

type Slot = { start: string; end: string };

/** Books a demo through the public API at one of the open times (another suite may take one first). */
async function bookDemo(
  name: string,
  email: string,
): Promise<{ id: number; start: string; hostName: string }> {
  const slots = (await (
    await fetch(`${baseUrl}/api/meetings/slots?type=demo&days=21&timeZone=Europe/London`, {
      headers: { "X-Forwarded-For": "198.51.100.201" },
    })
  ).json()) as { slots: Slot[] };
  // From the later ones, so this suite and the booking journeys rarely want the same time.
  const offered = slots.slots.slice(-40);
  for (let attempt = 0; attempt < 10; attempt++) {
    const slot = offered[Math.floor(Math.random() * offered.length)];
    if (!slot) break;
    const response = await fetch(`${baseUrl}/api/meetings`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Forwarded-For": "198.51.100.202" },
      body: JSON.stringify({
        type: "demo",
        start: slot.start,
        fullName: name,
        email,
        company: "Meeting Staff Test Ltd",
        phone: "+44 7700 900555",
      }),
    });
    if (response.status === 201) {
      const booked = (await response.json()) as { id: number; hostName: string };
      ownMeetings.push(booked.id);
      return { ...booked, start: slot.start };
    }
    if (response.status !== 409)
      throw new Error(`booking answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  }
  throw new Error("no open demo time could be booked");
}

/**
 * A demo with its lead, hosted by `hostUsername`, that started two hours ago (inserted: no API books
 * the past), or with `hoursAhead` that starts then.
 */
async function insertPastMeeting(
  name: string,
  hostUsername: string,
  hoursAhead = -2,
): Promise<{ meetingId: number; leadId: number }> {
  const db = database.db;
  const host = await db
    .selectFrom("users")
    .select("id")
    .where("username", "=", hostUsername)
    .executeTakeFirstOrThrow();
  const type = await db
    .selectFrom("meetingTypes")
    .select("id")
    .where("slug", "=", "demo")
    .executeTakeFirstOrThrow();
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${RUN}@example.com`;
  const lead = await db
    .insertInto("leads")
    .values(leadRow({ fullName: name, email, company: "Past Meeting Ltd", ownerId: host.id }))
    .returning("id")
    .executeTakeFirstOrThrow();
  const start = new Date(Math.floor((Date.now() + hoursAhead * 3_600_000) / 300_000) * 300_000);
  const now = new Date().toISOString();
  const meeting = await db
    .insertInto("meetings")
    .values({
      typeId: type.id,
      hostId: host.id,
      leadId: lead.id,
      status: "booked",
      startAt: start.toISOString(),
      endAt: new Date(start.getTime() + 30 * 60_000).toISOString(),
      uid: `past-${RUN}-${Math.random().toString(36).slice(2)}@clausebridge`,
      fullName: name,
      email,
      company: "Past Meeting Ltd",
      phone: null,
      timeZone: "Europe/London",
      source: "api",
      createdAt: now,
      updatedAt: now,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  ownMeetings.push(Number(meeting.id));
  return { meetingId: Number(meeting.id), leadId: Number(lead.id) };
}

const api = (path: string, session: string | null, init: RequestInit = {}) =>
  fetch(`${baseUrl}${path}`, {
    ...init,
    headers: {
      ...(session ? { Cookie: session } : {}),
      ...(init.body ? { "Content-Type": "application/json" } : {}),
      ...init.headers,
    },
  });
const patch = (
  id: number | string,
  body: unknown,
  session = adminSession,
  headers: Record<string, string> = {},
) =>
  api(`/api/admin/meetings/${id}`, session, {
    method: "PATCH",
    body: typeof body === "string" ? body : JSON.stringify(body),
    headers,
  });

describe("the Meetings page", () => {
  it("lists a booked demo with its lead, whose timeline shows the booking and the host as owner", {
    timeout: 90_000,
  }, async () => {
    const name = `Noor Haddad ${RUN}`;
    const booked = await bookDemo(name, `noor.${RUN}@example.com`);
    const { page, close } = await openSignedIn(
      "/admin/meetings",
      { allowConsoleErrors: FAILED_LOAD },
      adminSession,
    );
    await page.getByRole("heading", { level: 1, name: "Meetings" }).waitFor(WAIT);
    // In the app shell's navigation, marked as the current page.
    await page.getByRole("link", { name: "Meetings", exact: true }).first().waitFor(WAIT);
    // Only this host's meetings: the filter is a plain GET form.
    await page.getByLabel("Host", { exact: true }).selectOption({ label: booked.hostName });
    await page.getByRole("button", { name: "Show meetings" }).click();
    await page.waitForURL(/host=\d+/, WAIT);
    const row = page.getByRole("listitem").filter({ hasText: name });
    // A busy host's later meetings may be on a later page: walk the pages until it shows.
    while (!(await row.count())) {
      const next = page.getByRole("link", { name: "Next" });
      if (!(await next.count())) break;
      await next.click();
      await page.waitForURL(/page=\d+/, WAIT);
    }
    const text = await readText(row);
    expect(text).toContain("Product demo");
    expect(text).toContain("Booked");
    expect(text).toContain("Meeting Staff Test Ltd");
    expect(text).toContain(`Host ${booked.hostName}`);
    // An upcoming meeting has no outcome to record yet.
    expect(await row.getByRole("button", { name: "Held" }).count()).toBe(0);
    await expectNoA11yViolations(page);

    await row.getByRole("link", { name }).click();
    await page.waitForURL(/\/admin\/leads\/\d+$/, WAIT);
    const timeline = page.getByRole("region", { name: "Timeline" });
    await timeline.getByText("Meeting booked").waitFor(WAIT);
    const entries = await readText(timeline);
    expect(entries).toMatch(
      new RegExp(
        `Meeting booked: Product demo with ${booked.hostName}, \\w{3} \\d{1,2}, \\d{4}, \\d{1,2}:\\d{2} [AP]M`,
      ),
    );
    expect(entries).toContain(`Assigned to ${booked.hostName}, who hosts its meeting`);
    await timeline.screenshot({ path: ".ci-artifacts/meetings-lead-timeline.png" });
    expect(await page.locator("#lead-owner option:checked").textContent()).toBe(booked.hostName);
    await close();
    // Its host may be another suite's account, which that suite deletes at its end: gone now.
    await database.db.deleteFrom("meetings").where("id", "=", booked.id).execute();
  });

  it.each([true, false])(
    "records Held on a meeting whose time has passed (JavaScript %s)",
    async (javaScript) => {
      const name = `Ines Duarte ${javaScript ? "js" : "nojs"} ${RUN}`;
      const { leadId } = await insertPastMeeting(name, SALES);
      const { page, close } = await openSignedIn(
        "/admin/meetings?when=past&host=me",
        { javaScript, allowConsoleErrors: FAILED_LOAD },
        salesSession,
      );
      const row = page.getByRole("listitem").filter({ hasText: name });
      await row.waitFor(WAIT);
      await row.getByRole("button", { name: "Held" }).click();
      await page.getByRole("status").filter({ hasText: "Recorded as held." }).waitFor(WAIT);
      expect(page.url()).toMatch(/when=past&host=me&notice=held$/);
      await row.getByText("Held", { exact: true }).waitFor(WAIT);
      expect(await row.getByRole("button").count()).toBe(0);

      await goto(page, `/admin/leads/${leadId}`, javaScript);
      const timeline = page.getByRole("region", { name: "Timeline" });
      await timeline.getByText("Meeting held").waitFor(WAIT);
      expect(await readText(timeline)).toContain(`recorded by ${SALES}`);
      await close();
    },
  );

  it("looks right at 1280 and 375 px, and says so when nothing matches", { timeout: 60_000 }, async () => {
    await insertPastMeeting(`Screenshot Person ${RUN}`, SALES);
    for (const [label, size] of [
      ["1280", {}],
      ["375", MOBILE],
    ] as const) {
      const { page, close } = await openSignedIn(
        "/admin/meetings?when=past&host=me",
        { ...size, allowConsoleErrors: FAILED_LOAD },
        salesSession,
      );
      await page
        .getByRole("listitem")
        .filter({ hasText: `Screenshot Person ${RUN}` })
        .waitFor(WAIT);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        await page.evaluate(() => window.innerWidth),
      );
      await page.screenshot({ path: `.ci-artifacts/meetings-${label}.png`, fullPage: true });
      await goto(page, "/admin/meetings?when=past&status=no_show&host=me");
      await page.getByText("No past meetings match these filters.").waitFor(WAIT);
      await page.screenshot({ path: `.ci-artifacts/meetings-empty-${label}.png`, fullPage: true });
      await close();
    }
  });

  it("shows an erased person's meetings without their details, the one to come cancelled", {
    timeout: 60_000,
  }, async () => {
    const name = `Erased Person ${RUN}`;
    const past = await insertPastMeeting(name, SALES);
    const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${RUN}@example.com`;
    const upcoming = await bookDemo(name, email);
    // The person asks to be erased (Issue 13's erasure, which now covers their meetings).
    const erased = await api(
      `/api/admin/people?email=${encodeURIComponent(email)}&reason=Asked`,
      adminSession,
      {
        method: "DELETE",
        headers: { Origin: baseUrl },
      },
    );
    expect(erased.status).toBe(204);

    const listed = async (when: string) =>
      (await (await api(`/api/admin/meetings?when=${when}&pageSize=500`, adminSession)).json()) as {
        id: number;
      }[];
    const cleared = { fullName: "", company: "", email: "", leadId: null, erased: true };
    expect((await listed("upcoming")).find((meeting) => meeting.id === upcoming.id)).toMatchObject({
      ...cleared,
      status: "cancelled",
    });
    expect((await listed("past")).find((meeting) => meeting.id === past.meetingId)).toMatchObject({
      ...cleared,
      status: "booked",
    });

    for (const [label, size] of [
      ["1280", {}],
      ["375", MOBILE],
    ] as const) {
      const { page, close } = await openSignedIn(
        "/admin/meetings?when=past&host=me",
        { ...size, allowConsoleErrors: FAILED_LOAD },
        salesSession,
      );
      await page.getByText("Attendee's details erased").first().waitFor(WAIT);
      expect(await readText(page.getByRole("main"))).not.toContain(name);
      await page.screenshot({ path: `.ci-artifacts/meetings-erased-${label}.png`, fullPage: true });
      await close();
    }
  });

  it("is not offered to marketing, and sends them home", async () => {
    const response = await api("/admin/meetings", marketingSession, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
  });
});

describe("GET /api/admin/meetings and PATCH /api/admin/meetings/:id", () => {
  it("lists meetings for admin and sales only, with the total, and names a bad parameter", async () => {
    const { meetingId, leadId } = await insertPastMeeting(`Listed Person ${RUN}`, SALES);
    expect((await api("/api/admin/meetings", null)).status).toBe(401);
    const refused = await api("/api/admin/meetings", marketingSession);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ message: "Your role does not allow this." });

    const listed = await api("/api/admin/meetings?when=past&host=me&pageSize=500", salesSession);
    expect(listed.status).toBe(200);
    const meetings = (await listed.json()) as { id: number }[];
    expect(Number(listed.headers.get("x-total-count"))).toBeGreaterThanOrEqual(1);
    expect(meetings.find((meeting) => meeting.id === meetingId)).toMatchObject({
      type: "demo",
      typeName: "Product demo",
      status: "booked",
      hostName: SALES,
      fullName: `Listed Person ${RUN}`,
      company: "Past Meeting Ltd",
      email: expect.stringContaining("@example.com"),
      leadId,
    });
    expect(
      (await (await api("/api/admin/meetings?when=past", adminSession)).json()) as unknown[],
    ).not.toEqual([]);

    for (const [query, message] of [
      ["when=yesterday", 'Invalid when: use "upcoming" or "past"'],
      ["status=lost", "Invalid status: one of booked, cancelled, held, no_show"],
      ["host=someone", `Invalid host: a staff member's id or "me"`],
      ["pageSize=501", "Invalid pageSize: from 1 to 500"],
      ["page=0", "Invalid page"],
    ]) {
      const response = await api(`/api/admin/meetings?${query}`, adminSession);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { message: string }).message).toContain(message);
    }
  });

  it("records an outcome once a meeting has started, and refuses the rest with a clear 4xx", async () => {
    const past = await insertPastMeeting(`Outcome Person ${RUN}`, SALES);
    const upcoming = await insertPastMeeting(`Future Person ${RUN}`, SALES, 26);

    expect((await patch(past.meetingId, { outcome: "held" }, "")).status).toBe(401);
    expect((await patch(past.meetingId, { outcome: "held" }, marketingSession)).status).toBe(403);
    // A browser's cross-site request is refused before anything is read.
    expect(
      (await patch(past.meetingId, { outcome: "held" }, salesSession, { "Sec-Fetch-Site": "cross-site" }))
        .status,
    ).toBe(403);
    for (const body of [{ outcome: "maybe" }, {}, { outcome: "held", note: "extra" }]) {
      const response = await patch(past.meetingId, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toEqual({
        message: MEETING_STAFF_MESSAGES.outcome,
        errors: { outcome: MEETING_STAFF_MESSAGES.outcome },
      });
    }
    for (const body of ["{", "[]"]) expect((await patch(past.meetingId, body)).status, body).toBe(400);
    for (const id of [999_999_999, "abc", 0]) {
      const response = await patch(id, { outcome: "held" });
      expect(response.status, String(id)).toBe(404);
      expect(await response.json()).toEqual({ message: MEETING_STAFF_MESSAGES.notFound });
    }
    const early = await patch(upcoming.meetingId, { outcome: "no_show" });
    expect(early.status).toBe(409);
    expect(await early.json()).toEqual({ message: MEETING_STAFF_MESSAGES.notStarted });

    const stored = async (id: number) =>
      (
        await database.db
          .selectFrom("meetings")
          .select("status")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).status;
    expect(await stored(past.meetingId)).toBe("booked");
    expect(await stored(upcoming.meetingId)).toBe("booked");

    const held = await patch(past.meetingId, { outcome: "no_show" }, salesSession);
    expect(held.status).toBe(200);
    expect(await held.json()).toMatchObject({ id: past.meetingId, status: "no_show", leadId: past.leadId });
    expect(await stored(past.meetingId)).toBe("no_show");
    const lead = (await (await api(`/api/admin/leads/${past.leadId}`, adminSession)).json()) as {
      timeline: { kind: string; change?: string; actor: string | null }[];
    };
    expect(lead.timeline[0]).toMatchObject({ kind: "meeting", change: "no_show", actor: SALES });

    // Cancelled: no outcome, however late.
    await database.db
      .updateTable("meetings")
      .set({ status: "cancelled" })
      .where("id", "=", past.meetingId)
      .execute();
    const cancelled = await patch(past.meetingId, { outcome: "held" });
    expect(cancelled.status).toBe(409);
    expect(await cancelled.json()).toEqual({ message: MEETING_STAFF_MESSAGES.cancelled });
  });
});
