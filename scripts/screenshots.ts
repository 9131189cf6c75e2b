// `node scripts/screenshots.ts [--out DIR]`: the back office as staff see it, at 1280 and 375 px.
// Starts the production build on a fresh SQLite database, signs in an admin, sends a few leads
// through the API (genuine ones, a returning person, one the spam filter holds, an investor) and
// saves full-page PNGs (and, on phones, screen-sized parts) of the dashboard, the spam view, two
// leads, the API keys, staff, webhooks, search, people, audit, account, access log, "Add a lead" and
// "Import leads" pages, the phone menu open and the
// search answering as someone types; then seeds a year of page views and leads
// (scripts/lib/analytics-seed.ts, rolled up as production would) and saves /admin/analytics for 12
// months and for today. For looking at the screens while building them; not part of the test suite.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "playwright-core";
import { openDatabase } from "../app/db/database.server.ts";
import { rollUpExpiredDays } from "../app/features/analytics/rollup.server.ts";
import { createAccount, signIn } from "../tests/e2e/support/accounts.ts";
import { seedAnalytics } from "./lib/analytics-seed.ts";
import { CHROMIUM_HEADLESS_ARGS, CHROMIUM_PATH } from "./lib/chromium.ts";
import { runMain } from "./lib/run-main.ts";
import { type RunningServer, startServer } from "./lib/server-process.ts";

const { values } = parseArgs({ options: { out: { type: "string", default: "screenshots" } } });

const dir = mkdtempSync(join(tmpdir(), "shots-"));
let server: RunningServer | undefined;

