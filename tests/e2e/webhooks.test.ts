import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import {
  startTestReceiver,
  type TestReceiver,
  verifyClausebridgeSignature,
} from "../../app/features/webhooks/testing/test-receiver.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { signIn } from "./support/accounts.ts";
import { expectNoA11yViolations, launchTestBrowser } from "./support/browser.ts";

// Issue 10, webhooks in Chromium against the production server (its own SQLite, private targets
// allowed so it may reach the receiver on 127.0.0.1): an admin adds a webhook from the dashboard,
// copies the one-time secret, sends a test event that the receiver verifies, and a real lead's
// lead.created answered 500 once is retried and then delivered, as the delivery log shows. Then the
// same page without JavaScript: create (secret on the answer page), rotate, delete with a
// confirmation step. Issue 32 point 16: every delivery also speaks Standard Webhooks, verified by the
// standard's library with the secret as the page or the API shows it, and a webhook stored by the
// previous release keeps verifying with its old secret.

/** The secret as shown: the Standard Webhooks form, `whsec_` + base64 of the 48-byte key. */
const SHOWN_SECRET = /^whsec_[A-Za-z0-9+/]{64}$/;

const ADMIN = { username: "webhook-admin", password: "webhook admin passphrase" };
const WAIT = { timeout: 15_000 };

let app: RunningServer;
let dataDir: string;
let database: AppDatabase;
let receiver: TestReceiver;
let browser: Browser;
let cookie = "";

beforeAll(async () => {
  receiver = await startTestReceiver();
  dataDir = mkdtempSync(join(tmpdir(), "webhooks-e2e-"));
  const databaseUrl = join(dataDir, "webhooks.sqlite");
  app = await startServer({
    DATABASE_URL: databaseUrl,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    LEAD_MIN_FILL_SECONDS: "0",
    LOG_LEVEL: "error",
  });
  database = openDatabase(databaseUrl, { poolSize: 1 });
  cookie = await signIn(app.url, ADMIN.username, ADMIN.password);
  browser = await launchTestBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await database?.close();
  await receiver?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** A signed-in admin's tab; an unexpected console error fails the test. */
async function adminPage(
  javaScript: boolean,
  allowConsoleErrors: RegExp[] = [],
): Promise<{ page: Page; context: BrowserContext; close(): Promise<void> }> {
  const context = await browser.newContext({
    javaScriptEnabled: javaScript,
    viewport: { width: 1280, height: 900 },
  });
  const [name = "", value = ""] = (cookie.split(";")[0] ?? "").split("=");
  await context.addCookies([{ name, value, url: app.url }]);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(message.text());
  });
  page.on("pageerror", (error) => errors.push(error.message));
  return {
    page,
    context,
    async close() {
      await context.close();
      expect(errors.filter((text) => !allowConsoleErrors.some((allowed) => allowed.test(text)))).toEqual([]);
    },
  };
}

