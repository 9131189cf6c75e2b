import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { POLICY_VERSION } from "../../app/features/leads/lead-schema.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { createAccount, signIn } from "./support/accounts.ts";
import { expectNoA11yViolations, launchTestBrowser } from "./support/browser.ts";

// Attribution on every lead (issue 12) through the production server and a real browser: a visitor
// lands from a newsletter link, clicks through two more pages and sends the demo form, with and
// without JavaScript; staff see the Email channel and the launch campaign on the lead, in its page,
// the list's filters and the API, and after the first visitor /admin/analytics for today shows 1
// visitor, 3 page views, 1 lead and 100% conversion. Headless Chromium is a bot to isbot: each
// visitor here sends a desktop User-Agent of its own (one visitor id each: same address, another
// browser).

const LANDING = "/?utm_source=newsletter&utm_medium=email&utm_campaign=launch";
const PASSWORD = "Attribution-Password-1";
const WAIT = { timeout: 15_000 };
const desktop = (version: number) =>
  `Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version}.0.0.0 Safari/537.36`;

let dir: string;
let server: RunningServer;
let database: AppDatabase;
let browser: Browser;
let session: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "attribution-"));
  const databaseUrl = join(dir, "app.sqlite");
  server = await startServer({
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "error",
    LEAD_RATE_LIMIT: "0",
    LEAD_MIN_FILL_SECONDS: "0",
  });
  await createAccount(databaseUrl, { username: "sam", password: PASSWORD, isAdmin: true });
  session = await signIn(server.url, "sam", PASSWORD);
  database = openDatabase(databaseUrl, { poolSize: 1 });
  browser = await launchTestBrowser();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await database?.close();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A visitor's browser: a desktop User-Agent of its own, JavaScript on or off. */
async function visitor(userAgent: string, javaScript: boolean) {
  const context = await browser.newContext({
    userAgent,
    javaScriptEnabled: javaScript,
    viewport: { width: 1280, height: 900 },
  });
  context.setDefaultTimeout(WAIT.timeout);
  return { page: await context.newPage(), close: () => context.close() };
}

/** Clicks a header link and waits for the new document: a real page request, as ADR 013 makes it. */
async function clickThrough(page: Page, label: string, path: string) {
  await Promise.all([
    page.waitForURL((url) => url.pathname === path),
    page.getByRole("navigation").first().getByRole("link", { name: label, exact: true }).click(),
  ]);
}

