// `node scripts/screenshots.ts [--out DIR]`: the back office as staff see it, at 1280 and 375 px.
// Starts the production build on a fresh SQLite database, signs in an admin, sends a few leads
// through the API (genuine ones, a returning person, one the spam filter holds, an investor) and
// saves full-page PNGs (and, on phones, screen-sized parts) of the dashboard, the spam view, two
// leads, the API keys, staff, webhooks, search, people, audit, account, access log, "Add a lead" and
// "Import leads" pages, the phone menu open and the
// search answering as someone types, and the content studio (list, new post, editor, revisions,
// the conflict screen); then seeds a year of page views and leads
// (scripts/lib/analytics-seed.ts, rolled up as production would) and saves /admin/analytics for 12
// months and for today. For looking at the screens while building them; not part of the test suite.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { chromium, type Page } from "playwright-core";
import { openDatabase } from "../app/db/database.server.ts";
import { rollUpExpiredDays } from "../app/features/analytics/rollup.server.ts";
import { makeImage } from "../app/features/content/media/testing/image-fixtures.ts";
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
        // Opened from the list (issue 35): its way back, previous and next.
        ["/admin/leads/1?from=%2Fadmin%2Fdashboard", "lead"],
        ["/admin/leads/1?edit=details", "lead-edit"],
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
      await shootContentStudio(browser, running.url, cookie, out);
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
  // 1280: the sidebar's first width (app-shell.tsx, issue 35).
  for (const width of [1280, 375]) {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    await context.addCookies([{ name: name ?? "", value: value ?? "", url }]);
    const page = await context.newPage();
    await page.goto(`${url}/admin/dashboard`);
    await page.waitForLoadState("networkidle");
    if (width < 768) {
      await page.getByText("Menu", { exact: true }).click();
      await page.screenshot({ path: join(out, `shell-menu-${width}.png`) });
    }
    if (width >= 1280) await page.screenshot({ path: join(out, `dashboard-sidebar-${width}.png`) });
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

/**
 * The content studio (issue 24): a few posts in every state, one with a cover and an image in its
 * text, a colleague's edits to compare; then the list, a new post, the editor, the revisions with
 * their differences, and the conflict screen a stale save gets.
 */
async function shootContentStudio(
  browser: import("playwright-core").Browser,
  url: string,
  cookie: string,
  out: string,
): Promise<void> {
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: {
        Cookie: cookie,
        Origin: url,
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const upload = async (alt: string, width: number, height: number) => {
    const form = new FormData();
    form.set("file", new File([new Uint8Array(await makeImage("jpeg", { width, height }))], "photo.jpg"));
    form.set("alt", alt);
    const response = await fetch(`${url}/api/admin/media`, {
      method: "POST",
      headers: { Cookie: cookie, Origin: url },
      body: form,
    });
    if (!response.ok) throw new Error(`upload: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { id: number }).id;
  };
  const cover = await upload("A tower crane over a half-built office block at dusk", 1600, 900);
  const inline = await upload("The site office, with the programme pinned to the wall", 1200, 800);
  const retention = await api("POST", "/api/admin/posts", {
    kind: "article",
    title: "Retention: the money you already earned",
    excerpt: "Why retention slips away on most projects, and a simple routine that gets it back on time.",
    tags: ["retention", "cash flow", "JCT"],
    author: "Mara Okafor",
    category: "Best Practices",
    coverImage: cover,
    coverAlt: "A tower crane over a half-built office block at dusk",
    body: [
      "Retention is money you have already earned. On most projects 3 to 5% of every payment is held back, and a surprising share of it is never asked for again.",
      "",
      "## Why it slips",
      "",
      "The release dates sit in the contract, not in anyone's calendar. **Practical completion** triggers the first half; the end of the defects period the second. Miss either notice and the money waits.",
      "",
      `![The site office, with the programme pinned to the wall](media:${inline})`,
      "",
      "## A routine that works",
      "",
      "- Put both release dates in the project calendar the day the contract is signed.",
      "- Send the request a week before each date, citing the clause.",
      "- Keep the evidence: the certificate, the defects list signed off.",
      "",
      "> The best time to chase retention is before it is due.",
    ].join("\n"),
  });
  const year = new Date().getUTCFullYear() + 1;
  await api("POST", `/api/admin/posts/${retention.id}/publish`, { at: `${year}-03-02T09:00:00Z` });
  await api("POST", "/api/admin/posts", {
    kind: "article",
    title: "Adjudication in 28 days: a survival guide",
    body: "Adjudication is fast. The referring party sets the pace.",
  });
  await api("POST", "/api/admin/posts", {
    kind: "press",
    title: "Clausebridge named one of ten construction tech start-ups to watch",
    outlet: "Construction Weekly",
    originalUrl: "https://www.example.com/construction-weekly/ten-to-watch",
  });
  // A colleague's edits to the imported article: something to compare in its revisions.
  const list = await api("GET", "/api/admin/posts?q=hidden%20costs");
  const hidden = (list.posts as { id: number; revision: number }[])[0];
  if (!hidden) throw new Error("the imported article is missing");
  const article = await api("GET", `/api/admin/posts/${hidden.id}`);
  const body = String(article.body);
  await api("PATCH", `/api/admin/posts/${hidden.id}`, {
    revision: hidden.revision,
    title: "The Hidden Costs of Poor Contract Management (2026 update)",
    // A paragraph added after the first one.
    body: body.replace("\n\n", "\n\nUpdated for 2026 with the latest figures from the industry surveys.\n\n"),
  });
  const [name, value] = cookie.split(";")[0]?.split("=") ?? [];
  for (const width of [1280, 375]) {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addCookies([{ name: name ?? "", value: value ?? "", url }]);
    const page = await context.newPage();
    const shots: [string, string][] = [
      ["/admin/content", "content"],
      ["/admin/content/new", "content-new"],
      [`/admin/content/${retention.id}`, "content-editor"],
      [`/admin/content/${hidden.id}/revisions`, "content-revisions"],
    ];
    for (const [path, file] of shots) {
      await page.goto(`${url}${path}`);
      await page.waitForLoadState("networkidle");
      await page.screenshot({ path: join(out, `${file}-${width}.png`), fullPage: true });
    }
    // The editor's first screen as the person sees it, at the top of the page.
    await page.goto(`${url}/admin/content/${retention.id}`);
    await page.waitForLoadState("networkidle");
    if (width < 768) {
      await page.getByRole("button", { name: "Preview", exact: true }).click();
      await page.screenshot({ path: join(out, `content-editor-preview-${width}.png`) });
    } else {
      await page.locator("summary", { hasText: "Scheduled" }).click();
      await page.screenshot({ path: join(out, `content-editor-publish-${width}.png`) });
    }
    // A stale save: the page opened, a colleague saved, then this page saves.
    await page.goto(`${url}/admin/content/${hidden.id}`);
    await page.waitForLoadState("networkidle");
    const current = await api("GET", `/api/admin/posts/${hidden.id}`);
    await api("PATCH", `/api/admin/posts/${hidden.id}`, {
      revision: current.revision,
      excerpt: `Revised by a colleague at ${width} px.`,
    });
    await page
      .getByRole("textbox", { name: "Summary" })
      .fill("Seven warning signs, and what good practice looks like.");
    await page.getByRole("button", { name: "Update" }).click();
    await page.getByRole("heading", { name: "Someone else changed this post" }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(out, `content-conflict-${width}.png`), fullPage: true });
    await context.close();
  }
}

await runMain("screenshots", main, async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});
