import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ICAL from "ical.js";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { bookMeeting, findMeetingType } from "../../app/features/meetings/meeting-store.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { type Radicale, startRadicale } from "../support/radicale.ts";
import { signIn } from "./support/accounts.ts";
import { expectNoA11yViolations, launchTestBrowser, waitForHydration } from "./support/browser.ts";
import { cookiesFor } from "./support/pages.ts";

// Issue 34: a salesperson connects their CalDAV calendar (a real Radicale on 127.0.0.1) on the
// Availability page, sees how it is doing, refreshes it, reads the failure when it breaks, and
// disconnects it; all plain form posts, so without JavaScript too. Their private feed downloads a
// calendar holding their booked meeting, and a reset makes the old link 404. An admin sets a
// colleague's e-mail address on the staff page, a person their own on their account page. The
// server is one of this file's own, started with CALDAV_ALLOW_PRIVATE_TARGETS=true.

const PASSWORD = "calendar e2e passphrase";
const ADMIN = { username: "cal-admin", password: "calendar e2e admin passphrase" };
const APP_PASSWORD = "radicale-app-password-1";
const WAIT = { timeout: 15_000 };

let dir: string;
let server: RunningServer;
let database: AppDatabase;
let radicale: Radicale;
let browser: Browser;

async function salesperson(username: string): Promise<{ id: number; session: string }> {
  const { id } = await createUser(database.db, { username, password: PASSWORD, role: "sales" });
  return { id, session: await signIn(server.url, username, PASSWORD) };
}

async function open(
  path: string,
  session: string,
  { javaScript = true, width = 1280, allowConsoleErrors = [] as RegExp[] } = {},
) {
  const context = await browser.newContext({
    javaScriptEnabled: javaScript,
    viewport: { width, height: width === 375 ? 740 : 800 },
  });
  context.setDefaultTimeout(WAIT.timeout);
  await context.addCookies(cookiesFor(session, server.url));
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(`pageerror: ${error.message}`));
  await page.goto(`${server.url}${path}`, { waitUntil: "load" });
  if (javaScript) await waitForHydration(page);
  return {
    page,
    async close() {
      await context.close();
      const unexpected = errors.filter((text) => !allowConsoleErrors.some((allowed) => allowed.test(text)));
      expect(unexpected, `console errors on ${path}`).toEqual([]);
    },
  };
}

const section = (page: Page, name: RegExp | string) => page.getByRole("region", { name });
/** The value of a row of the calendar's facts. */
const fact = (page: Page, term: string) =>
  section(page, "Your calendar").locator(`dt:text-is("${term}") + dd`).innerText();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "calendar-e2e-"));
  const databaseUrl = join(dir, "app.sqlite");
  [server, radicale] = await Promise.all([
    startServer({
      DATABASE_URL: databaseUrl,
      LOG_LEVEL: "error",
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      CALDAV_ALLOW_PRIVATE_TARGETS: "true",
    }),
    startRadicale(),
  ]);
  database = openDatabase(databaseUrl, { poolSize: 1 });
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await database?.close();
  await server?.stop();
  await radicale?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.each([false, true])("a salesperson's calendar (JavaScript %s)", (javaScript) => {
  it("connects, shows its state, refreshes, says why it failed, and disconnects", {
    timeout: 120_000,
  }, async () => {
    const radicaleUser = `sam-${javaScript}`;
    radicale.addUser(radicaleUser, APP_PASSWORD);
    const calendarUrl = await radicale.makeCalendar(radicaleUser, APP_PASSWORD, "work");
    const person = await salesperson(`cal-sales-${javaScript}`);
    // Without JavaScript the refused connection is a page answered 400, which Chromium reports.
    const { page, close } = await open("/admin/availability", person.session, {
      javaScript,
      allowConsoleErrors: [/status of 400 \(Bad Request\)/],
    });
    const calendar = section(page, "Your calendar");
    await calendar.getByText("Use an app password").waitFor();

    // A wrong app password: the field's message, nothing stored, the URL and user name kept.
    await calendar.getByLabel("Calendar URL").fill(calendarUrl);
    await calendar.getByLabel("User name").fill(radicaleUser);
    await calendar.getByLabel("App password").fill("not-the-app-password");
    await calendar.getByRole("button", { name: "Connect calendar" }).click();
    await calendar
      .getByText("Not connected: The calendar refused this user name and app password.")
      .waitFor();
    expect(await calendar.getByLabel("Calendar URL").inputValue()).toBe(calendarUrl);
    // The server never sends a password back: a page answered without JavaScript has the field empty.
    if (!javaScript) expect(await calendar.getByLabel("App password").inputValue()).toBe("");
    expect(await page.content()).not.toContain("not-the-app-password");
    expect(
      await database.db
        .selectFrom("calendarConnections")
        .select("userId")
        .where("userId", "=", person.id)
        .execute(),
    ).toEqual([]);

    await calendar.getByLabel("App password").fill(APP_PASSWORD);
    await calendar.getByRole("button", { name: "Connect calendar" }).click();
    await page.getByText("Calendar connected.").waitFor();
    expect(await fact(page, "Calendar URL")).toBe(calendarUrl);
    expect(await fact(page, "User name")).toBe(radicaleUser);
    expect(await fact(page, "Last refreshed")).toBe("Not read yet");
    expect(await page.content()).not.toContain(APP_PASSWORD);

    await calendar.getByRole("button", { name: "Refresh now" }).click();
    await page.getByText("Calendar read just now.").waitFor();
    const refreshed = await fact(page, "Last refreshed");
    expect(refreshed).toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M$/);
    expect(await calendar.getByRole("alert").count()).toBe(0);

    // The app password is revoked at the calendar's end: the next read fails, and the page says so.
    radicale.addUser(radicaleUser, "a-new-app-password-2");
    await calendar.getByRole("button", { name: "Refresh now" }).click();
    await page.getByText("The calendar could not be read: see the warning below.").waitFor();
    const warning = await calendar.getByRole("alert").innerText();
    expect(warning).toMatch(
      /^Warning: Your calendar could not be read at \d{1,2}:\d{2} [AP]M: .+\. Times are offered from what was read at \d{1,2}:\d{2} [AP]M\.$/,
    );
    expect(warning).toContain("401");

    await calendar.getByRole("button", { name: "Disconnect" }).click();
    await page.getByText("Calendar disconnected.").waitFor();
    await calendar.getByRole("button", { name: "Connect calendar" }).waitFor();
    expect(
      await database.db
        .selectFrom("calendarConnections")
        .select("userId")
        .where("userId", "=", person.id)
        .execute(),
    ).toEqual([]);
    await close();
  });
});

