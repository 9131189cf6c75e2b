import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { setNextStep } from "../../app/features/leads/lead-next-step.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { leadRow } from "../support/lead-rows.ts";
import { createAccount, signIn } from "./support/accounts.ts";
import { launchTestBrowser, type PageOptions } from "./support/browser.ts";
import { openSignedIn, saveScreenshot } from "./support/pages.ts";

// Issue 23's "the work first" in Chromium, on a server of its own with a seeded database: the list
// at the top of the dashboard (first row's position at 1280 and 375 px), the Filters count, saved
// views, My leads and Unassigned, keyboard shortcuts, the next step (overdue marked) and the lead
// page's collapsed Record. SAVE_SCREENSHOTS=1 also writes the screens to docs/screenshots/.

const WAIT = { timeout: 10_000 };
const PASSWORD = "Worklist-Password-1";
const DAY = 86_400_000;

let dir: string;
let server: RunningServer;
let database: AppDatabase;
let browser: Browser;
let session: string;
let samId: number;
const ids = { overdue: 0, upcoming: 0, long: 0, fresh: 0 };

const today = () => new Date().toISOString().slice(0, 10);
const dayOffset = (days: number) => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

const open = (path: string, options: PageOptions = {}) =>
  openSignedIn(path, { height: 900, ...options }, session, { browser, server, timeout: WAIT.timeout });

const rows = (page: Page) => page.locator("[data-lead-row]");
const rowNames = (page: Page) => rows(page).locator("[data-lead-link]").allInnerTexts();
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

