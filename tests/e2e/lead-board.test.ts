import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { leadRow } from "../support/lead-rows.ts";
import { createAccount, signIn } from "./support/accounts.ts";
import { expectNoA11yViolations, launchTestBrowser, type PageOptions } from "./support/browser.ts";
import { openSignedIn, saveScreenshot } from "./support/pages.ts";

// Issue 35's list and board in Chromium, on a server of its own with a seeded database: the bulk bar
// that appears with a selection and preselects nothing, each row's actions menu, the rows per page
// kept per person, the board by status (a card moved by mouse, by keyboard with its announcements,
// and without JavaScript), and the phone's lead cards. SAVE_SCREENSHOTS=1 writes the board's screens
// to docs/screenshots/.

const WAIT = { timeout: 10_000 };
const PASSWORD = "Board-Password-01";
const HOUR = 3_600_000;

let dir: string;
let server: RunningServer;
let database: AppDatabase;
let browser: Browser;
let samSession: string;
let rileySession: string;
let samId: number;
const ids = { amara: 0, bruno: 0, chen: 0, dara: 0, eli: 0, held: 0, menu: 0, gone: 0 };

/** The list's pages as sam (or another `session`), in a context of its own on this file's server. */
const open = (path: string, { session = samSession, ...options }: PageOptions & { session?: string } = {}) =>
  openSignedIn(path, { height: 900, ...options }, session, { browser, server, timeout: WAIT.timeout });

const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

async function addLead(fullName: string, extra: Parameters<typeof leadRow>[0] = {}): Promise<number> {
  const row = await database.db
    .insertInto("leads")
    .values(
      leadRow({
        fullName,
        email: `${fullName.toLowerCase().replace(/\W+/g, ".")}@example.com`,
        company: `${fullName.split(" ")[1] ?? fullName} Construction`,
        phone: "+44 20 7946 0123",
        ...extra,
      }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

const statusOf = async (id: number) =>
  (await database.db.selectFrom("leads").select("status").where("id", "=", id).executeTakeFirstOrThrow())
    .status;

const column = (page: Page, status: string) => page.locator(`[data-board-column="${status}"]`);
const countOf = async (page: Page, status: string) =>
  Number((await column(page, status).locator("[data-board-count]").innerText()).replace(/\D/g, ""));
const card = (page: Page, id: number) => page.locator(`[data-board-card="${id}"]`);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "lead-board-"));
  const databaseUrl = join(dir, "app.sqlite");
  server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "error", LEAD_RATE_LIMIT: "0" });
  await createAccount(databaseUrl, { username: "sam", password: PASSWORD, isAdmin: true });
  await createAccount(databaseUrl, { username: "riley", password: PASSWORD, isAdmin: true });
  samSession = await signIn(server.url, "sam", PASSWORD);
  rileySession = await signIn(server.url, "riley", PASSWORD);
  database = openDatabase(databaseUrl, { poolSize: 1 });
  const users = await database.db.selectFrom("users").select(["id", "username"]).execute();
  samId = Number(users.find((user) => user.username === "sam")?.id);
  const rileyId = Number(users.find((user) => user.username === "riley")?.id);
  const ago = (hours: number) => new Date(Date.now() - hours * HOUR).toISOString();
  // Thirty older new leads fill the list and page the board's New column.
  for (let index = 0; index < 30; index++)
    await addLead(`Filler Person${index + 1}`, { createdAt: ago(100 + index) });
  ids.amara = await addLead("Amara Okafor", { createdAt: ago(1), ownerId: rileyId });
  ids.bruno = await addLead("Bruno Diaz", { createdAt: ago(2) });
  ids.chen = await addLead("Chen Wei", { createdAt: ago(3), status: "contacted", ownerId: samId });
  ids.dara = await addLead("Dara Quinn", { createdAt: ago(4), status: "qualified" });
  ids.eli = await addLead("Eli Park", { createdAt: ago(5), status: "customer" });
  ids.held = await addLead("Held Spammer", { createdAt: ago(0.5), isSpam: 1 });
  ids.menu = await addLead("Menu Person", { createdAt: ago(6) });
  ids.gone = await addLead("Gone Person", { createdAt: ago(7) });
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await database?.close();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the list's bulk bar", () => {
  it("appears only with rows selected, with no action chosen until one is", async () => {
    const { page, close } = await open("/admin/dashboard?q=Filler");
    try {
      const bar = page.locator("[data-bulk-bar]");
      await expect(bar.isVisible()).resolves.toBe(false);
      await page.getByRole("checkbox", { name: "Select Filler Person1", exact: true }).check();
      await page.getByRole("checkbox", { name: "Select Filler Person2", exact: true }).check();
      await expect(bar.isVisible()).resolves.toBe(true);
      await expect(bar.getByText("2 selected").count()).resolves.toBe(1);
      const select = page.getByLabel("Action for the selected leads");
      await expect(select.inputValue()).resolves.toBe("");
      await expect(bar.locator("option:checked").textContent()).resolves.toBe("Choose an action");
      const apply = bar.getByRole("button", { name: "Apply", exact: true });
      await expect(apply.isDisabled()).resolves.toBe(true);
      await select.selectOption({ label: "Status: Unqualified" });
      await expect(apply.isDisabled()).resolves.toBe(false);
      await apply.click();
      await page.getByText("The selected leads have been updated.").waitFor(WAIT);
      await expect(bar.isVisible()).resolves.toBe(false);
      const filler = await database.db
        .selectFrom("leads")
        .select("status")
        .where("fullName", "in", ["Filler Person1", "Filler Person2"])
        .execute();
      expect(filler.map((row) => row.status)).toEqual(["unqualified", "unqualified"]);
      await database.db
        .updateTable("leads")
        .set({ status: "new" })
        .where("fullName", "in", ["Filler Person1", "Filler Person2"])
        .execute();
    } finally {
      await close();
    }
  });

  it("stays in view without JavaScript and refuses an Apply with no action chosen", async () => {
    const { page, close } = await open("/admin/dashboard?q=Filler", { javaScript: false });
    try {
      await expect(page.locator("[data-bulk-bar]").isVisible()).resolves.toBe(true);
      await expect(page.getByText("With the selected leads:").count()).resolves.toBe(1);
      await page.getByRole("checkbox", { name: "Select Filler Person3", exact: true }).check();
      await page.getByRole("button", { name: "Apply", exact: true }).click();
      await page.getByText("Choose an action for the selected leads.").waitFor(WAIT);
      const third = await database.db
        .selectFrom("leads")
        .select("status")
        .where("fullName", "=", "Filler Person3")
        .executeTakeFirstOrThrow();
      expect(third.status).toBe("new");
    } finally {
      await close();
    }
  });
});

