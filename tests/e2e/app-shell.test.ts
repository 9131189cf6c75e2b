import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { NAV_ITEMS } from "../../app/components/back-office/nav-items.ts";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { signIn } from "./support/accounts.ts";
import { baseUrl, MOBILE, setupBrowser } from "./support/browser.ts";
import { openSignedIn, pathOf } from "./support/pages.ts";

// Issue 23, "One app shell", in Chromium against the shared e2e server: the sections on every
// back-office page with the current one marked (sidebar from 1280 px since issue 35, below it the top
// bar's menu, on a phone too, with and without JavaScript), and the global search: as you type, from `/` and Ctrl+K,
// never while typing in a field, and as a plain form without JavaScript.

setupBrowser();

const ADMIN = { username: inject("adminUsername"), password: inject("adminPassword") };
const RUN = Date.now().toString(36);
const WAIT = { timeout: 20_000 };
const JOURNEY_MS = 120_000;
const WIDE = { width: 1280, height: 800 };
/** Below the sidebar's 1280 px: the top bar and its menu. */
const TABLET = { width: 1024, height: 800 };
const COMPANY = `Quillfeather Shell ${RUN} Ltd`;
const EMAIL = `wren.${RUN}@quillfeather.example`;

let database: AppDatabase;
let admin: string;
let leadId = 0;

beforeAll(async () => {
  database = openDatabase(inject("databaseUrl"), { poolSize: 1 });
  admin = await signIn(baseUrl, ADMIN.username, ADMIN.password);
  const response = await fetch(`${baseUrl}/api/demo-request`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": "198.51.100.23" },
    body: JSON.stringify({
      fullName: `Wren Quillfeather ${RUN}`,
      email: EMAIL,
      company: COMPANY,
      phone: "020 7946 0100",
    }),
  });
  expect(response.status).toBe(201);
  leadId = ((await response.json()) as { id: number }).id;
});

afterAll(async () => {
  if (!database) return;
  await database.db.deleteFrom("leads").where("emailKey", "=", EMAIL).execute();
  await database.close();
});

/** Where the sections are listed: the sidebar, the top bar's menu (open or not). */
const SIDEBAR = 'aside nav[aria-label="Sections"]';
const MENU = 'header details nav[aria-label="Sections"]';

/** The entries marked as the current page in one of those, by their label (counts left out). */
const currentIn = (page: Page, nav: string) =>
  page
    .locator(`${nav} [aria-current="page"]`)
    .evaluateAll((links) => links.map((link) => link.querySelector("span")?.textContent ?? ""));