async function leadIdOf(email: string): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const row = await database.db
      .selectFrom("leads")
      .select("id")
      .where("email", "=", email)
      .executeTakeFirst();
    if (row) return Number(row.id);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no lead for ${email}`);
}

/**
 * /admin/analytics for today as staff read it: the text of each named region on one line, once
 * axe has found nothing to fault on the page.
 */
async function analyticsToday(regions: string[]): Promise<Record<string, string>> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies(
    session.split("; ").map((pair) => {
      const [name = "", ...value] = pair.split("=");
      return { name, value: value.join("="), url: server.url };
    }),
  );
  const page = await context.newPage();
  try {
    await page.goto(`${server.url}/admin/analytics?period=today`);
    await expectNoA11yViolations(page);
    const texts: Record<string, string> = {};
    for (const region of regions)
      texts[region] = (await page.getByRole("region", { name: region, exact: true }).innerText()).replace(
        /\s+/g,
        " ",
      );
    return texts;
  } finally {
    await context.close();
  }
}

/** The lead's Attribution section as staff read it, once it has settled (within seconds). */
async function attributionSection(id: number): Promise<string> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  await context.addCookies(
    session.split("; ").map((pair) => {
      const [name = "", ...value] = pair.split("=");
      return { name, value: value.join("="), url: server.url };
    }),
  );
  const page = await context.newPage();
  try {
    const section = page.getByRole("region", { name: "Attribution" });
    for (let attempt = 0; attempt < 20; attempt++) {
      await page.goto(`${server.url}/admin/leads/${id}`);
      if (!(await section.innerText()).includes("Linking this lead")) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return (await section.innerText()).replace(/\s+/g, " ");
  } finally {
    await context.close();
  }
}

async function api(path: string) {
  const response = await fetch(`${server.url}${path}`, { headers: { Cookie: session } });
  expect(response.status).toBe(200);
  return response.json();
}

const journeys = [
  { name: "with JavaScript", javaScript: true, userAgent: desktop(131) },
  { name: "without JavaScript", javaScript: false, userAgent: desktop(130) },
];

describe("a newsletter visitor's demo request carries its attribution", () => {
  for (const journey of journeys) {
    it(`shows channel Email and campaign launch on the lead sent ${journey.name}`, async () => {
      const email = `attribution-${journey.javaScript ? "js" : "nojs"}-${Date.now()}@example.com`;
      const { page, close } = await visitor(journey.userAgent, journey.javaScript);
      try {
        await page.goto(`${server.url}${LANDING}`);
        await clickThrough(page, "Features", "/features");
        await clickThrough(page, "Get a Demo", "/demo");
        const form = page.locator("form#demo-form");
        if (journey.javaScript) await page.waitForSelector("html[data-enhanced]", { state: "attached" });
        for (const [label, value] of Object.entries({
          "Full Name": "Nia Campbell",
          Email: email,
          Company: "Campbell Civils Ltd",
          Phone: "+44 20 7946 0321",
        }))
          await form.getByRole("textbox", { name: label, exact: true }).fill(value);
        await form.getByRole("button", { name: "Submit Request" }).click();
        await expect
          .poll(() => page.locator("#demo-form-result").innerText(), WAIT)
          .toContain("submitted successfully");
      } finally {
        await close();
      }
      const id = await leadIdOf(email);

      const section = await attributionSection(id);
      expect(section).toContain("Channel Email");
      expect(section).toContain("Campaign launch");
      expect(section).toContain("Landing page /");
      expect(section).toContain("UTM source newsletter");
      expect(section).toContain("Pages before submitting 3");

      const detail = (await api(`/api/admin/leads/${id}`)) as {
        attribution: Record<string, unknown>;
        policyVersion: string;
      };
      // The form stored the date of the privacy policy's latest change (its "Changes" list).
      expect(detail.policyVersion).toBe(POLICY_VERSION);
      expect(detail.attribution).toMatchObject({
        status: "linked",
        landingPage: "/",
        referrer: null,
        channel: "Email",
        utmSource: "newsletter",
        utmMedium: "email",
        utmCampaign: "launch",
        utmTerm: null,
        utmContent: null,
        pagesBeforeSubmit: 3,
      });
      expect(detail.attribution.secondsToSubmit).toEqual(expect.any(Number));
      const listed = (await api("/api/admin/leads?channel=email&campaign=launch")) as { id: number }[];
      expect(listed.map((lead) => lead.id)).toContain(id);
      const direct = (await api("/api/admin/leads?channel=direct")) as { id: number }[];
      expect(direct.map((lead) => lead.id)).not.toContain(id);

      // The first journey is the site's only visit so far today.
      if (journey.javaScript) {
        const today = await analyticsToday(["Headline figures", "Channels", "Campaigns"]);
        const headline = today["Headline figures"];
        expect(headline).toMatch(/Visitors 1 /);
        expect(headline).toMatch(/Page views 3 /);
        expect(headline).toMatch(/Leads 1 /);
        expect(headline).toMatch(/Conversion rate 100% /);
        // Channel Email, campaign launch: 1 visitor, 3 views, 1 lead, 100%.
        expect(today.Channels).toContain("Email 1 3 1 100%");
        expect(today.Campaigns).toContain("launch 1 3 1 100%");
        const report = (await api("/api/admin/analytics?period=today")) as Record<string, unknown>;
        expect(report).toMatchObject({ visitors: 1, pageviews: 3, leads: 1, apiLeads: 0, conversionRate: 1 });
      }
    });
  }

  it("says Unknown for a lead sent through the API with no page view before it", async () => {
    const response = await fetch(`${server.url}/api/demo-request`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "User-Agent": desktop(129) },
      body: JSON.stringify({
        fullName: "Api Only",
        email: `attribution-api-${Date.now()}@example.com`,
        company: "Integration Ltd",
        phone: "+44 20 7946 0999",
      }),
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    const section = await attributionSection(id);
    expect(section).toContain("Channel Unknown");
    const csv = await fetch(`${server.url}/api/admin/leads/export?ids=${id}`, {
      headers: { Cookie: session },
    });
    const [header, row] = (await csv.text()).slice(1).split("\r\n");
    expect(header).toContain('"Channel","Landing page","Referrer","UTM source"');
    expect(row).toContain('"Unknown"');
  });
});
