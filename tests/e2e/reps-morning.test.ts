import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { addDays, dateIn, weekdayOf } from "../../app/lib/time-zones.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { leadRow } from "../support/lead-rows.ts";
import { signIn } from "./support/accounts.ts";
import { expectNoA11yViolations, launchTestBrowser } from "./support/browser.ts";
import { openSignedIn } from "./support/pages.ts";

// Issue 35's proof, as one journey in Chromium: a sales rep's morning, at 1280 px and again at
// 375 px. She opens My tasks, opens the lead of her overdue call, calls and logs the call, sets the
// next task, ticks the morning's task off, moves the lead on the board (by mouse on the desktop, by
// keyboard on both), fixes its phone number, and reads every step on the lead's timeline.

const WAIT = { timeout: 15_000 };
const PASSWORD = "Reps-Morning-Password-01";
const ZONE = "Europe/London";

let dir: string;
let server: RunningServer;
let database: AppDatabase;
let browser: Browser;
let session: string;

const open = (path: string, width: number) =>
  openSignedIn(path, { width, height: 900, reducedMotion: "reduce" }, session, {
    browser,
    server,
    timeout: WAIT.timeout,
  });

async function go(page: Page, path: string) {
  await page.goto(`${server.url}${path}`, { waitUntil: "load" });
  await page.waitForSelector("html[data-hydrated]", { state: "attached" });
}

const timelineText = (page: Page) => page.getByRole("region", { name: "Timeline" }).innerText();
const section = (page: Page, name: string) => page.getByRole("region", { name: new RegExp(`^${name}`) });
const noSidewaysScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** The next Thursday after today in the back office's zone. */
function nextThursday(): string {
  let day = addDays(dateIn(Date.now(), ZONE), 1);
  while (weekdayOf(day) !== 4) day = addDays(day, 1);
  return day;
}

/** A lead of Rita's with an overdue call on it, added as her team's intake would. */
async function seedMorning(name: string, phone: string): Promise<number> {
  const rita = await database.db
    .selectFrom("users")
    .select("id")
    .where("username", "=", "rita")
    .executeTakeFirstOrThrow();
  const row = await database.db
    .insertInto("leads")
    .values(
      leadRow({
        fullName: name,
        email: `${name.toLowerCase().replace(/\W+/g, ".")}@tender.example`,
        company: `${name} Contracting`,
        phone,
        ownerId: Number(rita.id),
      }),
    )
    .returning("id")
    .executeTakeFirstOrThrow();
  const leadId = Number(row.id);
  const response = await fetch(`${server.url}/api/admin/leads/${leadId}/activities`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: server.url, Cookie: session },
    body: JSON.stringify({
      kind: "task",
      body: `Call ${name} about the tender`,
      dueAt: new Date(Date.now() - 3 * 3_600_000).toISOString(),
    }),
  });
  expect(response.status).toBe(201);
  return leadId;
}

