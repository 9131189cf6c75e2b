import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type GradedSite, startGradedSite } from "../../app/features/audits/testing/test-servers.ts";
import { signIn } from "./support/accounts.ts";
import { baseUrl, expectNoA11yViolations, MOBILE, type OpenedPage, setupBrowser } from "./support/browser.ts";
import { openSignedIn, pathOf } from "./support/pages.ts";

// Issue 25's watches in Chromium and over the API, against the e2e server (it runs with
// AUDIT_ALLOW_PRIVATE_TARGETS=true) and a fixture site on 127.0.0.1 whose headers the test changes:
// a staff member adds a watch through the page, runs it now, sees the result and the trend table,
// sees the alert when the grade drops; the same without JavaScript; the API's answers.

setupBrowser();

const ADMIN = { username: inject("adminUsername"), password: inject("adminPassword") };
const WAIT = { timeout: 15_000 };
/** A run audits the site in a child process and times it three times over. */
const RUN_WAIT = { timeout: 60_000 };
const SHOTS = process.env.SCREENSHOTS_DIR;
// Chromium reports each refused form post (a 400 with the messages) as a console error.
const FAILED_LOAD = [/Failed to load resource/];
let site: GradedSite;
let session = "";
const origin = new URL(baseUrl).origin;
const created: number[] = [];

