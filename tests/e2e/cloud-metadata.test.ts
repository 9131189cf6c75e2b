import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signIn } from "./support/accounts.ts";
import { baseUrl, setupBrowser } from "./support/browser.ts";
import { openSignedIn, readText, toastText } from "./support/pages.ts";

// Issue 32 point 1 against the production server, which runs with AUDIT_ALLOW_PRIVATE_TARGETS=true
// (and webhooks' switch off): cloud metadata is refused by every audit and by webhook creation, and
// the answer (the API's, the audit page's toast, the webhook form's field) says so. Every target
// here is refused before the server connects: by name, or by its address as written or as a 302
// leads to it, so no test opens a connection to a metadata address.
// NOTE: without the policy the server itself would connect out; run such a comparison only inside
// a network namespace with nothing but loopback (`unshare -n`).

setupBrowser();

const ADMIN = { username: inject("adminUsername"), password: inject("adminPassword") };
const WAIT = { timeout: 20_000 };
const FAILED_LOAD = [/Failed to load resource/];
const REFUSED =
  /^Refused: .* a cloud metadata address \(.*\); cloud metadata is never reached, whatever AUDIT_ALLOW_PRIVATE_TARGETS says\.$/;

let session = "";
let redirector: http.Server;
let redirectorOrigin = "";

beforeAll(async () => {
  session = await signIn(baseUrl, ADMIN.username, ADMIN.password);
  // An allowed page (loopback, the switch is on) that redirects to metadata.
  redirector = http.createServer((_request, response) => {
    response.writeHead(302, { Location: "http://2852039166/latest/meta-data/" }).end();
  });
  await new Promise<void>((resolve) => redirector.listen(0, "127.0.0.1", resolve));
  redirectorOrigin = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => redirector.close(() => resolve())));

const post = (path: string, body: unknown) =>
  fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: new URL(baseUrl).origin, Cookie: session },
    body: JSON.stringify(body),
  });

const TARGETS = [
  "http://169.254.169.254/latest/meta-data/",
  "http://2852039166/latest/meta-data/",
  "http://[::ffff:169.254.169.254]/latest/meta-data/",
  "http://100.100.100.200/latest/meta-data/",
  "http://metadata.google.internal./computeMetadata/v1/",
];

describe("the audit API with AUDIT_ALLOW_PRIVATE_TARGETS=true", () => {
  it.each(TARGETS)("refuses %s as a cloud metadata address in every check", async (url) => {
    const audit = await post("/api/admin/security-audit", { url });
    expect(audit.status).toBe(422);
    const body = (await audit.json()) as { error: string; details: string };
    expect(body.error).toBe("Refused");
    expect(body.details).toMatch(REFUSED);

    const check = await post("/api/admin/performance-check", { url });
    expect(check.status).toBe(200);
    expect(await check.json()).toMatchObject({ error: "Refused", details: expect.stringMatching(REFUSED) });

    const tls = await post("/api/admin/tls-check", { url: url.replace(/^http:/, "https:") });
    expect(tls.status).toBe(200);
    expect(await tls.json()).toMatchObject({ error: "Refused", details: expect.stringMatching(REFUSED) });
  });

  it("refuses a 302 from an allowed page to metadata, naming the page", async () => {
    const audit = await post("/api/admin/security-audit", { url: `${redirectorOrigin}/` });
    expect(audit.status).toBe(422);
    const body = (await audit.json()) as { details: string };
    expect(body.details).toMatch(/^Refused: 169\.254\.169\.254 is a cloud metadata address/);
    expect(body.details).toContain(`(after ${redirectorOrigin}/ → 302)`);
  });

  it("stores no audit of a metadata target", async () => {
    const list = await fetch(`${baseUrl}/api/admin/security-audits`, { headers: { Cookie: session } });
    const audits = (await list.json()) as { url: string }[];
    expect(audits.filter((audit) => /169\.254|2852039166|metadata|100\.100/.test(audit.url))).toEqual([]);
  });
});

describe("what staff see", () => {
  it("the audit page's toast says the target was refused as a cloud metadata address", async () => {
    const { page, close } = await openSignedIn("/admin/audit", { allowConsoleErrors: FAILED_LOAD }, session);
    await page.getByLabel("Website URL").fill("http://2852039166/latest/meta-data/");
    const answer = page.waitForResponse(
      (response) => response.url().endsWith("/api/admin/security-audit"),
      WAIT,
    );
    await page.getByRole("button", { name: /^(Run Audit|Running\.\.\.)$/ }).click();
    expect((await answer).status()).toBe(422);
    await expect
      .poll(() => toastText(page), WAIT)
      .toMatch(
        // The address as the server's URL parser wrote it: 2852039166 is 169.254.169.254.
        /^Security Audit Failed\nRefused: 169\.254\.169\.254 is a cloud metadata address \(the AWS, /,
      );
    await close();
  });

  /** Submits the webhook form and waits for the URL field's error to match. */
  async function expectRefusedWebhook(page: Page, url: string, message: RegExp) {
    await page.getByLabel("Endpoint URL").fill(url);
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect
      .poll(
        async () =>
          (await page.locator("#webhook-url-error").count())
            ? readText(page.locator("#webhook-url-error"))
            : "",
        WAIT,
      )
      .toMatch(message);
  }

  it("the webhook form refuses localhost. and metadata.google.internal as it refuses localhost", async () => {
    const { page, close } = await openSignedIn(
      "/admin/webhooks",
      { allowConsoleErrors: [...FAILED_LOAD, /status of 400/] },
      session,
    );
    const before = await page.getByTestId("webhook-card").count();
    await expectRefusedWebhook(
      page,
      "http://localhost/hook",
      /^Refused: localhost resolves to a loopback address \(127\.0\.0\.0\/8\)/,
    );
    await expectRefusedWebhook(
      page,
      "http://localhost./hook",
      /^Refused: localhost\. resolves to a loopback address \(127\.0\.0\.0\/8\)/,
    );
    await expectRefusedWebhook(
      page,
      "http://metadata.google.internal/computeMetadata/v1/",
      /^Refused: metadata\.google\.internal is a cloud metadata address \(Google Cloud's metadata server\); cloud metadata is never reached, whatever WEBHOOK_ALLOW_PRIVATE_TARGETS says\.$/,
    );
    await expect(page.getByTestId("webhook-card").count()).resolves.toBe(before);
    await close();
  });
});