it("downloads the host's feed with their booked meeting, and a reset makes the old link 404", {
  timeout: 120_000,
}, async () => {
  const person = await salesperson("cal-feed-sales");
  const type = await findMeetingType(database.db, "demo");
  if (!type) throw new Error("the migration seeds the demo type");
  // Noon UTC on a weekday at least two days ahead: inside the default hours, winter or summer.
  let start = Date.UTC(
    new Date().getUTCFullYear(),
    new Date().getUTCMonth(),
    new Date().getUTCDate() + 2,
    12,
  );
  while ([0, 6].includes(new Date(start).getUTCDay())) start += 86_400_000;
  const booked = await bookMeeting(database.db, {
    type: { ...type, hostIds: [person.id] },
    start,
    attendee: {
      fullName: "Amara Okafor",
      email: "amara@okafor-build.example",
      company: "Okafor Build Ltd",
      phone: "+44 7700 900123",
      timeZone: "Europe/London",
    },
    leadId: null,
    ownerId: null,
    source: "api",
    now: Date.now(),
  });
  if (booked.kind !== "booked") throw new Error("the time was taken");

  const { page, close } = await open("/admin/availability", person.session);
  const feed = section(page, "Calendar feed");
  const first = await feed.getByTestId("feed-url").innerText();
  expect(first).toMatch(new RegExp(`^${server.url}/meetings/feed/${person.id}\\.0\\.[\\w-]{22}\\.ics$`));
  const answer = await fetch(first);
  expect(answer.status).toBe(200);
  expect(answer.headers.get("content-type")).toBe("text/calendar; charset=utf-8");
  expect(answer.headers.get("cache-control")).toBe("private, no-store");
  const text = await answer.text();
  // The attendee's phone (+44 7700 900123) is left out. NOTE: not just "7700": a random UUID or the
  // server's port in a link may hold those four digits.
  expect(text).not.toMatch(/7700\s*900\s*123/);
  const events = ICAL.Component.fromString(text).getAllSubcomponents("vevent");
  expect(events.map((event) => event.getFirstPropertyValue("uid"))).toEqual([booked.meeting.uid]);
  expect(events[0]?.getFirstPropertyValue("summary")).toBe("Product demo: Amara Okafor (Okafor Build Ltd)");

  await feed.getByRole("button", { name: "Reset feed link" }).click();
  await page.getByText("The feed link is new: the old one no longer works.").waitFor();
  const second = await feed.getByTestId("feed-url").innerText();
  expect(second).not.toBe(first);
  const old = await fetch(first);
  expect(old.status).toBe(404);
  await old.arrayBuffer();
  const renewed = await fetch(second);
  expect(renewed.status).toBe(200);
  expect(await renewed.text()).toContain(booked.meeting.uid);

  await expectNoA11yViolations(page);
  await close();
});

