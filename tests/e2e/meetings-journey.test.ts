import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ICAL from "ical.js";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { calendarKey } from "../../app/features/meetings/caldav/calendar-connections.server.ts";
import { sealSecret } from "../../app/lib/sealed-secret.server.ts";
import {
  mimePart,
  type ReceivedMail,
  startTestSmtp,
  type TestSmtp,
} from "../../app/lib/testing/test-smtp.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { parseWithPythonIcalendar } from "../support/python-icalendar.ts";
import { type Radicale, startRadicale } from "../support/radicale.ts";
import { signIn } from "./support/accounts.ts";
import { openPage, setupBrowser } from "./support/browser.ts";
import { cookiesFor } from "./support/pages.ts";

// Issue 34's whole journey, in Chromium against a production server with a real mail server and the
// host's real CalDAV calendar (Radicale on loopback): a visitor requests a demo (JavaScript on, then
// off), picks a time on the thank-you panel, receives the e-mail whose invitation parses with ical.js
// and Python's icalendar; the event is in the host's calendar; the visitor moves it, then cancels it,
// and the calendar follows; the host sees it in Meetings and on the lead's timeline.

setupBrowser();

const ADMIN = { username: "journey-host", password: "journey host passphrase" };
const HOST_EMAIL = "host@clausebridge.test";
const APP_SECRET = "journey-app-secret-0123456789abcdef0123";
const CALENDAR_USER = "host";
const CALENDAR_PASSWORD = "radicale app password";
const WAIT_MS = 20_000;