const statusOf = async (id: number) =>
  (await database.db.selectFrom("leads").select("status").where("id", "=", id).executeTakeFirstOrThrow())
    .status;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "reps-morning-"));
  const databaseUrl = join(dir, "app.sqlite");
  server = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "error", LEAD_RATE_LIMIT: "0" });
  database = openDatabase(databaseUrl, { poolSize: 1 });
  await createUser(database.db, { username: "rita", password: PASSWORD, role: "sales" });
  session = await signIn(server.url, "rita", PASSWORD);
  browser = await launchTestBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await database?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a sales rep's morning", () => {
  for (const width of [1280, 375]) {
    it(`at ${width} px: My tasks, a logged call, the next task, the board and a corrected phone, all on the timeline`, async () => {
      const name = width === 1280 ? "Olga Whitcombe" : "Pavel Ostrander";
      const leadId = await seedMorning(name, "+44 20 7946 0101");
      const { page, close } = await open("/admin/tasks", width);
      try {
        // My tasks: the overdue call first.
        const overdue = section(page, "Overdue");
        await expect(overdue.innerText()).resolves.toContain(`Call ${name} about the tender`);
        await expectNoA11yViolations(page);
        await expect(noSidewaysScroll(page)).resolves.toBe(true);
        await overdue.getByRole("link", { name }).click();
        await page.waitForURL(new RegExp(`/admin/leads/${leadId}`));
        await page.getByRole("heading", { level: 1, name }).waitFor();

        // The call, logged from the composer.
        await page.getByRole("tab", { name: "Call" }).click();
        await page.getByLabel("Outcome").selectOption({ label: "Connected" });
        await page.getByLabel("Duration (minutes)").fill("12");
        await page.getByLabel("Call notes").fill("Wants the tender pack by Thursday.");
        await page.getByRole("button", { name: "Log call" }).click();
        await expect.poll(() => timelineText(page), WAIT).toContain("rita logged a call: Connected, 12 min");

        // The next task, for Thursday.
        await page.getByRole("tab", { name: "Task" }).click();
        await page.getByRole("textbox", { name: "Task" }).fill("Send the tender pack");
        await page.getByLabel("Due date").fill(nextThursday());
        await page.getByLabel("Due time").fill("09:30");
        await page.getByRole("button", { name: "Add task" }).click();
        await expect
          .poll(() => timelineText(page), WAIT)
          .toMatch(/rita added a task for rita, due .*9:30 AM\s*Send the tender pack/);
        await expectNoA11yViolations(page);
        await expect(noSidewaysScroll(page)).resolves.toBe(true);

        // Back in My tasks, the morning's call is ticked off; the new task waits under Upcoming.
        await go(page, "/admin/tasks");
        await page.getByRole("button", { name: `Mark done: Call ${name} about the tender` }).click();
        await expect
          .poll(() => section(page, "Done").innerText(), WAIT)
          .toContain(`Call ${name} about the tender`);
        await expect(section(page, "Upcoming").innerText()).resolves.toContain("Send the tender pack");

        // The board, narrowed to this lead by the list's own search.
        await go(page, `/admin/leads/board?q=${encodeURIComponent(name)}`);
        const column = (status: string) => page.locator(`[data-board-column="${status}"]`);
        const card = page.locator(`[data-board-card="${leadId}"]`);
        await card.waitFor();
        if (width === 1280) {
          // By mouse: New to Contacted.
          const from = await card.boundingBox();
          const to = await column("contacted").boundingBox();
          if (!from || !to) throw new Error("card or column not on screen");
          await page.mouse.move(from.x + from.width / 2, from.y + from.height - 8);
          await page.mouse.down();
          await page.mouse.move(from.x + from.width / 2 + 30, from.y + from.height, { steps: 4 });
          await page.mouse.move(to.x + to.width / 2, to.y + 80, { steps: 8 });
          await page.mouse.up();
          await expect.poll(() => statusOf(leadId), WAIT).toBe("contacted");
          await expect
            .poll(() => column("contacted").locator(`[data-board-card="${leadId}"]`).count(), WAIT)
            .toBe(1);
        }
        // By keyboard: picked up, moved one column on, dropped, each step announced.
        const before = await statusOf(leadId);
        const target = before === "new" ? "Contacted" : "Qualified";
        const live = page.locator("[data-board-announcer]");
        await page.getByRole("button", { name: `Move ${name}` }).focus();
        await page.keyboard.press("Space");
        await expect.poll(() => live.innerText(), WAIT).toMatch(new RegExp(`^Picked up ${name}\\.`));
        await page.keyboard.press("ArrowRight");
        await page.keyboard.press("Space");
        await expect.poll(() => live.innerText(), WAIT).toBe(`Dropped ${name} in ${target}.`);
        await expect.poll(() => statusOf(leadId), WAIT).toBe(target.toLowerCase());
        await expectNoA11yViolations(page);
        await expect(noSidewaysScroll(page)).resolves.toBe(true);

        // The phone number, corrected in place on the lead's page.
        await go(page, `/admin/leads/${leadId}`);
        const details = page.getByRole("region", { name: "Details" });
        await details.getByRole("button", { name: "Edit phone" }).click();
        await details.getByLabel("Phone").fill("+44 20 7946 0202");
        await details.getByRole("button", { name: "Save" }).click();
        await expect
          .poll(() => details.getByRole("link", { name: "+44 20 7946 0202" }).count(), WAIT)
          .toBe(1);

        // Every step of the morning, on the timeline, with who did it.
        await expect
          .poll(() => timelineText(page), WAIT)
          .toMatch(/rita changed the phone from \W?\+44 20 7946 0101\W? to \W?\+44 20 7946 0202/);
        const timeline = await timelineText(page);
        expect(timeline).toContain("rita logged a call: Connected, 12 min");
        expect(timeline).toContain("Wants the tender pack by Thursday.");
        expect(timeline).toContain("Send the tender pack");
        expect(timeline).toContain(`rita completed the task “Call ${name} about the tender”`);
        expect(timeline).toMatch(new RegExp(`rita\\s+changed the status[\\s\\S]{0,40}${target}`));
        await expectNoA11yViolations(page);
        await expect(noSidewaysScroll(page)).resolves.toBe(true);
      } finally {
        await close();
      }
    }, 180_000);
  }
});
