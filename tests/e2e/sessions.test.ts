import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, inject, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { signIn } from "./support/accounts.ts";
import { baseUrl, expectNoA11yViolations, MOBILE, setupBrowser } from "./support/browser.ts";
import { goto, openAccountMenu, openSignedIn, readText } from "./support/pages.ts";

// Issue 13, sessions, in Chromium against the shared e2e server: a staff member sees where they are
// signed in (browser, masked network, times), ends a session they do not recognise, ends every other
// session without JavaScript, and an admin signs them out everywhere from the staff page. Each step
// is checked where it matters: the ended session's cookie no longer opens anything.

setupBrowser();

const ADMIN = { username: inject("adminUsername"), password: inject("adminPassword") };
const RUN = Date.now().toString(36);
const WAIT = { timeout: 20_000 };
const JOURNEY_MS = 120_000;
const FAILED_LOAD = [/Failed to load resource/];
const FIREFOX_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
const SAFARI_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

const PERSON = { username: `sessions-${RUN}`, password: "sessions journey passphrase" };
let database: AppDatabase;

beforeAll(async () => {
  database = openDatabase(inject("databaseUrl"), { poolSize: 1 });
  await createUser(database.db, { ...PERSON, isAdmin: true });
});

afterAll(async () => {
  if (!database) return;
  await database.db.deleteFrom("users").where("username", "=", PERSON.username).execute();
  await database.close();
});

/** Signs in through the API as another device would, with its own User-Agent. */
const signInFrom = (userAgent: string) => signIn(baseUrl, PERSON.username, PERSON.password, userAgent);

const signedIn = async (cookie: string) =>
  (await fetch(`${baseUrl}/api/user`, { headers: { Cookie: cookie } })).status === 200;

const sessions = (page: Page) => page.getByRole("list", { name: "Sessions" }).getByRole("listitem");
const sessionRow = (page: Page, text: string) => sessions(page).filter({ hasText: text });

it(
  "lists where you are signed in and ends the session you name, with and without JavaScript",
  async () => {
    const laptop = await signIn(baseUrl, PERSON.username, PERSON.password);
    const firefox = await signInFrom(FIREFOX_WINDOWS);
    const iphone = await signInFrom(SAFARI_IPHONE);

    const here = await openSignedIn("/admin/dashboard", { allowConsoleErrors: FAILED_LOAD }, laptop);
    const { page } = here;
    // Your account is under the avatar (issue 35).
    await openAccountMenu(page);
    await page.getByRole("link", { name: "Your account" }).click();
    // The address changes as the navigation commits; the new page renders just after.
    await page.waitForURL("**/admin/account", WAIT);
    await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor(WAIT);
    // Three sessions: this one marked, each with its browser and only its network.
    await expect.poll(() => sessions(page).count(), WAIT).toBe(3);
    await expect(readText(sessionRow(page, "This browser"))).resolves.toMatch(/127\.0\.0\.x/);
    await expect(readText(sessionRow(page, "Firefox on Windows"))).resolves.toMatch(/127\.0\.0\.x/);
    await expect(readText(sessionRow(page, "Safari on iOS"))).resolves.toContain("End session");
    await expectNoA11yViolations(page);

    // Ending the Firefox session signs that browser out at once; the others stay.
    await sessionRow(page, "Firefox on Windows")
      .getByRole("button", { name: /^End session/ })
      .click();
    await page.getByRole("status").filter({ hasText: "That session has ended" }).waitFor(WAIT);
    await expect.poll(() => sessions(page).count(), WAIT).toBe(2);
    expect(await signedIn(firefox)).toBe(false);
    expect(await signedIn(iphone)).toBe(true);
    expect(await signedIn(laptop)).toBe(true);
    await here.close();

    // Without JavaScript, at phone width: "End all other sessions" keeps only this one.
    const plain = await openSignedIn("/admin/account", { javaScript: false, ...MOBILE }, laptop);
    await plain.page.getByRole("button", { name: "End all other sessions (1)" }).click();
    await plain.page.waitForURL("**/admin/account?notice=ended-others", WAIT);
    await plain.page.getByText("This is your only session.").waitFor(WAIT);
    expect(await signedIn(iphone)).toBe(false);
    expect(await signedIn(laptop)).toBe(true);
    // Nothing at 375 px is wider than the screen.
    const overflow = await plain.page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(MOBILE.width);
    await plain.close();
  },
  JOURNEY_MS,
);

it(
  "lets an admin sign a colleague out everywhere from the staff page, and records it",
  async () => {
    const colleague = [
      await signIn(baseUrl, PERSON.username, PERSON.password),
      await signInFrom(FIREFOX_WINDOWS),
    ];
    const adminSession = await signIn(baseUrl, ADMIN.username, ADMIN.password);
    const staff = await openSignedIn("/admin/staff", { allowConsoleErrors: FAILED_LOAD }, adminSession);
    await staff.page.getByRole("button", { name: `Sign out everywhere ${PERSON.username}` }).click();
    await staff.page
      .getByRole("status")
      .filter({ hasText: `${PERSON.username} is signed out everywhere` })
      .waitFor(WAIT);
    for (const cookie of colleague) expect(await signedIn(cookie)).toBe(false);
    expect(await signedIn(adminSession)).toBe(true);
    await expect(readText(staff.page.getByRole("region", { name: "Recent changes" }))).resolves.toContain(
      `${ADMIN.username} signed ${PERSON.username} out everywhere`,
    );
    // An export, then the access log shows the afternoon: the export with its filter and row count,
    // the sign-out, the sign-ins; and, filtered to exports, only the export.
    const exported = await fetch(
      `${baseUrl}/api/admin/leads/export?status=customer&q=someone%40example.com`,
      {
        headers: { Cookie: adminSession },
      },
    );
    const rows = (await exported.text()).trim().split("\n").length - 1;
    await goto(staff.page, "/admin/access-log");
    const entries = staff.page.getByRole("list", { name: "Entries" }).getByRole("listitem");
    const exportEntry = entries.filter({ hasText: /Exported \d[\d,]* leads?/ }).first();
    await exportEntry.waitFor(WAIT);
    await expect(readText(exportEntry)).resolves.toContain(
      `Exported ${rows.toLocaleString("en-GB")} ${rows === 1 ? "lead" : "leads"}`,
    );
    await expect(readText(exportEntry)).resolves.toContain("Filter: status Customer, a search");
    // The search term (an email here) is not in the log.
    expect(await staff.page.content()).not.toContain("someone@example.com");
    await expect(
      readText(entries.filter({ hasText: "Signed a colleague out everywhere" }).first()),
    ).resolves.toMatch(new RegExp(`${PERSON.username}[\\s\\S]*by ${ADMIN.username}`));
    await expect(
      entries.filter({ hasText: "Signed in" }).filter({ hasText: PERSON.username }).count(),
    ).resolves.toBeGreaterThan(0);
    await staff.page.getByLabel("Show").selectOption("exports");
    await staff.page.getByRole("button", { name: "Show entries" }).click();
    await staff.page.waitForURL("**/admin/access-log?kind=exports", WAIT);
    await expect.poll(() => entries.filter({ hasNotText: /^Exported / }).count(), WAIT).toBe(0);

    // The colleague's open page sends them to sign in at their next step.
    const stale = await openSignedIn("/admin/login", { allowConsoleErrors: FAILED_LOAD }, colleague[0] ?? "");
    await goto(stale.page, "/admin/account");
    expect(new URL(stale.page.url()).pathname).toBe("/admin/login");
    await stale.close();
    await staff.close();
  },
  JOURNEY_MS,
);