describe("a row's actions menu", () => {
  it("assigns the lead to me, marks its status and deletes it after a confirmation", async () => {
    const { page, close } = await open("/admin/dashboard?q=Person");
    try {
      const openMenu = async (name: string) => {
        await page.getByRole("button", { name: `Actions for ${name}` }).click();
        return page.getByRole("menu", { name: `Actions for ${name}` });
      };
      let menu = await openMenu("Menu Person");
      await expect(menu.getByRole("menuitem", { name: "Open" }).getAttribute("href")).resolves.toBe(
        `/admin/leads/${ids.menu}`,
      );
      await expect(menu.getByRole("menuitem", { name: "Set next step" }).getAttribute("href")).resolves.toBe(
        `/admin/leads/${ids.menu}#next-step`,
      );
      await menu.getByRole("menuitem", { name: "Assign to me" }).click();
      await expect
        .poll(async () =>
          Number(
            (
              await database.db
                .selectFrom("leads")
                .select("ownerId")
                .where("id", "=", ids.menu)
                .executeTakeFirstOrThrow()
            ).ownerId,
          ),
        )
        .toBe(samId);
      await expect
        .poll(() => page.locator(`[data-lead-row="${ids.menu}"] [data-owner-control]`).inputValue())
        .toBe(String(samId));

      menu = await openMenu("Menu Person");
      await expect(
        menu.getByRole("menuitem", { name: "Assigned to you" }).getAttribute("aria-disabled"),
      ).resolves.toBe("true");
      await menu.getByRole("menuitemradio", { name: "Qualified", exact: true }).click();
      await expect.poll(() => statusOf(ids.menu)).toBe("qualified");
      await expect
        .poll(() => page.locator(`[data-lead-row="${ids.menu}"] [data-status-control]`).inputValue())
        .toBe("qualified");

      menu = await openMenu("Gone Person");
      await menu.getByRole("menuitem", { name: "Delete…" }).click();
      const dialog = page.getByRole("alertdialog", { name: "Delete this lead?" });
      await dialog.getByRole("button", { name: "Cancel" }).click();
      await expect(page.locator(`[data-lead-row="${ids.gone}"]`).count()).resolves.toBe(1);
      menu = await openMenu("Gone Person");
      await menu.getByRole("menuitem", { name: "Delete…" }).click();
      await dialog.getByRole("button", { name: "Delete permanently" }).click();
      await expect.poll(() => page.locator(`[data-lead-row="${ids.gone}"]`).count()).toBe(0);
      const left = await database.db.selectFrom("leads").select("id").where("id", "=", ids.gone).execute();
      expect(left).toEqual([]);
    } finally {
      await close();
    }
  });

  it("works without JavaScript as a disclosure of links and forms", async () => {
    const { page, close } = await open("/admin/dashboard?q=Bruno", { javaScript: false });
    try {
      await page.locator(`[data-lead-row="${ids.bruno}"] summary`).click();
      const row = page.locator(`[data-lead-row="${ids.bruno}"]`);
      await row.getByRole("button", { name: "Contacted" }).click();
      await page.waitForURL(/notice=updated/, WAIT);
      expect(await statusOf(ids.bruno)).toBe("contacted");
      await database.db.updateTable("leads").set({ status: "new" }).where("id", "=", ids.bruno).execute();
      await expect(
        page.locator(`[data-lead-row="${ids.bruno}"] a`, { hasText: "Delete…" }).getAttribute("href"),
      ).resolves.toBe(`/admin/leads/${ids.bruno}?confirm-delete=1`);
    } finally {
      await close();
    }
  });
});

