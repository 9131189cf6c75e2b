import { DatabaseSync } from "node:sqlite";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { signIn } from "./support/accounts.ts";
import { baseUrl, expectNoA11yViolations, MOBILE, setupBrowser } from "./support/browser.ts";
import { openSignedIn, pathOf } from "./support/pages.ts";

// Issue 34: a salesperson sets when prospects can book them on the Availability page, with
// JavaScript and without; what the e2e server stored is read from its own SQLite file. Bad hours
// get the field's message and change nothing; another person's availability stays theirs.

setupBrowser();

const PASSWORD = "availability e2e passphrase";

type ProfileRow = { time_zone: string; weekly_hours: string; days_off: string; max_per_day: number };

function storedProfile(userId: number): ProfileRow | undefined {
  const db = new DatabaseSync(inject("databaseUrl"), { readOnly: true });
  try {
    return db
      .prepare(
        "select time_zone, weekly_hours, days_off, max_per_day from booking_profiles where user_id = ?",
      )
      .get(userId) as ProfileRow | undefined;
  } finally {
    db.close();
  }
}

async function salesperson(name: string): Promise<{ id: number; cookie: string }> {
  const username = `${name}-${Date.now().toString(36)}`;
  const database = openDatabase(inject("databaseUrl"), { poolSize: 1 });
  let id: number;
  try {
    id = (await createUser(database.db, { username, password: PASSWORD, role: "sales" })).id;
  } finally {
    await database.close();
  }
  return { id, cookie: await signIn(baseUrl, username, PASSWORD) };
}

const saved = (page: Page) => page.getByText("Availability saved.").waitFor();

describe.each([false, true])("the Availability page (JavaScript %s)", (javaScript) => {
  let person: { id: number; cookie: string };
  beforeAll(async () => {
    person = await salesperson(`avail-${javaScript}`);
  });

  it("starts on the defaults and saves the hours, zone, days off and limits typed", {
    timeout: 60_000,
  }, async () => {
    const { page, close } = await openSignedIn("/admin/availability", { javaScript }, person.cookie);
    await page.getByRole("heading", { level: 1, name: "Availability" }).waitFor();
    await page
      .getByText("You are on the default hours: Monday to Friday, 09:00 to 17:00 London time.")
      .waitFor();
    expect(await page.getByRole("checkbox", { name: "Friday" }).isChecked()).toBe(true);
    expect(await page.getByRole("checkbox", { name: "Saturday" }).isChecked()).toBe(false);

    await page.getByLabel("Time zone of these hours").selectOption("America/New_York");
    await page.getByLabel("Monday: from").fill("10:00");
    await page.getByLabel("Monday: to").fill("12:00");
    await page.getByLabel("Monday (second period): from").fill("13:00");
    await page.getByLabel("Monday (second period): to").fill("16:00");
    await page.getByRole("checkbox", { name: "Friday" }).uncheck();
    await page.getByLabel("Dates with no meetings").fill("2026-12-24\n2026-12-31");
    await page.getByLabel("Most meetings in a day").fill("5");
    await page.getByRole("button", { name: "Save availability" }).click();
    await saved(page);

    const row = storedProfile(person.id);
    expect(row).toMatchObject({ time_zone: "America/New_York", max_per_day: 5 });
    const hours = JSON.parse(row?.weekly_hours ?? "{}");
    expect(hours.mon).toEqual([
      { start: "10:00", end: "12:00" },
      { start: "13:00", end: "16:00" },
    ]);
    expect(hours.fri).toEqual([]);
    expect(hours.tue).toEqual([{ start: "09:00", end: "17:00" }]);
    expect(JSON.parse(row?.days_off ?? "[]")).toEqual(["2026-12-24", "2026-12-31"]);
    // What was saved is what the page shows again.
    expect(await page.getByLabel("Monday (second period): to").inputValue()).toBe("16:00");
    expect(await page.getByRole("checkbox", { name: "Friday" }).isChecked()).toBe(false);
    if (javaScript) await expectNoA11yViolations(page);
    await close();
  });

  it("says what is wrong with hours that end before they start, and changes nothing", {
    timeout: 60_000,
  }, async () => {
    const before = storedProfile(person.id);
    // The browser reports the 400 answer in its console.
    const { page, close } = await openSignedIn(
      "/admin/availability",
      { javaScript, allowConsoleErrors: [/400/] },
      person.cookie,
    );
    await page.getByLabel("Tuesday: from").fill("17:00");
    await page.getByLabel("Tuesday: to").fill("09:00");
    await page.getByRole("button", { name: "Save availability" }).click();
    await page.getByText("Nothing was saved: correct the fields marked below and save again.").waitFor();
    await page.getByText("Each period must end after it starts.").waitFor();
    expect(await page.getByLabel("Tuesday: to").getAttribute("aria-invalid")).toBe("true");
    // What was typed stays, to correct.
    expect(await page.getByLabel("Tuesday: from").inputValue()).toBe("17:00");
    expect(storedProfile(person.id)).toEqual(before);
    await close();
  });
});

describe("someone else's availability", () => {
  it("stays theirs for a colleague, and opens for an admin", { timeout: 60_000 }, async () => {
    const colleague = await salesperson("avail-colleague");
    const other = await salesperson("avail-other");
    const { page, close } = await openSignedIn(
      `/admin/availability?user=${other.id}`,
      { allowConsoleErrors: [/403/] },
      colleague.cookie,
    );
    // A salesperson lands on their own page; the API refuses them another's.
    expect(pathOf(page)).toBe("/admin/availability");
    await page.getByText("You are on the default hours").waitFor();
    const refused = await page.evaluate(
      async (id) => (await fetch(`/api/admin/availability?userId=${id}`)).status,
      other.id,
    );
    expect(refused).toBe(403);
    await close();

    const adminCookie = await signIn(baseUrl, inject("adminUsername"), inject("adminPassword"));
    const opened = await openSignedIn(`/admin/availability?user=${other.id}`, {}, adminCookie);
    await opened.page.getByText(/ is on the default hours/).waitFor();
    await opened.page.getByLabel("Most meetings in a day").fill("3");
    await opened.page.getByRole("button", { name: "Save availability" }).click();
    await saved(opened.page);
    expect(storedProfile(other.id)).toMatchObject({ max_per_day: 3 });
    await opened.close();
  });
});

describe("the Availability page on a phone", () => {
  it("fits 375 px without sideways scrolling", { timeout: 60_000 }, async () => {
    const person = await salesperson("avail-phone");
    const { page, close } = await openSignedIn("/admin/availability", { ...MOBILE }, person.cookie);
    await page.getByRole("heading", { level: 1, name: "Availability" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: ".ci-artifacts/availability-375.png", fullPage: true });
    const wide = await openSignedIn("/admin/availability", {}, person.cookie);
    await wide.page.screenshot({ path: ".ci-artifacts/availability-1280.png", fullPage: true });
    await wide.close();
    await close();
  });
});
