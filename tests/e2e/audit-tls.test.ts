import { mkdirSync } from "node:fs";
import https from "node:https";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { detailsHref } from "../../app/features/audits/audit-paths.ts";
import type { SecurityAuditRecord } from "../../app/features/audits/audit-store.server.ts";
import { createTlsTestCertificates } from "../../app/features/audits/tls/testing/tls-test-certificates.ts";
import { TLS_TEXT } from "../../app/features/audits/tls/tls-texts.ts";
import type { TlsCheckResult } from "../../app/features/audits/tls/tls-types.ts";
import { signIn } from "./support/accounts.ts";
import { baseUrl, expectNoA11yViolations, MOBILE, setupBrowser } from "./support/browser.ts";
import { openSignedIn, readText, toastText } from "./support/pages.ts";

// Issue 25's TLS check on /admin/audit in Chromium, and its API, against a local HTTPS server whose
// certificate expires in 5 days and which still accepts TLS 1.0 and 1.1; and its findings in a
// stored security audit of that server. The e2e server runs with
// AUDIT_ALLOW_PRIVATE_TARGETS=true, so it may reach 127.0.0.1; the test CA is not one of its trusted
// roots, so the chain does not verify.

setupBrowser();

const ADMIN = { username: inject("adminUsername"), password: inject("adminPassword") };
/** A TLS check is four handshakes on this machine; give a loaded machine room. */
const CHECK_WAIT = { timeout: 30_000 };
/** A journey with a check in it, on a machine shared with other test runs. */
const JOURNEY_MS = 60_000;

let session: string;
let database: AppDatabase;
let fixture: https.Server;
const sockets = new Set<Socket>();
let target = "";

beforeAll(async () => {
  session = await signIn(baseUrl, ADMIN.username, ADMIN.password);
  database = openDatabase(inject("databaseUrl"), { poolSize: 1 });
  fixture = https.createServer(
    {
      ...(await createTlsTestCertificates()).expiring,
      minVersion: "TLSv1",
      // Level 0 so this server really offers TLS 1.0/1.1 (OpenSSL 3's default would not).
      ciphers: "DEFAULT@SECLEVEL=0",
    },
    (_request, response) => {
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
      response.end("<!doctype html><title>TLS fixture</title><p>Hello</p>");
    },
  );
  fixture.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  fixture.on("tlsClientError", () => {});
  await new Promise<void>((resolve) => fixture.listen(0, "127.0.0.1", resolve));
  target = `https://localhost:${(fixture.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  // The e2e database is shared by every test file: leave it without this file's audit.
  if (database && target) await database.db.deleteFrom("securityAudits").where("url", "=", target).execute();
  await database?.close();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => (fixture ? fixture.close(() => resolve()) : resolve()));
});

const card = (page: Page) => page.getByTestId("tls-card");
const checkButton = (page: Page) => page.getByRole("button", { name: /^(Check TLS|Checking TLS\.\.\.)$/ });
const protocolRow = (page: Page, version: string) => card(page).locator(`tr[data-protocol="${version}"]`);

async function saveCard(locator: Locator, name: string) {
  if (process.env.SAVE_SCREENSHOTS !== "1") return;
  const target = join(process.cwd(), "docs", "screenshots");
  mkdirSync(target, { recursive: true });
  // A full-page picture clipped to the card: an element shot scrolls, and the sticky top bar lands on the card.
  const page = locator.page();
  // A toast would cover part of the card: wait for it to leave (SPEC: 5 s).
  await page
    .getByRole("region", { name: /^Notifications/ })
    .locator("li")
    .waitFor({ state: "detached", timeout: 15_000 });
  await page.evaluate(() => window.scrollTo(0, 0));
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${name}: the card is not on screen`);
  await page.screenshot({
    path: join(target, `${name}.png`),
    fullPage: true,
    clip: box,
    animations: "disabled",
    caret: "hide",
  });
}

/** What the card shows for the fixture, with or without JavaScript. */
async function expectFixtureResult(page: Page) {
  const result = card(page).getByTestId("tls-result");
  await result.waitFor(CHECK_WAIT);
  expect(await readText(card(page).getByTestId("tls-days-left"))).toMatch(/^[45] days left$/);
  expect(await readText(card(page).getByTestId("tls-chain"))).toBe("Not trusted");
  const facts = await readText(result);
  expect(facts).toContain("CN=TLS Check Test CA");
  expect(facts).toContain("DNS:localhost, IP Address:127.0.0.1");
  expect(facts).toContain("EC 256 bits (prime256v1)");
  expect(await readText(protocolRow(page, "TLS 1.0"))).toMatch(/^TLS 1\.0\s+Accepted/);
  expect(await readText(protocolRow(page, "TLS 1.1"))).toMatch(/^TLS 1\.1\s+Accepted/);
  expect(await readText(protocolRow(page, "TLS 1.3"))).toMatch(/^TLS 1\.3\s+Accepted/);
  const findings = result.locator("li[data-issue]");
  const byId = async (id: string) => readText(result.locator(`li[data-issue="${id}"]`));
  expect(await findings.count()).toBe(4);
  expect(await byId("tls-certificate-expiring")).toMatch(/^High\s+TLS certificate expires in [45] days/);
  expect(await byId("tls-certificate-invalid")).toMatch(/^Critical\s+TLS certificate not trusted/);
  expect(await byId("tls-protocol-1-0-accepted")).toMatch(/^High\s+TLS 1\.0 accepted/);
  expect(await byId("tls-protocol-1-1-accepted")).toMatch(/^High\s+TLS 1\.1 accepted/);
}