describe("rows per page", () => {
  it("keeps each person's choice for the list without a page size in its address", async () => {
    const rows = (page: Page) => page.locator("[data-lead-row]");
    let opened = await open("/admin/dashboard");
    try {
      await expect(rows(opened.page).count()).resolves.toBe(10);
      await opened.page
        .getByRole("form", { name: "Leads per page" })
        .getByRole("button", { name: "25", exact: true })
        .click();
      await expect.poll(() => rows(opened.page).count()).toBe(25);
    } finally {
      await opened.close();
    }
    opened = await open("/admin/dashboard");
    try {
      await expect(rows(opened.page).count()).resolves.toBe(25);
      await expect(
        opened.page.getByRole("button", { name: "25", exact: true }).getAttribute("aria-pressed"),
      ).resolves.toBe("true");
      // An address that names a size still shows it, and does not change the kept choice.
      await opened.page.goto(`${server.url}/admin/dashboard?pageSize=50`);
      await expect(rows(opened.page).count()).resolves.toBe(36);
    } finally {
      await opened.close();
    }
    // Someone else's list keeps the spec's 10.
    opened = await open("/admin/dashboard", { session: rileySession });
    try {
      await expect(rows(opened.page).count()).resolves.toBe(10);
    } finally {
      await opened.close();
    }
    // Back to 10, without JavaScript.
    opened = await open("/admin/dashboard", { javaScript: false });
    try {
      await expect(rows(opened.page).count()).resolves.toBe(25);
      await opened.page
        .getByRole("form", { name: "Leads per page" })
        .getByRole("button", { name: "10", exact: true })
        .click();
      await opened.page.waitForLoadState("load");
      await expect(rows(opened.page).count()).resolves.toBe(10);
    } finally {
      await opened.close();
    }
  });
});