let server: RunningServer;
let smtp: TestSmtp;
let radicale: Radicale;
let calendarUrl: string;
let database: AppDatabase;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "meetings-journey-"));
  const url = join(dir, "journey.sqlite");
  smtp = await startTestSmtp();
  radicale = await startRadicale();
  radicale.addUser(CALENDAR_USER, CALENDAR_PASSWORD);
  calendarUrl = await radicale.makeCalendar(CALENDAR_USER, CALENDAR_PASSWORD, "work");
  server = await startServer({
    DATABASE_URL: url,
    APP_SECRET,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LEAD_MIN_FILL_SECONDS: "0",
    SMTP_URL: smtp.url,
    LEAD_NOTIFICATION_TO: "sales@clausebridge.test",
    MAIL_FROM: "Clausebridge <no-reply@clausebridge.test>",
    // Radicale listens on loopback: the outbound policy lets calendars reach it only with this.
    CALDAV_ALLOW_PRIVATE_TARGETS: "true",
    LOG_LEVEL: "error",
  });
  // The host (the only admin, so every demo is theirs) with an address and their calendar connected,
  // its app password sealed as the connect page stores it.
  database = openDatabase(url, { poolSize: 1 });
  const host = await database.db
    .selectFrom("users")
    .select("id")
    .where("username", "=", ADMIN.username)
    .executeTakeFirstOrThrow();
  await database.db.updateTable("users").set({ email: HOST_EMAIL }).where("id", "=", host.id).execute();
  const now = new Date().toISOString();
  await database.db
    .insertInto("calendarConnections")
    .values({
      userId: host.id,
      url: calendarUrl,
      username: CALENDAR_USER,
      passwordSealed: sealSecret(CALENDAR_PASSWORD, calendarKey(APP_SECRET)),
      connectedAt: now,
    })
    .execute();
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await database?.close();
  await radicale?.stop();
  await smtp?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function until<T>(what: string, read: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Waited ${WAIT_MS / 1000} s for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The text/calendar part of a mail, decoded. */
function calendarPart(mail: ReceivedMail): string {
  const part = mimePart(mail.raw, "text/calendar");
  if (!part) throw new Error(`no invitation in "${mail.subject}"`);
  return part.content;
}

async function mailTo(address: string, subject: RegExp): Promise<ReceivedMail> {
  return until(`a mail to ${address} (${subject})`, () =>
    smtp.received.find((mail) => mail.to.includes(address) && subject.test(mail.subject)),
  );
}

async function hostEvents(): Promise<{ uid: string; start: string }[]> {
  const events = await radicale.listEvents(calendarUrl, CALENDAR_USER, CALENDAR_PASSWORD);
  return events.map(({ text }) => {
    const event = new ICAL.Component(ICAL.parse(text)).getFirstSubcomponent("vevent");
    return {
      uid: String(event?.getFirstPropertyValue("uid")),
      start: String(event?.getFirstPropertyValue("dtstart")),
    };
  });
}

async function requestDemo(page: Page, email: string) {
  const form = page.locator("form#demo-form");
  for (const [label, value] of Object.entries({
    "Full Name": "Nadia Haddad",
    Email: email,
    Company: "Haddad Developments",
    Phone: "+44 7700 900321",
  }))
    await form.getByRole("textbox", { name: label, exact: true }).fill(value);
  await form.getByRole("button", { name: "Submit Request" }).click();
}

describe.each([true, false])("the whole journey (JavaScript %s)", (javaScript) => {
  it("books from the thank-you panel, e-mails the invitation, writes the host's calendar, follows a move and a cancellation", {
    timeout: 120_000,
  }, async () => {
    const email = `journey-${javaScript}-${Date.now()}@example.com`;
    const visitor = await openPage(`${server.url}/demo`, {
      javaScript,
      timezoneId: "America/New_York",
      allowConsoleErrors: [/410/],
    });
    const { page } = visitor;
    await requestDemo(page, email);
    const panel = page.locator("#demo-form-thanks");
    await panel.getByRole("heading", { name: "Pick a time for your demo now" }).waitFor();
    const start = await panel.locator('input[name="start"]').first().inputValue();
    await panel.locator(`label:has(input[value="${start}"])`).click();
    await panel.getByRole("button", { name: "Book this time" }).click();
    if (javaScript) {
      await panel.getByRole("link", { name: "Change or cancel this booking" }).click();
      await page.getByRole("heading", { level: 1, name: "Your product demo" }).waitFor();
    } else await page.getByText("Your meeting is booked.").waitFor();

    // The invitation, read by two calendar libraries.
    const invitation = calendarPart(await mailTo(email, /^Confirmed: Product demo/));
    const parsed = new ICAL.Component(ICAL.parse(invitation));
    expect(parsed.getFirstPropertyValue("method")).toBe("REQUEST");
    const uid = String(parsed.getFirstSubcomponent("vevent")?.getFirstPropertyValue("uid"));
    expect(await parseWithPythonIcalendar(invitation)).toMatchObject({
      method: "REQUEST",
      events: [{ uid, sequence: 0, start: start.replace(".000Z", "Z"), organizer: `mailto:${HOST_EMAIL}` }],
    });
    await mailTo(HOST_EMAIL, /^New booking: Product demo with Nadia Haddad/);
    // In the host's own calendar.
    expect(
      await until("the event in Radicale", async () => (await hostEvents()).find((e) => e.uid === uid)),
    ).toMatchObject({
      start: start.replace(".000Z", "Z"),
    });

    // Moved from the manage page: the calendar's event moves with it (same UID).
    const other = await page.locator(`input[name="start"]:not([value="${start}"])`).first().inputValue();
    await page.locator(`label:has(input[value="${other}"])`).click();
    await page.getByRole("button", { name: "Move my meeting" }).click();
    await page.getByText("Your meeting has moved.").waitFor();
    await until("the moved event", async () =>
      (await hostEvents()).find((event) => event.uid === uid && event.start === other.replace(".000Z", "Z")),
    );
    await mailTo(email, /^Updated: Product demo/);

    // Cancelled: the event leaves the calendar.
    await page.getByRole("button", { name: "Cancel this meeting" }).click();
    await page.getByRole("heading", { level: 1, name: "Meeting cancelled" }).waitFor();
    await until("the event removed", async () =>
      (await hostEvents()).some((event) => event.uid === uid) ? undefined : true,
    );
    await mailTo(email, /^Cancelled: Product demo/);
    await visitor.close();

    // The host sees it in Meetings and on the lead.
    const host = await openPage(`${server.url}/admin/login`, {});
    await host.context.addCookies(
      cookiesFor(await signIn(server.url, ADMIN.username, ADMIN.password), server.url),
    );
    await host.page.goto(`${server.url}/admin/meetings?when=upcoming&status=cancelled`);
    // Each run books its own; the first run's is also there on the second.
    await host.page.getByText(javaScript ? "1 upcoming meeting" : "2 upcoming meetings").waitFor();
    await host.page.getByText("Cancelled", { exact: true }).last().waitFor();
    // This run's meeting: the line with its attendee's address names the lead.
    const lead = host.page.getByRole("link", { name: "Nadia Haddad" });
    await host.page
      .locator("*")
      .filter({ hasText: email })
      .filter({ has: lead })
      .last()
      .getByRole("link")
      .click();
    await host.page
      .getByText(/Meeting booked: Product demo/)
      .first()
      .waitFor();
    await host.page
      .getByText(/Meeting rescheduled/)
      .first()
      .waitFor();
    await host.page
      .getByText(/Meeting cancelled/)
      .first()
      .waitFor();
    await host.close();
  });
});