describe("the sections", () => {
  it(
    "are on every back-office page in the sidebar at 1280 px, the current one marked",
    async () => {
      const { page, close } = await openSignedIn("/admin/dashboard", WIDE, admin);
      for (const item of NAV_ITEMS) {
        await page
          .getByRole("navigation", { name: "Sections", exact: true })
          .getByRole("link", { name: item.label })
          .click();
        await page.waitForURL(`**${item.to}`, WAIT);
        await page.getByRole("heading", { level: 1 }).waitFor(WAIT);
        await expect.poll(() => currentIn(page, SIDEBAR), WAIT).toEqual([item.label]);
      }
      // A lead's page belongs to Leads; the person, their role, their account and Logout at the bottom,
      // under their avatar (issue 35).
      await page.goto(`${baseUrl}/admin/leads/${leadId}`);
      await expect.poll(() => currentIn(page, SIDEBAR), WAIT).toEqual(["Leads"]);
      const sidebar = page.getByRole("complementary", { name: "Back office" });
      await sidebar.locator("[data-account-menu] > summary").click();
      await expect(sidebar.innerText()).resolves.toMatch(
        new RegExp(`${ADMIN.username}\\s+Admin\\s+Your account\\s+Logout`),
      );
      await sidebar.getByRole("link", { name: "Your account" }).click();
      await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor(WAIT);
      await expect(pathOf(page)).toBe("/admin/account");
      await close();
    },
    JOURNEY_MS,
  );

  it(
    "are all in the top bar's menu below 1280 px, the current one marked",
    async () => {
      const { page, close } = await openSignedIn("/admin/analytics", TABLET, admin);
      await page.getByText("Menu", { exact: true }).click();
      await expect.poll(() => currentIn(page, MENU), WAIT).toEqual(["Analytics"]);
      await page
        .getByRole("navigation", { name: "Sections", exact: true })
        .getByRole("link", { name: "Webhooks" })
        .click();
      await page.waitForURL("**/admin/webhooks", WAIT);
      await expect.poll(() => currentIn(page, MENU), WAIT).toEqual(["Webhooks"]);
      // Following the link closed the menu.
      await expect(
        page
          .locator("header details")
          .filter({ has: page.locator("summary", { hasText: /^Menu$/ }) })
          .evaluate((details) => (details as HTMLDetailsElement).open),
      ).resolves.toBe(false);
      await close();
    },
    JOURNEY_MS,
  );

  for (const javaScript of [true, false])
    it(
      `open from the phone menu at 375 px ${javaScript ? "with" : "without"} JavaScript`,
      async () => {
        const { page, close } = await openSignedIn("/admin/dashboard", { ...MOBILE, javaScript }, admin);
        const sections = page.getByRole("navigation", { name: "Sections", exact: true });
        await expect(sections.isVisible()).resolves.toBe(false);
        await page.getByText("Menu", { exact: true }).click();
        await expect.poll(() => sections.isVisible(), WAIT).toBe(true);
        await expect(currentIn(page, MENU)).resolves.toEqual(["Leads"]);
        await sections.getByRole("link", { name: "Staff" }).click();
        await page.waitForURL("**/admin/staff", WAIT);
        await page.getByRole("heading", { level: 1, name: "Staff accounts" }).waitFor(WAIT);
        await expect(currentIn(page, MENU)).resolves.toEqual(["Staff accounts"]);
        // The page fits the phone's width with the menu open.
        await page.getByText("Menu", { exact: true }).click();
        await expect.poll(() => sections.isVisible(), WAIT).toBe(true);
        await expect(
          page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        ).resolves.toBe(0);
        await close();
      },
      JOURNEY_MS,
    );
});