describe("the board", () => {
  it("shows each status's column with its count, pages a column, and switches to and from the list", async () => {
    const { page, close } = await open("/admin/dashboard?q=a");
    try {
      await page.getByRole("navigation", { name: "Layout" }).getByRole("link", { name: "Board" }).click();
      await page.waitForURL(/\/admin\/leads\/board\?q=a$/, WAIT);
      await page.getByRole("heading", { level: 1, name: "Leads" }).waitFor(WAIT);
      await expect(page.getByRole("heading", { level: 1, name: "Leads" }).count()).resolves.toBe(1);
      await expect(page.locator("#lead-search").inputValue()).resolves.toBe("a");
      await page.goto(`${server.url}/admin/leads/board`);
      const headings = await page.locator("[data-board-column] h2").allInnerTexts();
      expect(headings.map((text) => text.replace(/\s+\d+\s+leads$/, "").trim())).toEqual([
        "New",
        "Contacted",
        "Qualified",
        "Unqualified",
        "Customer",
      ]);
      // Held spam is left out, as on the list.
      await expect(page.getByText("Held Spammer").count()).resolves.toBe(0);
      const newCount = await countOf(page, "new");
      expect(newCount).toBe(32);
      await expect(column(page, "new").locator("[data-board-card]").count()).resolves.toBe(20);
      await column(page, "new").getByRole("link", { name: "Show more New leads" }).click();
      await expect.poll(() => column(page, "new").locator("[data-board-card]").count()).toBe(32);
      await expect(
        column(page, "new")
          .getByRole("link", { name: /Show more/ })
          .count(),
      ).resolves.toBe(0);
      await expect(card(page, ids.amara).innerText()).resolves.toMatch(
        /Amara Okafor[\s\S]*Okafor Construction[\s\S]*riley/,
      );

      await page.getByRole("navigation", { name: "Layout" }).getByRole("link", { name: "List" }).click();
      await page.waitForURL(/\/admin\/dashboard$/, WAIT);
    } finally {
      await close();
    }
  });

  it("moves a card to Contacted by mouse: the counts follow and the timeline records it", async () => {
    const { page, close } = await open("/admin/leads/board");
    try {
      const before = { new: await countOf(page, "new"), contacted: await countOf(page, "contacted") };
      const from = await card(page, ids.amara).boundingBox();
      const to = await column(page, "contacted").boundingBox();
      if (!from || !to) throw new Error("card or column not on screen");
      await page.mouse.move(from.x + from.width / 2, from.y + from.height - 8);
      await page.mouse.down();
      await page.mouse.move(from.x + from.width / 2 + 30, from.y + from.height, { steps: 4 });
      await page.mouse.move(to.x + to.width / 2, to.y + 80, { steps: 8 });
      await expect(column(page, "contacted").locator("[data-drop-indicator]").count()).resolves.toBe(1);
      await page.mouse.up();
      await expect.poll(() => statusOf(ids.amara)).toBe("contacted");
      await expect
        .poll(() => column(page, "contacted").locator(`[data-board-card="${ids.amara}"]`).count())
        .toBe(1);
      await expect.poll(() => countOf(page, "contacted")).toBe(before.contacted + 1);
      await expect.poll(() => countOf(page, "new")).toBe(before.new - 1);
      await page.goto(`${server.url}/admin/leads/${ids.amara}`);
      await expect(page.locator("main").innerText()).resolves.toMatch(
        /sam\s+changed the status\s*New[\s\S]{0,10}Contacted/,
      );
    } finally {
      await close();
    }
  });

  it("moves a card by keyboard, each step said in the live region", async () => {
    const { page, close } = await open("/admin/leads/board");
    try {
      const live = page.locator("[data-board-announcer]");
      const handle = page.getByRole("button", { name: "Move Bruno Diaz" });
      await handle.focus();
      await page.keyboard.press("Space");
      await expect(live.innerText()).resolves.toMatch(/^Picked up Bruno Diaz\. Column New, 1 of 5\./);
      await page.keyboard.press("ArrowRight");
      await expect(live.innerText()).resolves.toBe("Over column Contacted, 2 of 5.");
      await page.keyboard.press("ArrowRight");
      await expect(live.innerText()).resolves.toBe("Over column Qualified, 3 of 5.");
      await expect(column(page, "qualified").locator("[data-drop-indicator]").count()).resolves.toBe(1);
      await page.keyboard.press("Escape");
      await expect(live.innerText()).resolves.toBe("Move cancelled. Bruno Diaz stays in New.");
      expect(await statusOf(ids.bruno)).toBe("new");

      await page.keyboard.press("Enter");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("ArrowRight");
      await page.keyboard.press("Enter");
      await expect(live.innerText()).resolves.toBe("Dropped Bruno Diaz in Qualified.");
      await expect.poll(() => statusOf(ids.bruno)).toBe("qualified");
      await expect
        .poll(() => column(page, "qualified").locator(`[data-board-card="${ids.bruno}"]`).count())
        .toBe(1);
      // The keyboard stays on the moved card.
      await expect
        .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
        .toBe("Move Bruno Diaz");
    } finally {
      await close();
    }
  });

  it("gives each card a status control without JavaScript", async () => {
    const { page, close } = await open("/admin/leads/board?q=Dara", { javaScript: false });
    try {
      const dara = card(page, ids.dara);
      await dara.getByLabel("Status of Dara Quinn").selectOption("unqualified");
      await dara.getByRole("button", { name: "Move Dara Quinn" }).click();
      await page.waitForURL(/notice=updated/, WAIT);
      expect(await statusOf(ids.dara)).toBe("unqualified");
      await expect(
        column(page, "unqualified").locator(`[data-board-card="${ids.dara}"]`).count(),
      ).resolves.toBe(1);
      expect(new URL(page.url()).searchParams.get("q")).toBe("Dara");
      // "Show more" is a plain link there: the column's next page.
      await page.goto(`${server.url}/admin/leads/board`);
      await column(page, "new").getByRole("link", { name: "Show more New leads" }).click();
      await page.waitForURL(/column=new&after=/, WAIT);
      await expect(
        column(page, "new").getByRole("link", { name: "Back to the newest" }).count(),
      ).resolves.toBe(1);
      await expect(column(page, "new").locator("[data-board-card]").count()).resolves.toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  it("has no accessibility violations and no sideways scroll at 1280 and 375 px", async () => {
    for (const width of [1280, 375]) {
      const { page, close } = await open("/admin/leads/board", { width });
      try {
        await expectNoA11yViolations(page);
        await expect(noSidewaysScroll(page), `no sideways scroll at ${width} px`).resolves.toBe(true);
        await saveScreenshot(page, `board-${width}`);
      } finally {
        await close();
      }
    }
  });
});

describe("the list on a phone", () => {
  it("shows the name first, status and owner uncut, and tap-to-call and tap-to-email links on one left edge", async () => {
    const { page, close } = await open("/admin/dashboard?q=Eli", { width: 375 });
    try {
      const row = page.locator(`[data-lead-row="${ids.eli}"]`);
      const box = async (selector: string) => {
        const found = await row.locator(selector).first().boundingBox();
        if (!found) throw new Error(`${selector} not on screen`);
        return found;
      };
      const name = await box("[data-lead-link]");
      const status = await box("[data-status-control]");
      const owner = await box("[data-owner-control]");
      const email = await box("[data-lead-email]");
      const phone = await box("[data-lead-phone]");
      expect(name.y).toBeLessThan(status.y);
      expect(name.y).toBeLessThan(owner.y);
      for (const [what, found] of [
        ["status", status],
        ["email", email],
        ["phone", phone],
      ] as const)
        expect(Math.abs(found.x - name.x), `${what} on the name's left edge`).toBeLessThanOrEqual(1);
      await expect(row.locator("[data-lead-phone]").getAttribute("href")).resolves.toBe("tel:+442079460123");
      await expect(row.locator("[data-lead-email]").getAttribute("href")).resolves.toBe(
        "mailto:eli.park@example.com",
      );
      // Each select is wide enough for the text it shows.
      const cut = await row.evaluate(
        (element) =>
          [...element.querySelectorAll("select")].filter((select) => {
            const style = getComputedStyle(select);
            const context = document.createElement("canvas").getContext("2d");
            if (!context) return true;
            context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
            const text = select.selectedOptions[0]?.text ?? "";
            const room =
              select.clientWidth -
              Number.parseFloat(style.paddingLeft) -
              Number.parseFloat(style.paddingRight);
            return context.measureText(text).width > room;
          }).length,
      );
      expect(cut).toBe(0);
      await expectNoA11yViolations(page);
      await expect(noSidewaysScroll(page)).resolves.toBe(true);
    } finally {
      await close();
    }
  });
});