it("lets an admin set a colleague's e-mail address and a person their own", {
  timeout: 120_000,
}, async () => {
  const colleague = await salesperson("cal-email-colleague");
  const admin = await signIn(server.url, ADMIN.username, ADMIN.password);
  const staff = await open("/admin/staff", admin, { allowConsoleErrors: [/status of 400 \(Bad Request\)/] });
  const row = staff.page
    .getByRole("listitem")
    .filter({ has: staff.page.getByText("cal-email-colleague", { exact: true }) });
  const field = row.getByLabel("E-mail of cal-email-colleague");
  await field.fill("two@example.com, three@example.com");
  // The browser's own check would stop a type=email field first: the server's answer is the one tested.
  await field.evaluate((input: HTMLInputElement) => input.setAttribute("type", "text"));
  await row.getByRole("button", { name: "Save e-mail of cal-email-colleague" }).click();
  await row.getByText("Enter one e-mail address such as name@example.com").waitFor();
  await field.fill("Sam.Sales@Example.COM");
  await row.getByRole("button", { name: "Save e-mail of cal-email-colleague" }).click();
  await staff.page.getByText("The e-mail address of cal-email-colleague is saved").waitFor();
  const stored = () =>
    database.db.selectFrom("users").select("email").where("id", "=", colleague.id).executeTakeFirstOrThrow();
  expect((await stored()).email).toBe("Sam.Sales@example.com");
  await staff.close();

  const account = await open("/admin/account", colleague.session);
  const own = account.page.getByLabel("E-mail address", { exact: true });
  expect(await own.inputValue()).toBe("Sam.Sales@example.com");
  await own.fill("sam@clausebridge.example");
  await account.page.getByRole("button", { name: "Save e-mail address" }).click();
  await account.page.getByText("Your e-mail address is saved").waitFor();
  expect((await stored()).email).toBe("sam@clausebridge.example");
  await account.close();

  // The API answers it and takes it.
  const users = (await (
    await fetch(`${server.url}/api/admin/users`, { headers: { Cookie: admin } })
  ).json()) as {
    id: number;
    email: string | null;
  }[];
  expect(users.find((user) => user.id === colleague.id)?.email).toBe("sam@clausebridge.example");
  const patch = (email: unknown) =>
    fetch(`${server.url}/api/admin/users/${colleague.id}`, {
      method: "PATCH",
      headers: { Cookie: admin, "Content-Type": "application/json", Origin: server.url },
      body: JSON.stringify({ email }),
    });
  const refused = await patch("a@example.com\r\nBcc: b@example.com");
  expect(refused.status).toBe(400);
  expect(await refused.json()).toMatchObject({
    errors: { email: expect.stringMatching(/^Enter one e-mail address/) },
  });
  const cleared = await patch(null);
  expect(await cleared.json()).toMatchObject({ id: colleague.id, email: null });
});