/** A visitor's lead through the public API, with the time cookie any page hands out. */
async function submitLead(fullName: string): Promise<number> {
  const home = await fetch(app.url);
  await home.arrayBuffer();
  const timeCookie = (home.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const response = await fetch(`${app.url}/api/demo-request`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: timeCookie },
    body: JSON.stringify({
      fullName,
      email: "jane.doe@acme-build.example",
      company: "Acme Build",
      phone: "020 7946 0958",
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

const logEntries = (page: Page) => page.getByTestId("webhook-delivery").allInnerTexts();

describe("webhooks journey", () => {
  it("adds a webhook, verifies a test event, and retries a lead.created that got a 500", async () => {
    const { page, close } = await adminPage(true);
    await page.goto(`${app.url}/admin/dashboard`);
    await page.waitForSelector("html[data-hydrated]", { state: "attached" });
    // The dashboard's own Webhooks card (the sidebar has a link of the same name since issue 35).
    await page
      .getByRole("main")
      .getByRole("link", { name: /^Webhooks/ })
      .click();
    await page.getByRole("heading", { level: 1, name: "Webhooks" }).waitFor(WAIT);
    await expect(page.getByText("No webhooks yet.").count()).resolves.toBe(1);

    // The browser checks the form with the server's schema first.
    await page.getByLabel("Endpoint URL").fill("crm.example.com/hook");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await page.getByText("Enter a full URL starting with https:// or http://.").waitFor(WAIT);

    await page.getByLabel("Endpoint URL").fill(receiver.url);
    await expect(page.getByLabel("lead.created").isChecked()).resolves.toBe(true);
    await page.getByRole("button", { name: "Add webhook" }).click();
    const secretBox = page.getByTestId("webhook-secret");
    await secretBox.waitFor(WAIT);
    receiver.secret = (await secretBox.textContent()) ?? "";
    expect(receiver.secret).toMatch(SHOWN_SECRET);
    await expectNoA11yViolations(page);

    // A ping: signed, verified by the receiver, and the log refreshes itself to "Delivered".
    await page.getByRole("button", { name: "Send test event" }).click();
    await page.getByText("Test event queued.").waitFor(WAIT);
    await expect.poll(() => receiver.received.length, WAIT).toBe(1);
    expect(receiver.received[0]?.verified).toBe(true);
    expect(receiver.received[0]?.standardVerified).toBe(true);
    expect(JSON.parse(receiver.received[0]?.body ?? "")).toMatchObject({ event: "ping", test: true });
    await expect
      .poll(() => logEntries(page), WAIT)
      .toEqual([expect.stringMatching(/^Delivered\s+ping\s+Test/)]);
    // The secret is not on the page any more, nor in any answer since.
    expect(await page.content()).not.toContain(receiver.secret);

    // A real lead, answered 500 the first time.
    receiver.answers.push({ status: 500, body: "try later" });
    const leadId = await submitLead("Jane Doe");
    await expect.poll(() => receiver.received.length, WAIT).toBe(2);
    // The page learns of it when asked; from then on it refreshes itself while the retry is pending.
    await page.getByRole("link", { name: "Refresh the logs" }).click();
    await expect
      .poll(() => logEntries(page), WAIT)
      .toEqual([
        expect.stringMatching(
          /^Retrying\s+lead\.created[\s\S]*1 attempt · HTTP 500[\s\S]*next attempt[\s\S]*HTTP 500 from the receiver/,
        ),
        expect.stringMatching(/^Delivered\s+ping/),
      ]);

    // The backoff's first wait (about 30 s) passes: the worker, polling, tries again by itself.
    await database.db
      .updateTable("outbox")
      .set({ nextAttemptAt: new Date().toISOString() })
      .where("status", "=", "pending")
      .execute();
    await expect.poll(() => receiver.received.length, WAIT).toBe(3);
    const [first, second] = receiver.received.slice(1);
    expect(second?.verified).toBe(true);
    expect([first?.standardVerified, second?.standardVerified]).toEqual([true, true]);
    expect(second?.headers["x-clausebridge-event-id"]).toBe(first?.headers["x-clausebridge-event-id"]);
    // The standard's idempotency key: the same for the retry of the same delivery.
    expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
    expect(second?.headers["webhook-timestamp"]).toMatch(/^\d{10}$/);
    expect(JSON.parse(second?.body ?? "")).toMatchObject({
      event: "lead.created",
      data: {
        lead: { id: leadId, fullName: "Jane Doe", email: "jane.doe@acme-build.example", isSpam: false },
      },
    });
    await expect
      .poll(() => logEntries(page), WAIT)
      .toEqual([
        expect.stringMatching(/^Delivered\s+lead\.created[\s\S]*2 attempts · HTTP 200/),
        expect.stringMatching(/^Delivered\s+ping/),
      ]);

    // Deleted with a confirmation dialog.
    await page.getByRole("button", { name: "Delete", exact: true }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Delete permanently" }).click();
    await page.getByText("Webhook deleted.").waitFor(WAIT);
    await expect(page.getByTestId("webhook-card").count()).resolves.toBe(0);
    await close();
  });

  it("works without JavaScript: the secret on the answer page, rotation, and deletion after a confirmation step", async () => {
    // The empty form's 400 answer is reported by the browser itself.
    const { page, close } = await adminPage(false, [/status of 400 \(Bad Request\)/]);
    await page.goto(`${app.url}/admin/webhooks`);
    await page.getByRole("button", { name: "Add webhook" }).click();
    await page.getByText("Enter the URL that should receive the events.").waitFor(WAIT);

    await page.getByLabel("Endpoint URL").fill(`${receiver.url}?nojs=1`);
    await page.getByLabel("lead.deleted").check();
    await page.getByRole("button", { name: "Add webhook" }).click();
    const created = (await page.getByTestId("webhook-secret").textContent()) ?? "";
    expect(created).toMatch(SHOWN_SECRET);
    // Answered by the POST itself: reloading the address shows the page without it.
    expect(page.url()).toBe(`${app.url}/admin/webhooks`);
    const card = page.getByTestId("webhook-card").filter({ hasText: "?nojs=1" });
    await expect(card.getByRole("list", { name: "Events" }).innerText()).resolves.toMatch(
      /lead\.created\s+lead\.deleted/,
    );

    await card.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = (await page.getByTestId("webhook-secret").textContent()) ?? "";
    expect(rotated).toMatch(SHOWN_SECRET);
    expect(rotated).not.toBe(created);
    await page.getByRole("heading", { name: /Secret rotated/ }).waitFor(WAIT);

    await page
      .getByTestId("webhook-card")
      .filter({ hasText: "?nojs=1" })
      .getByRole("link", { name: "Delete" })
      .click();
    await page.getByRole("heading", { name: "Delete this webhook?" }).waitFor(WAIT);
    await page.getByRole("button", { name: "Delete permanently" }).click();
    await page.getByText("Webhook deleted.").waitFor(WAIT);
    expect(page.url()).toBe(`${app.url}/admin/webhooks?notice=deleted`);
    await expect(page.getByTestId("webhook-card").filter({ hasText: "?nojs=1" }).count()).resolves.toBe(0);
    await close();
  });
  it("speaks Standard Webhooks through the API: the creation answer's secret verifies with the standard's library, and a webhook stored before still verifies both ways", async () => {
    const standard = await startTestReceiver();
    try {
      const api = (path: string, body: unknown) =>
        fetch(`${app.url}${path}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Cookie: cookie, Origin: app.url },
          body: JSON.stringify(body),
        });
      const created = await api("/api/admin/webhooks", {
        url: `${standard.url}?api=1`,
        events: ["lead.created"],
      });
      expect(created.status).toBe(201);
      const { id, secret } = (await created.json()) as { id: number; secret: string };
      expect(secret).toMatch(SHOWN_SECRET);
      standard.secret = secret;
      expect((await api(`/api/admin/webhooks/${id}/test`, { event: "ping" })).status).toBe(202);
      await expect.poll(() => standard.received.length, WAIT).toBe(1);
      const [fresh] = standard.received;
      expect(fresh?.standardVerified).toBe(true);
      expect(fresh?.verified).toBe(true);
      expect(fresh?.headers["webhook-id"]).toBe(JSON.parse(fresh?.body ?? "{}").id);

      // A webhook the previous release stored: its secret was shown as is and keyed the HMAC as is.
      const oldSecret = `whsec_${randomBytes(32).toString("base64url")}`;
      const row = await database.db
        .insertInto("webhooks")
        .values({
          url: `${standard.url}?old=1`,
          events: JSON.stringify(["lead.created"]),
          secret: oldSecret,
          createdAt: new Date().toISOString(),
          createdBy: ADMIN.username,
          secretRotatedAt: null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      // Its whsec_ form for a Standard Webhooks library, as the README says to write it.
      standard.secret = `whsec_${Buffer.from(oldSecret).toString("base64")}`;
      expect((await api(`/api/admin/webhooks/${row.id}/test`, { event: "ping" })).status).toBe(202);
      await expect.poll(() => standard.received.length, WAIT).toBe(2);
      const old = standard.received[1];
      expect(old?.path).toBe("/hooks/clausebridge?old=1");
      expect(verifyClausebridgeSignature(oldSecret, old?.headers ?? {}, old?.body ?? "")).toBe(true);
      expect(old?.standardVerified).toBe(true);
    } finally {
      await standard.close();
    }
  });
});