async function main(): Promise<number> {
  const out = values.out ?? "screenshots";
  mkdirSync(out, { recursive: true });
  const databaseUrl = join(dir, "app.sqlite");
  const running = await startServer({ DATABASE_URL: databaseUrl, LOG_LEVEL: "error", TRUST_PROXY: "1" });
  server = running;
  {
    await createAccount(databaseUrl, { username: "alice", password: "Screenshot-Password-1", isAdmin: true });
    await createAccount(databaseUrl, { username: "bob", password: "Screenshot-Password-1", isAdmin: true });
    const cookie = await signIn(running.url, "alice", "Screenshot-Password-1");
    const url = running.url;
    const post = (body: Record<string, unknown>, address: string) =>
      fetch(`${url}/api/demo-request`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Forwarded-For": address,
          Referer: `${running.url}/demo`,
        },
        body: JSON.stringify(body),
      });
    const people = [
      ["Amara Okafor", "Okafor Build Ltd", "amara@okafor-build.co.uk"],
      ["Jonas Berg", "Nordic Angels", "jonas@nordicangels.se"],
      ["Priya Shah", "Shah Surveys & Partners", "priya@shah-surveys.com"],
      [
        "Tomás Ó Briain",
        "Ó Briain Civil Engineering Group Ltd",
        "tomas.obriain@obriain-civil-engineering.ie",
      ],
      ["Mei Lin", "Harbourside Developments", "mei.lin@harbourside.example"],
    ];
    let n = 0;
    for (const [fullName, company, email] of people)
      await post(
        { fullName, company, email, phone: "+44 20 7946 0958", message: "We run 30 projects a year." },
        `203.0.113.${++n}`,
      );
    await post(
      {
        fullName: "Amara Okafor",
        company: "Okafor Build Ltd",
        email: "AMARA@okafor-build.co.uk ",
        phone: "+44 20 7946 0958",
      },
      "203.0.113.50",
    );
    await post(
      {
        fullName: "Cheap loans https://loans.example",
        company: "Loans",
        email: "x@loans.example",
        phone: "0123456789",
        _gotcha: "",
      },
      "203.0.113.60",
    );
    await post(
      {
        fullName: "Jonas Berg",
        company: "Nordic Angels",
        email: "jonas@nordicangels.se",
        phone: "+46 70 123",
        requestType: "investor",
        investorType: { angel: true, other: true },
        otherDetails: "Family office",
      },
      "203.0.113.70",
    );

    const browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_HEADLESS_ARGS],
    });
    /** Every page of `paths` at both widths: full pages, and on phones screen-sized parts too. */
    const shoot = async (paths: [string, string][]) => {
      for (const width of [1280, 375]) {
        const context = await browser.newContext({ viewport: { width, height: 900 } });
        const [name, value] = cookie.split(";")[0]?.split("=") ?? [];
        await context.addCookies([{ name: name ?? "", value: value ?? "", url: running.url }]);
        const page: Page = await context.newPage();
        for (const [path, file] of paths) {
          await page.goto(`${running.url}${path}`);
          await page.waitForLoadState("networkidle");
          await page.screenshot({ path: join(out, `${file}-${width}.png`), fullPage: true });
          if (width < 768) {
            // Phone pages are long: also in screen-sized parts, readable at their real size.
            const height = await page.evaluate(() => document.documentElement.scrollHeight);
            for (let part = 0; part * 800 < Math.min(height, 4000); part++)
              await page.screenshot({
                path: join(out, `${file}-${width}-part${part + 1}.png`),
                fullPage: true,
                clip: { x: 0, y: part * 800, width, height: Math.min(800, height - part * 800) },
              });
          }
        }
        await context.close();
      }
    };
    try {
      await shoot([
        ["/admin/dashboard", "dashboard"],
        ["/admin/dashboard?spam=only", "dashboard-spam"],
        ["/admin/leads/1", "lead"],
        ["/admin/leads/6", "lead-returning"],
        ["/admin/api-keys", "api-keys"],
        ["/admin/staff", "staff"],
        ["/admin/webhooks", "webhooks"],
        ["/admin/search?q=okafor", "search"],
        ["/admin/people", "people"],
        ["/admin/audit", "audit"],
        ["/admin/account", "account"],
        ["/admin/access-log", "access-log"],
        ["/admin/leads/new", "lead-new"],
        ["/admin/leads/import", "lead-import"],
      ]);
      await shootShellStates(browser, running.url, cookie, out);
      const database = openDatabase(databaseUrl, { poolSize: 1 });
      try {
        const now = new Date();
        await seedAnalytics({ db: database.db, views: 60_000, days: 365, now });
        await rollUpExpiredDays({ db: database.db, rawDays: 30, now: () => now, maxDays: 1000 });
      } finally {
        await database.close();
      }
      await shoot([
        ["/admin/analytics?period=12m", "analytics-12-months"],
        ["/admin/analytics?period=today", "analytics-today"],
      ]);
    } finally {
      await browser.close();
    }
    console.log(`Screenshots in ${out}/`);
  }
  return 0;
}

/** The shell in use: the phone menu open, and the search answering as someone types. */
async function shootShellStates(
  browser: import("playwright-core").Browser,
  url: string,
  cookie: string,
  out: string,
): Promise<void> {
  const [name, value] = cookie.split(";")[0]?.split("=") ?? [];
  // 1440: the sidebar's first width (app-shell.tsx).
  for (const width of [1440, 1280, 375]) {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    await context.addCookies([{ name: name ?? "", value: value ?? "", url }]);
    const page = await context.newPage();
    await page.goto(`${url}/admin/dashboard`);
    await page.waitForLoadState("networkidle");
    if (width < 768) {
      await page.getByText("Menu", { exact: true }).click();
      await page.screenshot({ path: join(out, `shell-menu-${width}.png`) });
    }
    if (width >= 1440) await page.screenshot({ path: join(out, `dashboard-sidebar-${width}.png`) });
    await page.keyboard.press("Control+k");
    await page.keyboard.type("ok");
    await page
      .getByRole("option", { name: /Amara Okafor/ })
      .first()
      .waitFor();
    await page.screenshot({ path: join(out, `search-combobox-${width}.png`) });
    await context.close();
  }
}

await runMain("screenshots", main, async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});