it("looks right at 1280 and 375 px", { timeout: 120_000 }, async () => {
  const person = await salesperson("cal-screens-sales");
  radicale.addUser("screens", APP_PASSWORD);
  const calendarUrl = await radicale.makeCalendar("screens", APP_PASSWORD, "work");
  /** The page whole, and the calendar and feed sections on their own (to look at them closely). */
  const shoot = async (page: Page, name: string, width: number) => {
    await page.screenshot({ path: `.ci-artifacts/${name}-${width}.png`, fullPage: true });
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("main *")]
        .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
        .map((element) => `${element.tagName}#${element.id}.${element.className}`.slice(0, 120)),
    );
    expect(wide, "elements past the window's right edge").toEqual([]);
    await section(page, "Your calendar").screenshot({ path: `.ci-artifacts/${name}-section-${width}.png` });
    await section(page, "Calendar feed").screenshot({ path: `.ci-artifacts/${name}-feed-${width}.png` });
  };
  for (const width of [1280, 375]) {
    const { page, close } = await open("/admin/availability", person.session, { width });
    await shoot(page, "calendar-connect", width);
    await close();
  }
  const { page, close } = await open("/admin/availability", person.session);
  const calendar = section(page, "Your calendar");
  await calendar.getByLabel("Calendar URL").fill(calendarUrl);
  await calendar.getByLabel("User name").fill("screens");
  await calendar.getByLabel("App password").fill(APP_PASSWORD);
  await calendar.getByRole("button", { name: "Connect calendar" }).click();
  await page.getByText("Calendar connected.").waitFor();
  await calendar.getByRole("button", { name: "Refresh now" }).click();
  await page.getByText("Calendar read just now.").waitFor();
  radicale.addUser("screens", "revoked-app-password");
  await calendar.getByRole("button", { name: "Refresh now" }).click();
  await page.getByText("The calendar could not be read").waitFor();
  await close();
  for (const width of [1280, 375]) {
    const { page, close } = await open("/admin/availability", person.session, { width });
    await shoot(page, "calendar-connected", width);
    await close();
  }
  const admin = await signIn(server.url, ADMIN.username, ADMIN.password);
  for (const width of [1280, 375]) {
    const staff = await open("/admin/staff", admin, { width });
    expect(await staff.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await staff.page.screenshot({ path: `.ci-artifacts/staff-email-${width}.png`, fullPage: true });
    await staff.page
      .getByRole("listitem")
      .filter({ has: staff.page.getByText("cal-screens-sales", { exact: true }) })
      .screenshot({ path: `.ci-artifacts/staff-email-row-${width}.png` });
    await staff.close();
    const account = await open("/admin/account", admin, { width });
    expect(await account.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(
      0,
    );
    await account.page.screenshot({ path: `.ci-artifacts/account-email-${width}.png`, fullPage: true });
    await account.close();
  }
});

it("keeps the calendar API to the person and admins, same-site and bounded", {
  timeout: 120_000,
}, async () => {
  const sam = await salesperson("cal-api-sam");
  const kim = await salesperson("cal-api-kim");
  const admin = await signIn(server.url, ADMIN.username, ADMIN.password);
  radicale.addUser("api-kim", APP_PASSWORD);
  const calendarUrl = await radicale.makeCalendar("api-kim", APP_PASSWORD, "work");
  const call = async (
    session: string,
    method: string,
    query: string,
    body?: unknown,
    origin = server.url,
  ) => {
    const response = await fetch(`${server.url}/api/admin/availability/calendar${query}`, {
      method,
      headers: { Cookie: session, "Content-Type": "application/json", Origin: origin },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const connect = { url: calendarUrl, username: "api-kim", password: APP_PASSWORD };

  // A salesperson may not see or change a colleague's calendar.
  expect((await call(sam.session, "GET", `?userId=${kim.id}`)).status).toBe(403);
  expect((await call(sam.session, "PUT", `?userId=${kim.id}`, connect)).status).toBe(403);
  expect((await call(sam.session, "DELETE", `?userId=${kim.id}`)).status).toBe(403);
  expect((await call(sam.session, "GET", "?userId=abc")).status).toBe(400);

  // Cross-site and oversized bodies are refused before anything is stored.
  expect((await call(kim.session, "PUT", "", connect, "https://evil.example")).status).toBe(403);
  expect((await call(kim.session, "PUT", "", { ...connect, password: "x".repeat(9000) })).status).toBe(413);
  expect((await call(kim.session, "GET", "")).body).toMatchObject({ userId: kim.id, calendar: null });

  // An admin connects it for them; the answer never holds the password.
  const connected = await call(admin, "PUT", `?userId=${kim.id}`, connect);
  expect(connected.status).toBe(200);
  expect(connected.body).toMatchObject({
    userId: kim.id,
    calendar: { url: calendarUrl, username: "api-kim" },
  });
  expect(JSON.stringify(connected.body)).not.toContain(APP_PASSWORD);
  const own = await call(kim.session, "GET", "");
  expect(own.body).toMatchObject({ calendar: { url: calendarUrl, lastError: null } });
  expect(own.body.feedUrl).toMatch(new RegExp(`/meetings/feed/${kim.id}\\.0\\.[\\w-]{22}\\.ics$`));

  const wrong = await call(kim.session, "PUT", "", { ...connect, password: "wrong-app-password" });
  expect(wrong).toEqual({
    status: 400,
    body: {
      message: "The calendar refused this user name and app password.",
      errors: { password: "The calendar refused this user name and app password." },
    },
  });
  expect((await call(kim.session, "DELETE", "")).body).toEqual({ userId: kim.id, disconnected: true });
  expect((await call(kim.session, "DELETE", "")).body).toEqual({ userId: kim.id, disconnected: false });
});
