import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../app/db/database.server.ts";
import {
  LAB_METRIC_KEYS,
  LAB_METRIC_NAMES,
  type LabResult,
} from "../../app/features/audits/lab/lab-types.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { signIn } from "./support/accounts.ts";
import { MOBILE, openPage, setupBrowser, waitForHydration } from "./support/browser.ts";
import { cookiesFor, readText } from "./support/pages.ts";

// Issue 25's lab check through what staff use: the Lab check card on /admin/audit in Chromium (with
// and without JavaScript), the JSON API (authz, Origin, input, busy), and a server with no browser
// on it, where the card says how to install Chromium and the rest of the page still works.
// Each real Lighthouse run takes 15-30 s here: three in this file.

setupBrowser();

const ADMIN = { username: "lab-admin", password: "lab admin passphrase" };
const SALES = { username: "lab-sales", password: "lab sales passphrase" };
const LAB_RUN = { timeout: 90_000 };
const FAILED_LOAD = [/Failed to load resource/];

let server: RunningServer;
let dataDir: string;
let adminCookie = "";
let salesCookie = "";
let fixtureOrigin = "";
const fixture = http.createServer((request, response) => {
  if (request.url === "/favicon.ico") return response.writeHead(404).end();
  const respond = () => {
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width">
<title>Lab fixture</title></head><body style="font:18px sans-serif;margin:2rem">
<h1>Construction contracts, clearly</h1><p>${"A paragraph of the fixture page. ".repeat(30)}</p>
<img src="http://169.254.169.254/latest/meta-data/pixel.png" alt="" width="1" height="1">
</body></html>`);
  };
  // A slow page holds the one audit slot while a second request is refused as busy.
  if (request.url?.startsWith("/slow")) setTimeout(respond, 4_000);
  else respond();
});

beforeAll(async () => {
  await new Promise<void>((resolve) => fixture.listen(0, "127.0.0.1", resolve));
  fixtureOrigin = `http://127.0.0.1:${(fixture.address() as AddressInfo).port}`;
  dataDir = mkdtempSync(join(tmpdir(), "lab-e2e-"));
  const databaseUrl = join(dataDir, "lab.sqlite");
  server = await startServer({
    DATABASE_URL: databaseUrl,
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    // The fixture is on 127.0.0.1; cloud metadata stays refused all the same.
    AUDIT_ALLOW_PRIVATE_TARGETS: "true",
    AUDIT_MAX_RUNNING: "1",
    AUDIT_MAX_QUEUED: "0",
  });
  const database = openDatabase(databaseUrl, { poolSize: 1 });
  try {
    await createUser(database.db, { ...SALES, role: "sales" });
  } finally {
    await database.close();
  }
  adminCookie = await signIn(server.url, ADMIN.username, ADMIN.password);
  salesCookie = await signIn(server.url, SALES.username, SALES.password);
}, 90_000);

afterAll(async () => {
  await server?.stop();
  fixture.closeAllConnections();
  await new Promise((resolve) => fixture.close(resolve));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const postLab = (body: unknown, { cookie = adminCookie, origin = new URL(server.url).origin } = {}) =>
  fetch(`${server.url}/api/admin/lab-check`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: origin, ...(cookie ? { Cookie: cookie } : {}) },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

async function openAudit(
  url: string,
  cookie: string,
  options: { javaScript?: boolean; width?: number } = {},
) {
  const opened = await openPage(`${url}/admin/login`, { allowConsoleErrors: FAILED_LOAD, ...options });
  await opened.context.addCookies(cookiesFor(cookie, url));
  await opened.page.goto(`${url}/admin/audit`, { waitUntil: "load" });
  if (options.javaScript !== false) await waitForHydration(opened.page);
  return opened;
}

const labCard = (page: Page) => page.getByTestId("lab-card");

/** The score and the six metrics as the card shows them. */
async function readLabCard(page: Page) {
  const card = labCard(page);
  const score = Number(
    await card
      .getByTestId("lab-score")
      .first()
      .getAttribute("aria-label")
      .then((t) => /\d+/.exec(t ?? "")?.[0]),
  );
  const metrics: Record<string, string> = {};
  for (const key of LAB_METRIC_KEYS) metrics[key] = await readText(card.locator(`[data-metric="${key}"]`));
  return { score, metrics };
}

describe("POST /api/admin/lab-check", () => {
  it("answers 401 signed out, 403 to a role without audits.use, 403 cross-site, 405 to GET", async () => {
    expect((await postLab({ url: fixtureOrigin }, { cookie: "" })).status).toBe(401);
    expect((await postLab({ url: fixtureOrigin }, { cookie: salesCookie })).status).toBe(403);
    expect((await postLab({ url: fixtureOrigin }, { origin: "https://evil.example" })).status).toBe(403);
    expect(
      (await fetch(`${server.url}/api/admin/lab-check`, { headers: { Cookie: adminCookie } })).status,
    ).toBe(405);
  });

  it("answers 400 to bad input: no URL, a non-web URL, an unknown device, a body that is not JSON or too large", async () => {
    for (const body of [
      {},
      { url: "" },
      { url: "ftp://example.com/" },
      { url: "javascript:alert(1)" },
      { url: fixtureOrigin, device: "tablet" },
      { url: fixtureOrigin, device: 3 },
    ]) {
      const response = await postLab(body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(((await response.json()) as { message: string }).message).not.toBe("");
    }
    expect((await postLab("{not json")).status).toBe(400);
    expect([400, 413]).toContain((await postLab({ url: `https://example.com/${"a".repeat(8_000)}` })).status);
  });

  it(
    "answers 422 for cloud metadata even with AUDIT_ALLOW_PRIVATE_TARGETS=true, and for a page that does not load",
    async () => {
      const metadata = await postLab({ url: "http://169.254.169.254/latest/meta-data/" });
      expect(metadata.status).toBe(422);
      const body = (await metadata.json()) as LabResult & { message: string };
      expect(body.error).toBe("Refused");
      expect(body.message).toMatch(/cloud metadata/);
      // Nothing listens on port 1: the browser gets the traffic guard's 502 (Chromium shows it as an
      // error page, an "interstitial" to Lighthouse), and Lighthouse no page to measure.
      const dead = await postLab({ url: "http://127.0.0.1:1/" });
      expect(dead.status).toBe(422);
      const deadBody = (await dead.json()) as LabResult & { message: string };
      expect(deadBody.error).toBe("The page could not be loaded");
      expect(deadBody.details).toMatch(/interstitial|502|unable to reliably load/i);
    },
    LAB_RUN.timeout,
  );

  it(
    "measures a page (200, the result as the page shows it) and answers 503 with Retry-After while the slot is taken",
    async () => {
      const first = postLab({ url: `${fixtureOrigin}/slow`, device: "mobile" });
      // The first run holds the only slot (AUDIT_MAX_RUNNING=1, no queue) for at least the 4 s the page waits.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const busy = await postLab({ url: fixtureOrigin });
      expect(busy.status).toBe(503);
      expect(busy.headers.get("retry-after")).toBe("30");
      expect(((await busy.json()) as { error: string }).error).toBe("Busy");

      const answer = await first;
      expect(answer.status).toBe(200);
      const result = (await answer.json()) as LabResult & { id: number };
      expect(result.error, result.details).toBeUndefined();
      expect(result.id).toBeGreaterThan(0);
      expect(result.device).toBe("mobile");
      expect(result.score).toBeGreaterThan(0);
      expect(Object.keys(result.metrics).sort()).toEqual([...LAB_METRIC_KEYS].sort());
      // The page waited 4 s to answer: its TTFB is poor, and the card will say so.
      expect(result.metrics.ttfb.value).toBeGreaterThan(3_000);
      expect(result.metrics.ttfb.rating).toBe("poor");
      expect(result.blocked).toEqual([
        {
          url: "http://169.254.169.254/latest/meta-data/pixel.png",
          reason: expect.stringMatching(/cloud metadata/),
        },
      ]);
      expect(result.finalScreenshot).toMatch(/^data:image\/jpeg;base64,/);
    },
    LAB_RUN.timeout,
  );
});

describe("the Lab check card on /admin/audit", () => {
  it(
    "runs a lab check with JavaScript: a pending state, then the score, six metrics, blocked requests, screenshots",
    async () => {
      const { page, close } = await openAudit(server.url, adminCookie);
      const card = labCard(page);
      await card.getByLabel("Page URL").fill(`${fixtureOrigin}/`);
      await card.getByLabel("Mobile (slow 4G, throttled CPU)").check();
      await card.getByRole("button", { name: "Run lab check" }).click();
      await expect.poll(() => card.getByTestId("lab-pending").count()).toBe(1);
      await expect.poll(() => card.getByTestId("lab-pending").count(), LAB_RUN).toBe(0);
      const { score, metrics } = await readLabCard(page);
      expect(score).toBeGreaterThanOrEqual(20);
      for (const key of LAB_METRIC_KEYS) {
        expect(metrics[key]).toContain(LAB_METRIC_NAMES[key]);
        expect(metrics[key]).toMatch(/Good|Needs improvement|Poor/);
      }
      await expect(readText(card.getByTestId("lab-blocked"))).resolves.toContain(
        "http://169.254.169.254/latest/meta-data/pixel.png",
      );
      await expect(
        card.getByRole("img", { name: "The page when it finished loading" }).count(),
      ).resolves.toBe(1);
      await expect(
        card.getByRole("list", { name: "How the page loaded" }).locator("img").count(),
      ).resolves.toBeGreaterThan(0);
      await expect(readText(card)).resolves.toContain("Largest Contentful Paint element");
      // For people to look at (the card alone, at both widths); nothing is asserted on the pictures.
      await card.screenshot({ path: join(tmpdir(), "lab-card-1280.png") });
      await page.setViewportSize(MOBILE);
      await card.screenshot({ path: join(tmpdir(), "lab-card-375.png") });
      await close();
    },
    LAB_RUN.timeout + 30_000,
  );

  it(
    "runs a desktop lab check without JavaScript: the form posts, the answer page shows the result",
    async () => {
      const { page, close } = await openAudit(server.url, adminCookie, { javaScript: false });
      const card = labCard(page);
      await card.getByLabel("Page URL").fill(`${fixtureOrigin}/`);
      await card.getByLabel("Desktop").check();
      // The form's answer comes when the run is done (tens of seconds on a busy machine): the click
      // waits for that navigation too.
      page.setDefaultTimeout(LAB_RUN.timeout);
      const loaded = page.waitForEvent("load", LAB_RUN);
      await card.getByRole("button", { name: "Run lab check" }).click();
      await loaded;
      const text = await readText(labCard(page));
      expect(text).toContain("Desktop");
      const { score, metrics } = await readLabCard(page);
      expect(score).toBeGreaterThanOrEqual(20);
      expect(metrics.lcp).toContain("Largest Contentful Paint");
      // The two measured runs are kept: the newest first.
      expect(text).toContain("Recent lab checks");
      await close();
    },
    LAB_RUN.timeout + 30_000,
  );
});

describe("a server without Chromium", () => {
  it("says how to install Chromium, and the rest of the audit page works", async () => {
    const dir = mkdtempSync(join(tmpdir(), "lab-no-browser-"));
    let bare: RunningServer | undefined;
    try {
      bare = await startServer({
        DATABASE_URL: join(dir, "bare.sqlite"),
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        AUDIT_ALLOW_PRIVATE_TARGETS: "true",
        CHROMIUM_PATH: "/nonexistent/chromium",
      });
      const cookie = await signIn(bare.url, ADMIN.username, ADMIN.password);
      const api = await fetch(`${bare.url}/api/admin/lab-check`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: new URL(bare.url).origin, Cookie: cookie },
        body: JSON.stringify({ url: fixtureOrigin }),
      });
      expect(api.status).toBe(503);
      const body = (await api.json()) as { error: string; message: string };
      expect(body.error).toBe("Chromium is not installed");
      expect(body.message).toContain("apt-get install chromium");

      const { page, close } = await openAudit(bare.url, cookie);
      const card = labCard(page);
      await card.getByLabel("Page URL").fill(`${fixtureOrigin}/`);
      await card.getByRole("button", { name: "Run lab check" }).click();
      await expect.poll(() => readText(card)).toContain("apt-get install chromium");
      await expect(readText(card)).resolves.toContain("CHROMIUM_PATH");
      // The performance check beside it still runs.
      await page.getByLabel("Website URL").fill(`${fixtureOrigin}/`);
      await page.getByRole("button", { name: "Check Now" }).click();
      await expect.poll(() => page.getByTestId("performance-card").count()).toBe(1);
      await expect(readText(page.getByTestId("performance-card"))).resolves.toMatch(/Status\s*200/);
      await close();
    } finally {
      await bare?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