async function addLead(fullName: string, extra: Parameters<typeof leadRow>[0] = {}): Promise<number> {
  const row = await database.db
    .insertInto("leads")
    .values(
      leadRow({
        fullName,
        email: `${fullName.toLowerCase().replace(/\W+/g, ".")}@example.com`,
        company: `${fullName} Construction`,
        ...extra,
      }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "worklist-"));
  const databaseUrl = join(dir, "app.sqlite");
  server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "error", LEAD_RATE_LIMIT: "0" });
  await createAccount(databaseUrl, { username: "sam", password: PASSWORD, isAdmin: true });
  await createAccount(databaseUrl, { username: "riley", password: PASSWORD, isAdmin: true });
  session = await signIn(server.url, "sam", PASSWORD);
  database = openDatabase(databaseUrl, { poolSize: 1 });
  const users = await database.db.selectFrom("users").select(["id", "username"]).execute();
  samId = Number(users.find((user) => user.username === "sam")?.id);
  const rileyId = Number(users.find((user) => user.username === "riley")?.id);

  // Twenty-four older leads fill the list; the newest four are the ones the journeys work.
  for (let index = 0; index < 24; index++)
    await addLead(`Filler Person ${index + 1}`, {
      createdAt: new Date(Date.now() - (10 + index) * DAY).toISOString(),
      ownerId: index % 3 === 0 ? rileyId : null,
    });
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();
  ids.overdue = await addLead("Ada Overdue", { ownerId: samId, createdAt: hoursAgo(5) });
  ids.upcoming = await addLead("Ben Upcoming", {
    ownerId: samId,
    createdAt: hoursAgo(4),
    status: "contacted",
  });
  ids.long = await addLead("Cy Longmail", {
    createdAt: hoursAgo(3),
    email: "cy.extraordinarily.long.address.for.testing.truncation@subdomain.example-construction.co.uk",
  });
  ids.fresh = await addLead("Dee Fresh", { createdAt: hoursAgo(2), ownerId: rileyId });
  await database.db
    .insertInto("leadAttributions")
    .values({
      leadId: ids.fresh,
      status: "linked",
      visitorId: null,
      submittedAt: hoursAgo(2),
      landingPage: "/demo",
      referrerHost: null,
      referrerPath: null,
      channel: "Email",
      utmSource: "newsletter",
      utmMedium: "email",
      utmCampaign: "spring-launch",
      utmTerm: null,
      utmContent: null,
      landedAt: hoursAgo(2),
      pagesBeforeSubmit: 2,
      secondsToSubmit: 30,
      resolvedAt: hoursAgo(2),
    })
    .execute();
  // Issue 35: a next step is the lead's earliest open task, set through the same service as the page.
  const sam = { id: samId, username: "sam", role: "admin" as const };
  const setAt = new Date(Date.now() - 3_600_000);
  await setNextStep(
    database.db,
    ids.overdue,
    { body: "Call back about pricing", dueOn: dayOffset(-2) },
    sam,
    setAt,
  );
  await setNextStep(
    database.db,
    ids.upcoming,
    { body: "Send the proposal", dueOn: dayOffset(7) },
    sam,
    setAt,
  );
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await database?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the dashboard opens on the work", () => {
  it("shows the first lead row high on the page at 1280 and 375 px, with no sideways scroll", async () => {
    for (const [width, limit, name] of [
      [1280, 450, "dashboard-1280"],
      [375, 700, "dashboard-375"],
    ] as const) {
      const { page, close } = await open("/admin/dashboard", { width });
      try {
        await expect(page.getByRole("heading", { level: 1, name: "Admin Dashboard" }).count()).resolves.toBe(
          1,
        );
        const box = await rows(page).first().boundingBox();
        expect(box, `first row at ${width} px`).not.toBeNull();
        expect(box?.y ?? Number.POSITIVE_INFINITY, `first row's top at ${width} px`).toBeLessThan(limit);
        await saveScreenshot(page, name);
        await expect(noSidewaysScroll(page), `no sideways scroll at ${width} px`).resolves.toBe(true);
        // The back office's cards are below the list and still lead on (SPEC: the card to /admin/audit).
        const cards = page.getByRole("navigation", { name: "Back office" });
        const cardsBox = await cards.boundingBox();
        expect(cardsBox?.y ?? 0).toBeGreaterThan(box?.y ?? 0);
        await expect(cards.getByRole("link", { name: /Website audits/ }).getAttribute("href")).resolves.toBe(
          "/admin/audit",
        );
        await saveScreenshot(page, name);
      } finally {
        await close();
      }
    }
  });

  it("on a phone puts each card's name first, its status and owner controls right below", async () => {
    const { page, close } = await open("/admin/dashboard", { width: 375 });
    try {
      const row = rows(page).first();
      const status = await row.locator("[data-status-control]").boundingBox();
      const owner = await row.locator("[data-owner-control]").boundingBox();
      const name = await row.locator("[data-lead-link]").boundingBox();
      const company = await row.locator("td").nth(1).boundingBox();
      expect(status && owner && name && company).toBeTruthy();
      // Issue 35: the name leads the card; status and owner follow, above the details.
      expect(name?.y ?? 0).toBeLessThan(status?.y ?? 0);
      expect(name?.y ?? 0).toBeLessThan(owner?.y ?? 0);
      expect(status?.y ?? 0).toBeLessThan(company?.y ?? 0);
    } finally {
      await close();
    }
  });

  it("shows each row's status once, its source, owner and age, and cuts a long email on one line", async () => {
    const { page, close } = await open("/admin/dashboard");
    try {
      const fresh = page.locator(`[data-lead-row="${ids.fresh}"]`);
      await expect(fresh.locator("[data-status]").count()).resolves.toBe(1);
      await expect(fresh.getByLabel("Status of Dee Fresh").inputValue()).resolves.toBe("new");
      await expect(
        fresh.getByLabel("Owner of Dee Fresh").locator("option:checked").innerText(),
      ).resolves.toBe("riley");
      // Once in sight: beside the sidebar's labels the Channel column folds under Source.
      await expect(fresh.getByText("Email", { exact: true }).filter({ visible: true }).count()).resolves.toBe(
        1,
      );
      await expect(fresh.getByText("spring-launch").filter({ visible: true }).count()).resolves.toBe(1);
      // SPEC section 9's date ("Nov 21, 2025, 03:16 PM"), its age beside it (issue 32).
      const date = fresh.locator("time");
      await expect(
        date.evaluate((element) => element.textContent?.replace(/\s+/g, " ").trim()),
      ).resolves.toMatch(/^[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{2}:\d{2} [AP]M$/);
      await expect(fresh.locator("[data-age]").innerText()).resolves.toMatch(/^(· )?2 h ago$/);

      const email = page.locator(`[data-lead-row="${ids.long}"] [data-lead-email]`);
      const full =
        "cy.extraordinarily.long.address.for.testing.truncation@subdomain.example-construction.co.uk";
      await expect(email.getAttribute("title")).resolves.toBe(full);
      await expect(email.textContent()).resolves.toBe(full);
      const layout = await email.evaluate((element) => ({
        cut: element.scrollWidth > element.clientWidth,
        oneLine: element.getBoundingClientRect().height < 30,
        ellipsis: getComputedStyle(element).textOverflow,
      }));
      expect(layout).toEqual({ cut: true, oneLine: true, ellipsis: "ellipsis" });
    } finally {
      await close();
    }
  });

  it("keeps the other filters behind Filters, which counts the ones on, without JavaScript", async () => {
    const { page, close } = await open("/admin/dashboard", { javaScript: false });
    try {
      const toggle = page.getByTestId("filters-toggle");
      await expect(toggle.innerText()).resolves.toBe("Filters");
      await expect(page.getByLabel("Owner", { exact: true }).isVisible()).resolves.toBe(false);
      await toggle.click();
      await page.getByLabel("Owner", { exact: true }).selectOption("none");
      await page.getByLabel("Type", { exact: true }).selectOption("demo");
      await page.getByRole("button", { name: "Apply filters" }).click();
      await page.waitForURL(/owner=none/);
      await expect(page.getByTestId("filters-toggle").innerText()).resolves.toMatch(/^Filters\s*2/);
      await expect(page.getByTestId("filters-toggle").textContent()).resolves.toContain("2 on");
      const names = await rowNames(page);
      expect(names).toContain("Cy Longmail");
      expect(names).not.toContain("Dee Fresh");
      expect(names).not.toContain("Ada Overdue");
    } finally {
      await close();
    }
  });

  it("has My leads and Unassigned out of the box, with the next step shown and overdue marked", async () => {
    const { page, close } = await open("/admin/dashboard");
    try {
      const views = page.getByRole("navigation", { name: "Views" });
      await views.getByRole("link", { name: "My leads" }).click();
      await page.waitForURL(/owner=me/);
      await page.locator(`[data-lead-row="${ids.fresh}"]`).waitFor({ state: "detached" });
      await expect(rowNames(page)).resolves.toEqual(["Ben Upcoming", "Ada Overdue"]);
      await expect(views.getByRole("link", { name: "My leads" }).getAttribute("aria-current")).resolves.toBe(
        "page",
      );
      const overdue = page.locator(`[data-lead-row="${ids.overdue}"] [data-next-step]`);
      // Issue 35: the "Next step" column, what and then when.
      await expect(overdue.innerText()).resolves.toMatch(
        /^(Next:\s*)?Call back about pricing\s+Overdue\s+due /,
      );
      const upcoming = page.locator(`[data-lead-row="${ids.upcoming}"] [data-next-step]`);
      await expect(upcoming.innerText()).resolves.toMatch(/^(Next:\s*)?Send the proposal\s+due /);
      await expect(upcoming.getByText("Overdue").count()).resolves.toBe(0);

      await views.getByRole("link", { name: "Unassigned" }).click();
      await page.waitForURL(/owner=none/);
      await page.locator(`[data-lead-row="${ids.long}"]`).waitFor();
      const names = await rowNames(page);
      expect(names[0]).toBe("Cy Longmail");
      expect(names).not.toContain("Dee Fresh");
      expect(names).not.toContain("Ada Overdue");
    } finally {
      await close();
    }
  });

  it("saves the current filters and sort as a view without JavaScript, shares it, and opens it", async () => {
    const { page, close } = await open("/admin/dashboard?status=contacted&sort=fullName&order=asc", {
      javaScript: false,
    });
    try {
      await page.getByText("Save view", { exact: true }).first().click();
      await page.getByLabel("Name").fill("Contacted A–Z");
      await page.getByLabel("The whole team").check();
      await page.getByRole("button", { name: "Save view" }).click();
      await page.waitForURL(/notice=view-saved/);
      await expect(page.getByText("View saved.").count()).resolves.toBe(1);
      const stored = await database.db.selectFrom("savedViews").selectAll().execute();
      expect(stored).toMatchObject([
        {
          name: "Contacted A–Z",
          query: "status=contacted&sort=fullName&order=asc",
          shared: 1,
          ownerUserId: samId,
        },
      ]);
    } finally {
      await close();
    }

    // Riley sees the team's view and opens it: the same filters and sort.
    const riley = await signIn(server.url, "riley", PASSWORD);
    const mine = session;
    session = riley;
    const other = await open("/admin/dashboard");
    try {
      const link = other.page
        .getByRole("navigation", { name: "Views" })
        .getByRole("link", { name: "Contacted A–Z" });
      await link.click();
      await other.page.waitForURL(/status=contacted/);
      await other.page.locator(`[data-lead-row="${ids.fresh}"]`).waitFor({ state: "detached" });
      expect(new URL(other.page.url()).search).toBe("?status=contacted&sort=fullName&order=asc");
      await expect(link.getAttribute("aria-current")).resolves.toBe("page");
      await expect(rowNames(other.page)).resolves.toEqual(["Ben Upcoming"]);
    } finally {
      await other.close();
      session = mine;
    }
  });

  it("moves, ticks, assigns and opens with the keyboard, lists the shortcuts, and ignores keys typed in a field", async () => {
    const { page, close } = await open("/admin/dashboard");
    try {
      const names = await rowNames(page);
      await page.keyboard.press("j");
      await page.keyboard.press("j");
      const second = page.locator("[data-lead-row][data-active]");
      await expect(second.locator("[data-lead-link]").innerText()).resolves.toBe(names[1]);
      await page.keyboard.press("k");
      await expect(page.locator("[data-lead-row][data-active] [data-lead-link]").innerText()).resolves.toBe(
        names[0],
      );

      await page.keyboard.press("x");
      await expect(page.getByText("1 selected").count()).resolves.toBe(1);
      await expect(page.locator("[data-bulk-bar]").isVisible()).resolves.toBe(true);
      await page.keyboard.press("x");
      // Nothing selected: the bulk bar leaves the page (issue 35).
      await expect(page.locator("[data-bulk-bar]").isVisible()).resolves.toBe(false);

      await page.keyboard.press("s");
      await expect(
        page.evaluate(() => document.activeElement?.hasAttribute("data-status-control")),
      ).resolves.toBe(true);
      await page.keyboard.press("Escape");
      await page.locator("[data-lead-row][data-active] [data-lead-link]").focus();
      await page.keyboard.press("a");
      await expect(
        page.evaluate(() => document.activeElement?.hasAttribute("data-owner-control")),
      ).resolves.toBe(true);

      // Typing in the search box (or with a modifier) is typing, not a shortcut.
      await page.getByLabel("Search leads", { exact: true }).fill("");
      await page.getByLabel("Search leads", { exact: true }).press("j");
      await page.getByLabel("Search leads", { exact: true }).press("?");
      await expect(page.getByLabel("Search leads", { exact: true }).inputValue()).resolves.toBe("j?");
      await expect(page.getByRole("dialog").count()).resolves.toBe(0);
      await page.locator("[data-lead-row][data-active] [data-lead-link]").focus();
      await page.keyboard.press("Control+j");
      await expect(page.locator("[data-lead-row][data-active] [data-lead-link]").innerText()).resolves.toBe(
        names[0],
      );

      // The Filters panel closes as a menu does once JavaScript runs: on Escape.
      await page.getByTestId("filters-toggle").click();
      await expect(page.getByLabel("Campaign").isVisible()).resolves.toBe(true);
      await page.keyboard.press("Escape");
      await expect(page.getByLabel("Campaign").isVisible()).resolves.toBe(false);
      await page.locator("[data-lead-row][data-active] [data-lead-link]").focus();

      await page.keyboard.press("?");
      const dialog = page.getByRole("dialog", { name: "Keyboard shortcuts" });
      await dialog.waitFor();
      await expect(dialog.getByText("Select or unselect the lead").count()).resolves.toBe(1);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });

      // Enter on the row opens it (the focus on the row's link, or the body).
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press("j");
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await page.keyboard.press("Enter");
      // The lead opens with its place in the list (issue 35), as its link does.
      await page.waitForURL(/\/admin\/leads\/\d+\?from=%2Fadmin%2Fdashboard&at=2$/);
      await page.getByRole("heading", { level: 1, name: names[1] }).waitFor();
    } finally {
      await close();
    }
  });
});