describe("the global search", () => {
  it(
    "answers as you type, moves with the arrows and opens a lead with Enter",
    async () => {
      const { page, close } = await openSignedIn("/admin/staff", {}, admin);
      const search = page.getByRole("combobox", { name: "Search leads, people and companies" });
      await search.fill(`quillfeather shell ${RUN}`);
      const listbox = page.getByRole("listbox", { name: "Search results" });
      await listbox.getByRole("option", { name: `Leads: Wren Quillfeather ${RUN}` }).waitFor(WAIT);
      await listbox.getByRole("option", { name: `Companies: ${COMPANY}` }).waitFor(WAIT);
      await expect(search.getAttribute("aria-expanded")).resolves.toBe("true");
      await search.press("ArrowDown");
      const active = await search.getAttribute("aria-activedescendant");
      expect(active).toBeTruthy();
      await expect(page.locator(`[id="${active}"]`).getAttribute("aria-selected")).resolves.toBe("true");
      await search.press("Enter");
      await page.waitForURL(`**/admin/leads/${leadId}`, WAIT);
      await page
        .getByRole("heading", { level: 1, name: new RegExp(`Wren Quillfeather ${RUN}`) })
        .waitFor(WAIT);
      await close();
    },
    JOURNEY_MS,
  );

  it(
    "finds a lead by its number and a person by email, from `/` and Ctrl+K but not while typing in a field",
    async () => {
      const { page, close } = await openSignedIn("/admin/dashboard", {}, admin);
      const search = page.getByRole("combobox", { name: "Search leads, people and companies" });
      // Typing `/` into the lead list's own search types a slash there.
      const listSearch = page.getByLabel("Search leads", { exact: true });
      await listSearch.click();
      await page.keyboard.type("a/b");
      await expect(listSearch.inputValue()).resolves.toBe("a/b");
      await expect(search.evaluate((input) => input === document.activeElement)).resolves.toBe(false);
      await listSearch.evaluate((input) => (input as HTMLInputElement).blur());

      await page.keyboard.press("/");
      await expect.poll(() => search.evaluate((input) => input === document.activeElement), WAIT).toBe(true);
      await page.keyboard.type(`#${leadId}`);
      await page.getByRole("option", { name: new RegExp(`^Leads: Wren Quillfeather ${RUN}`) }).waitFor(WAIT);
      await page.keyboard.press("Escape");
      await expect(search.getAttribute("aria-expanded")).resolves.toBe("false");
      await search.evaluate((input) => (input as HTMLInputElement).blur());

      await page.keyboard.press("Control+k");
      await expect.poll(() => search.evaluate((input) => input === document.activeElement), WAIT).toBe(true);
      await page.keyboard.type(EMAIL.toUpperCase());
      await page.getByRole("option", { name: new RegExp(`^People: Wren Quillfeather ${RUN}`) }).click();
      await page.waitForURL(/\/admin\/people\?email=/, WAIT);
      await page.getByRole("heading", { level: 1, name: "People's data" }).waitFor(WAIT);
      await close();
    },
    JOURNEY_MS,
  );

  it(
    "opens the phone menu with Ctrl+K at 375 px",
    async () => {
      const { page, close } = await openSignedIn("/admin/analytics", MOBILE, admin);
      await page.keyboard.press("Control+k");
      const search = page.getByRole("combobox", { name: "Search leads, people and companies" });
      await expect.poll(() => search.evaluate((input) => input === document.activeElement), WAIT).toBe(true);
      await page.keyboard.type("quillfeather");
      await page.getByRole("option", { name: new RegExp(`^Leads: Wren Quillfeather ${RUN}`) }).waitFor(WAIT);
      await close();
    },
    JOURNEY_MS,
  );

  it(
    "works as a plain form without JavaScript, with results grouped on /admin/search",
    async () => {
      const { page, close } = await openSignedIn("/admin/dashboard", { javaScript: false }, admin);
      const search = page.getByRole("searchbox", { name: "Search leads, people and companies" });
      await search.fill(`Quillfeather Shell ${RUN}`);
      await search.press("Enter");
      await page.waitForURL(/\/admin\/search\?q=/, WAIT);
      await page.getByRole("heading", { level: 1, name: "Search" }).waitFor(WAIT);
      for (const group of ["Leads", "Companies"])
        await expect(page.getByRole("heading", { level: 2, name: group }).count()).resolves.toBe(1);
      await page.getByRole("link", { name: new RegExp(`Wren Quillfeather ${RUN}`) }).click();
      await page.waitForURL(`**/admin/leads/${leadId}`, WAIT);
      // Nothing found says so in words.
      await page.goto(`${baseUrl}/admin/search?q=${encodeURIComponent(`nobody-${RUN}`)}`);
      await page.getByText(`No leads, people or companies match “nobody-${RUN}”`).waitFor(WAIT);
      await close();
    },
    JOURNEY_MS,
  );
});

describe("GET /api/admin/search", () => {
  it("answers staff only, with each group, and refuses an oversized query", async () => {
    const anonymous = await fetch(`${baseUrl}/api/admin/search?q=quillfeather`);
    expect(anonymous.status).toBe(401);
    const response = await fetch(`${baseUrl}/api/admin/search?q=${encodeURIComponent(EMAIL)}`, {
      headers: { Cookie: admin },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toContain("no-store");
    const body = (await response.json()) as {
      leads: { id: number; href: string }[];
      people: { email: string; leads: number; href: string }[];
      companies: unknown[];
    };
    expect(body.leads).toEqual([expect.objectContaining({ id: leadId, href: `/admin/leads/${leadId}` })]);
    expect(body.people).toEqual([
      {
        email: EMAIL,
        fullName: `Wren Quillfeather ${RUN}`,
        leads: 1,
        href: `/admin/people?email=${encodeURIComponent(EMAIL)}`,
      },
    ]);
    const tooLong = await fetch(`${baseUrl}/api/admin/search?q=${"x".repeat(101)}`, {
      headers: { Cookie: admin },
    });
    expect(tooLong.status).toBe(400);
  });
});