describe("the TLS check on /admin/audit", () => {
  it(
    "checks a local server with JavaScript: the card shows the certificate, the protocols and the findings",
    async () => {
      const { page, close } = await openSignedIn("/admin/audit", {}, session);
      await page.getByLabel(TLS_TEXT.urlLabel).fill(target);
      await checkButton(page).click();
      // The toast first: it leaves after 5 s.
      await card(page).getByTestId("tls-result").waitFor(CHECK_WAIT);
      expect(await toastText(page)).toMatch(
        /^TLS Check Complete\s+Certificate: [45] days left, not trusted\. 4 findings \(1 critical\)\.$/,
      );
      await expectFixtureResult(page);
      await expectNoA11yViolations(page);
      await saveCard(card(page), "audit-tls-check-1280");
      await close();
    },
    JOURNEY_MS,
  );

  it(
    "works without JavaScript, and at 375 px",
    async () => {
      const { page, close } = await openSignedIn("/admin/audit", { javaScript: false, ...MOBILE }, session);
      await page.getByLabel(TLS_TEXT.urlLabel).fill(target);
      const loaded = page.waitForEvent("load", CHECK_WAIT);
      await checkButton(page).click();
      await loaded;
      expect(await readText(page.getByRole("status").filter({ hasText: TLS_TEXT.complete }))).toMatch(
        /^TLS Check Complete\. Certificate: [45] days left, not trusted\. 4 findings \(1 critical\)\. See the result$/,
      );
      await expectFixtureResult(page);
      // The address sent stays in the TLS form; the audit form keeps its own default.
      expect(await page.getByLabel(TLS_TEXT.urlLabel).inputValue()).toBe(target);
      expect(await page.getByLabel("Website URL").inputValue()).not.toBe(target);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(MOBILE.width);
      await saveCard(card(page), "audit-tls-check-375");
      await close();
    },
    JOURNEY_MS,
  );

  it(
    "says what is wrong with an address that is not https, without JavaScript",
    async () => {
      const { page, close } = await openSignedIn(
        "/admin/audit",
        { javaScript: false, allowConsoleErrors: [/Failed to load resource/] },
        session,
      );
      await page.getByLabel(TLS_TEXT.urlLabel).fill("http://localhost/");
      const loaded = page.waitForEvent("load", CHECK_WAIT);
      await checkButton(page).click();
      await loaded;
      expect(await readText(page.getByRole("alert").filter({ hasText: TLS_TEXT.failed }))).toBe(
        "TLS Check Failed. The TLS check needs an https:// address.",
      );
      expect(await card(page).getByTestId("tls-result").count()).toBe(0);
      await close();
    },
    JOURNEY_MS,
  );
});

describe("POST /api/admin/tls-check", () => {
  const post = (body: unknown, cookie?: string) =>
    fetch(new URL("/api/admin/tls-check", baseUrl), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Origin: new URL(baseUrl).origin,
        ...(cookie ? { Cookie: cookie } : {}),
      },
      body: JSON.stringify(body),
    });

  it("answers 401 without a session and 400 for an address it cannot check", async () => {
    expect((await post({ url: target })).status).toBe(401);
    for (const url of ["", "ftp://localhost/", "http://localhost/", "not a url", 42]) {
      const answer = await post({ url }, session);
      expect(answer.status, String(url)).toBe(400);
      expect(((await answer.json()) as { message: string }).message).toBeTruthy();
    }
  });

  it("answers 200 with the result the page shows", async () => {
    const answer = await post({ url: target }, session);
    expect(answer.status).toBe(200);
    const result = (await answer.json()) as TlsCheckResult;
    expect(result.error).toBeUndefined();
    expect(result.address).toBe("127.0.0.1");
    expect(result.protocols).toEqual({ "TLS 1.0": true, "TLS 1.1": true, "TLS 1.2": true, "TLS 1.3": true });
    expect(result.certificate).toMatchObject({
      subject: "CN=localhost",
      matchesHost: true,
      chainVerified: false,
      verifyError: "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      keyType: "EC",
      keyBits: 256,
    });
    expect(result.certificate?.daysLeft).toBeGreaterThanOrEqual(4);
    expect(result.issues.map((issue) => `${issue.id}:${issue.severity}`)).toEqual([
      "tls-certificate-expiring:high",
      "tls-certificate-invalid:critical",
      "tls-protocol-1-0-accepted:high",
      "tls-protocol-1-1-accepted:high",
    ]);
  });
});

describe("a security audit of an https site", () => {
  it(
    "lists the TLS findings among its issues, and the details show them",
    async () => {
      const answer = await fetch(new URL("/api/admin/security-audit", baseUrl), {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: new URL(baseUrl).origin, Cookie: session },
        body: JSON.stringify({ url: target }),
      });
      expect(answer.status).toBe(201);
      const record = (await answer.json()) as SecurityAuditRecord;
      const tlsIds = record.issues
        .filter((issue) => issue.id.startsWith("tls-"))
        .map((issue) => `${issue.id}:${issue.severity}`);
      // Once each: the TLS check's certificate findings replace those of the page fetch.
      expect(tlsIds.sort()).toEqual([
        "tls-certificate-expiring:high",
        "tls-certificate-invalid:critical",
        "tls-protocol-1-0-accepted:high",
        "tls-protocol-1-1-accepted:high",
      ]);

      const { page, close } = await openSignedIn(detailsHref(record), { javaScript: false }, session);
      const details = page.locator("#audit-details");
      expect(await readText(details.locator('li[data-issue="tls-protocol-1-0-accepted"]'))).toMatch(
        /^High\s+TLS 1\.0 accepted\s+Category: Transport security/,
      );
      expect(await readText(details.locator('li[data-issue="tls-certificate-expiring"]'))).toMatch(
        /^High\s+TLS certificate expires in [45] days/,
      );
      await close();
    },
    JOURNEY_MS,
  );
});