describe("the lead page puts the work first", () => {
  it("shows status, owner and next step first, sets a next step without JavaScript, and keeps the Record collapsed", async () => {
    for (const [width, name] of [
      [1280, "lead-page-1280"],
      [375, "lead-page-375"],
    ] as const) {
      const { page, close } = await open(`/admin/leads/${ids.overdue}`, { width });
      try {
        const work = page.getByRole("region", { name: "Work this lead" });
        const details = page.getByRole("region", { name: "Details" });
        const workBox = await work.boundingBox();
        const detailsBox = await details.boundingBox();
        if (width === 375) expect(workBox?.y ?? 0).toBeLessThan(detailsBox?.y ?? 0);
        else expect(workBox?.y ?? 0).toBeLessThanOrEqual(detailsBox?.y ?? 0);
        await expect(work.getByText("Overdue", { exact: true }).count()).resolves.toBe(1);
        await expect(work.getByLabel("Next step").inputValue()).resolves.toBe("Call back about pricing");
        const record = page.locator("details", { hasText: "Record" });
        await expect(record.getAttribute("open")).resolves.toBeNull();
        await expect(page.getByText("Privacy notice version").isVisible()).resolves.toBe(false);
        await record.locator("summary").click();
        await expect(page.getByText("Privacy notice version").isVisible()).resolves.toBe(true);
        await expect(noSidewaysScroll(page)).resolves.toBe(true);
        await record.locator("summary").click();
        await saveScreenshot(page, name);
      } finally {
        await close();
      }
    }

    const { page, close } = await open(`/admin/leads/${ids.long}`, { javaScript: false });
    try {
      const work = page.getByRole("region", { name: "Work this lead" });
      await work.getByLabel("Next step").fill("Book the demo");
      await work.getByLabel("Due").fill(today());
      await work.getByRole("button", { name: "Save next step" }).click();
      await page.waitForURL(/notice=next-step/);
      await expect(
        page.getByRole("region", { name: "Timeline" }).getByText("Book the demo").count(),
      ).resolves.toBe(1);
      await expect(
        page.getByRole("region", { name: "Work this lead" }).getByText("Overdue").count(),
      ).resolves.toBe(0);
      // The button says what it does: it completes the step (its name ends with the step's words).
      await page
        .getByRole("region", { name: "Work this lead" })
        .getByRole("button", { name: "Mark done (next step: Book the demo)", exact: true })
        .click();
      await page.waitForURL(/notice=next-step-cleared/);
      await expect(page.getByText("Next step done.").count()).resolves.toBe(1);
      await expect(
        page
          .getByRole("region", { name: "Timeline" })
          .getByText(/completed the next step “Book the demo”/)
          .count(),
      ).resolves.toBe(1);
      // Done: its task is done, so the lead has no open task (no next step) left.
      await expect(
        database.db
          .selectFrom("leadActivities")
          .select("id")
          .where("leadId", "=", ids.long)
          .where("doneAt", "is", null)
          .execute(),
      ).resolves.toEqual([]);
    } finally {
      await close();
    }
  });
});