const api = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  fetch(`${baseUrl.replace(/\/+$/, "")}${path}`, {
    method,
    headers: {
      Origin: origin,
      Cookie: session,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

beforeAll(async () => {
  site = await startGradedSite();
  session = await signIn(baseUrl, ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  for (const id of created) await api("DELETE", `/api/admin/watches/${id}`);
  await site?.close();
});

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

const watchIdOf = (page: Page) => Number(/\/admin\/watches\/(\d+)/.exec(pathOf(page))?.[1]);
const trendRows = (page: Page) => page.getByRole("region", { name: "Trend table" }).locator("tbody tr");

async function addWatch(page: Page, path: string, javaScript: boolean) {
  await page.getByLabel("Address").fill(`${site.origin}${path}`);
  await page.getByLabel("How often").selectOption("hourly");
  // The e2e admin's user name is no email address: the field is required here.
  await page.getByRole("button", { name: "Add watch" }).click();
  await expect
    .poll(() => page.getByText("Enter at least one email address for the alerts.").count(), WAIT)
    .toBe(1);
  await page.getByLabel("Alert emails to").fill("ops@example.com, Web@Example.com");
  await page.getByRole("button", { name: "Add watch" }).click();
  await expect.poll(() => pathOf(page), WAIT).toMatch(/^\/admin\/watches\/\d+\?notice=created$/);
  created.push(watchIdOf(page));
  await expect
    .poll(() => page.getByRole("heading", { level: 1 }).innerText(), WAIT)
    .toBe(`${site.origin}${path}`);
  if (!javaScript) expect(await page.getByText("Watch added.").count()).toBe(1);
}

async function runNow(page: Page) {
  await page.getByRole("button", { name: "Run now" }).click();
  await expect.poll(() => pathOf(page), RUN_WAIT).toMatch(/\?notice=ran$/);
  await expect.poll(() => page.getByText("Run finished: its results are below.").count(), WAIT).toBe(1);
}

describe("watches in the back office", () => {
  let opened: OpenedPage | undefined;
  afterAll(async () => {
    await opened?.close();
  });

  it("a staff member adds a watch from the navigation, runs it now, sees the result, the trend and an alert when the grade drops", async () => {
    site.setGood(true);
    opened = await openSignedIn("/admin/audit", { allowConsoleErrors: FAILED_LOAD }, session);
    const { page } = opened;
    await page.getByRole("link", { name: "Watches", exact: true }).first().click();
    await expect.poll(() => pathOf(page), WAIT).toBe("/admin/watches");
    await addWatch(page, "/with-script", true);

    await runNow(page);
    await expect.poll(() => page.getByTestId("audit-grade").innerText(), WAIT).toBe("C+");
    expect(await trendRows(page).count()).toBe(1);
    expect(await trendRows(page).first().innerText()).toMatch(/Run \d+.*C\+\s+60\s+200/s);
    expect(await page.getByRole("img", { name: /Security score/ }).count()).toBe(1);

    site.setGood(false);
    await runNow(page);
    await expect.poll(() => page.getByTestId("audit-grade").innerText(), WAIT).toBe("F");
    expect(await trendRows(page).count()).toBe(2);
    const alert = page.getByTestId("watch-alert");
    expect(await alert.count()).toBe(1);
    expect(await alert.innerText()).toMatch(
      /^open\s+Security grade dropped[\s\S]*The security grade dropped from C\+ to F\./i,
    );
    await expectNoA11yViolations(page);
    await shot(page, "watch-1280");
    await page.setViewportSize(MOBILE);
    await shot(page, "watch-375");
    if (SHOTS) {
      await page.getByRole("heading", { name: "Trend" }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, "watch-375-trend.png") });
    }

    // The list shows it with its open alert.
    await page.getByRole("link", { name: "All watches" }).click();
    await expect.poll(() => pathOf(page), WAIT).toBe("/admin/watches");
    const row = page
      .getByRole("region", { name: "Watched sites table" })
      .locator("tr", { hasText: "/with-script" });
    expect(await row.innerText()).toMatch(
      /Security audit, Performance check\s+Every hour[\s\S]*grade F[\s\S]*All checks ran\s+1/,
    );
    expect(await page.getByRole("region", { name: "Watched sites table" }).count()).toBe(1);
    expect(await page.getByTestId("watch-alert").filter({ hasText: "/with-script" }).count()).toBe(1);
    await shot(page, "watches-375");
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, "watches-1280");

    // An earlier run opens from the trend table.
    await page
      .getByRole("region", { name: "Watched sites table" })
      .getByRole("link", { name: /with-script/ })
      .click();
    await expect.poll(() => trendRows(page).count(), WAIT).toBe(2);
    await trendRows(page).last().getByRole("link").click();
    await expect.poll(() => page.getByRole("heading", { name: /^Run \d+$/ }).count(), WAIT).toBe(1);
    expect(await page.getByTestId("audit-grade").innerText()).toBe("C+");
  }, 180_000);

  it("works without JavaScript: add, run now, the result and the trend table, pause", async () => {
    site.setGood(true);
    const noScript = await openSignedIn(
      "/admin/watches",
      { javaScript: false, allowConsoleErrors: FAILED_LOAD },
      session,
    );
    try {
      const { page } = noScript;
      await addWatch(page, "/without-script", false);
      await runNow(page);
      expect(await page.getByTestId("audit-grade").innerText()).toBe("C+");
      expect(await trendRows(page).count()).toBe(1);
      await page.getByRole("button", { name: "Pause" }).click();
      await expect.poll(() => pathOf(page), WAIT).toMatch(/\?notice=paused$/);
      expect(await page.getByRole("button", { name: "Resume" }).count()).toBe(1);
      // A refused change says why, with what was typed.
      await page.getByLabel("Address").last().fill("ftp://example.com/");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect.poll(() => page.getByText(/audited|http/i).count(), WAIT).toBeGreaterThan(0);
      expect(await page.getByLabel("Address").last().inputValue()).toBe("ftp://example.com/");
    } finally {
      await noScript.close();
    }
  }, 180_000);
});

describe("the watches API", () => {
  it("refuses strangers (401) and cross-site changes (403), and explains a bad body (400)", async () => {
    expect((await fetch(`${baseUrl.replace(/\/+$/, "")}/api/admin/watches`)).status).toBe(401);
    expect(
      (
        await api(
          "POST",
          "/api/admin/watches",
          { url: "https://example.com", checks: ["security"], every: "daily" },
          { Origin: "https://evil.example" },
        )
      ).status,
    ).toBe(403);
    const bad = await api("POST", "/api/admin/watches", {
      url: "",
      checks: ["fax"],
      every: "monthly",
      recipients: "not-an-address",
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      message: "Enter the address of the site to watch.",
      errors: {
        url: "Enter the address of the site to watch.",
        checks: "Unknown check: choose from security, performance, lab, tls.",
        every: "Choose how often: hourly, daily or weekly.",
        recipients: "Enter email addresses separated by commas, like ops@example.com.",
      },
    });
    const body = await api("POST", "/api/admin/watches", "x".repeat(10_000));
    expect(body.status).toBe(413);
  });

  it("creates, reads, changes, runs and deletes a watch", async () => {
    site.setGood(true);
    const create = await api("POST", "/api/admin/watches", {
      url: `${site.origin}/api`,
      checks: ["performance", "security"],
      every: "weekly",
      recipients: ["ops@example.com"],
    });
    expect(create.status).toBe(201);
    const watch = (await create.json()) as {
      id: number;
      checks: string[];
      every: string;
      nextRunAt: string;
      paused: boolean;
    };
    created.push(watch.id);
    expect(watch).toMatchObject({ checks: ["security", "performance"], every: "weekly", paused: false });

    const run = await api("POST", `/api/admin/watches/${watch.id}/run`);
    expect(run.status).toBe(201);
    const detail = (await run.json()) as {
      status: string;
      securityGrade: string;
      results: { security: { ok: boolean } };
    };
    expect(detail).toMatchObject({ status: "ok", securityGrade: "C+", results: { security: { ok: true } } });

    const read = await api("GET", `/api/admin/watches/${watch.id}`);
    const view = (await read.json()) as {
      runs: unknown[];
      latestRun: { securityGrade: string };
      alerts: unknown[];
    };
    expect(view.runs).toHaveLength(1);
    expect(view.latestRun.securityGrade).toBe("C+");

    const list = (await (await api("GET", "/api/admin/watches")).json()) as {
      watches: { id: number }[];
      checks: string[];
    };
    expect(list.watches.some((item) => item.id === watch.id)).toBe(true);
    expect(list.checks).toEqual(expect.arrayContaining(["security", "performance"]));

    const patch = await api("PATCH", `/api/admin/watches/${watch.id}`, { paused: true, every: "daily" });
    expect(patch.status).toBe(200);
    expect(await patch.json()).toMatchObject({ paused: true, every: "daily" });
    const unknown = await api("PATCH", `/api/admin/watches/${watch.id}`, { colour: "red" });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { message: string }).message).toBe("Unknown field: colour.");

    expect((await api("DELETE", `/api/admin/watches/${watch.id}`)).status).toBe(204);
    expect((await api("GET", `/api/admin/watches/${watch.id}`)).status).toBe(404);
    expect((await api("POST", `/api/admin/watches/${watch.id}/run`)).status).toBe(404);
  }, 120_000);
});
