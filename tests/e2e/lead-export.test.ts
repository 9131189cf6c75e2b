import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { leadRow } from "../support/lead-rows.ts";
import { createAccount, signIn } from "./support/accounts.ts";
import { baseUrl, downloadedBytes, setupBrowser } from "./support/browser.ts";
import { openSignedIn } from "./support/pages.ts";

// Issue 22: "Export ticked" on the dashboard downloads the CSV of the ticked leads, with and without
// JavaScript, and the access log records one export per file sent (it recorded one for the blank
// page the router used to open instead).

setupBrowser();

const RUN = Date.now().toString(36);
const COMPANY = `Export ${RUN} Builders`;
const EXPORTER = { username: `exporter-${RUN}`, password: "Exporter passphrase 22", isAdmin: true };
const WAIT = { timeout: 10_000 };

let database: AppDatabase;
let session: string;
let leadIds: number[] = [];

beforeAll(async () => {
  const databaseUrl = inject("databaseUrl");
  database = openDatabase(databaseUrl, { poolSize: 1 });
  await createAccount(databaseUrl, EXPORTER);
  session = await signIn(baseUrl, EXPORTER.username, EXPORTER.password);
  const rows = await database.db
    .insertInto("leads")
    .values(
      ["Alpha", "Bravo", "Charlie"].map((name) =>
        leadRow({
          fullName: `${name} ${RUN}`,
          email: `${name.toLowerCase()}-${RUN}@example.com`,
          company: COMPANY,
        }),
      ),
    )
    .returning("id")
    .execute();
  leadIds = rows.map((row) => Number(row.id));
});

afterAll(async () => {
  if (!database) return;
  if (leadIds.length > 0) await database.db.deleteFrom("leads").where("id", "in", leadIds).execute();
  await database.db.deleteFrom("accessLog").where("actorUsername", "=", EXPORTER.username).execute();
  await database.db.deleteFrom("users").where("username", "=", EXPORTER.username).execute();
  await database.close();
});

/** The exports this file's account has in the access log. */
async function exportsLogged(): Promise<number> {
  const rows = await database.db
    .selectFrom("accessLog")
    .select("id")
    .where("actorUsername", "=", EXPORTER.username)
    .where("action", "=", "export")
    .execute();
  return rows.length;
}

/** Ticks Alpha and Charlie, clicks "Export ticked" and returns the downloaded file's text. */
async function exportTicked(page: Page): Promise<string> {
  await page.getByRole("checkbox", { name: `Select Alpha ${RUN}` }).check();
  await page.getByRole("checkbox", { name: `Select Charlie ${RUN}` }).check();
  const [download] = await Promise.all([
    page.waitForEvent("download", WAIT),
    page.getByRole("button", { name: "Export selected" }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^leads-\d{4}-\d{2}-\d{2}\.csv$/);
  return (await downloadedBytes(download)).toString("utf8");
}

const namesIn = (csv: string) =>
  csv
    .split("\r\n")
    .filter((line) => line.includes(RUN))
    .map((line) => /"((?:Alpha|Bravo|Charlie) [^"]+)"/.exec(line)?.[1]);

describe("Export ticked", () => {
  for (const javaScript of [true, false]) {
    it(`downloads the ticked leads' CSV and logs one export (JavaScript ${javaScript ? "on" : "off"})`, async () => {
      const before = await exportsLogged();
      const opened = await openSignedIn(
        `/admin/dashboard?q=${encodeURIComponent(COMPANY)}`,
        { javaScript },
        session,
      );
      const { page } = opened;
      await page.getByRole("checkbox", { name: `Select Alpha ${RUN}` }).waitFor(WAIT);
      const csv = await exportTicked(page);
      expect(namesIn(csv).sort()).toEqual([`Alpha ${RUN}`, `Charlie ${RUN}`]);
      // The dashboard stays where it was: the download does not replace it with a blank page.
      expect(new URL(page.url()).pathname).toBe("/admin/dashboard");
      await expect(page.getByRole("heading", { name: "Admin Dashboard" }).count()).resolves.toBe(1);
      await expect.poll(exportsLogged).toBe(before + 1);
      // Nothing else arrives later (a second request for the same export).
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await exportsLogged()).toBe(before + 1);
      await opened.close();
    });
  }

  it("is never run as route data, so no export is logged without a file", async () => {
    const before = await exportsLogged();
    const response = await fetch(`${baseUrl}/api/admin/leads/export.data?ids=${leadIds[0]}`, {
      headers: { Cookie: session },
    });
    await response.arrayBuffer();
    expect(response.status).toBe(404);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await exportsLogged()).toBe(before);
  });

  it("still applies a bulk action through the router, and logs no export for it", async () => {
    const before = await exportsLogged();
    const opened = await openSignedIn(`/admin/dashboard?q=${encodeURIComponent(COMPANY)}`, {}, session);
    const { page } = opened;
    // Marks the document: a full page load (the browser's own submission) would lose it.
    await page.evaluate(() => {
      (window as unknown as { notReloaded: boolean }).notReloaded = true;
    });
    await page.getByRole("checkbox", { name: `Select Bravo ${RUN}` }).check();
    await page.getByLabel("Action for the selected leads").selectOption({ label: "Status: Contacted" });
    await page.getByRole("button", { name: "Apply", exact: true }).click();
    await page.waitForURL(/notice=bulk/, WAIT);
    await page.getByText("The selected leads have been updated.").waitFor(WAIT);
    await expect(
      page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
    ).resolves.toBe(true);
    const bravo = await database.db
      .selectFrom("leads")
      .select("status")
      .where("fullName", "=", `Bravo ${RUN}`)
      .executeTakeFirstOrThrow();
    expect(bravo.status).toBe("contacted");
    expect(await exportsLogged()).toBe(before);
    await opened.close();
  });

  it("reads in the access log as how many leads went out and which, in words", async () => {
    const opened = await openSignedIn("/admin/access-log?kind=exports", {}, session);
    const entries = opened.page
      .getByRole("list", { name: "Entries" })
      .getByRole("listitem")
      .filter({ hasText: EXPORTER.username });
    await expect(entries.count()).resolves.toBe(2);
    for (const text of await entries.allInnerTexts()) {
      expect(text).toContain("Exported 2 leads");
      expect(text).toContain("Ticked on the dashboard");
      // Not the form's raw fields ("intent=bulk&do=status%3Acontacted&ids=4"), nor "2 rows".
      expect(text).not.toMatch(/intent|ids=|rows/);
    }
    await opened.close();
  });
});
