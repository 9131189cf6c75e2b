import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { staticPublicPaths } from "#app/features/content/public-paths.ts";
import { site } from "#app/lib/site/site.ts";
import { ARTICLES, PRESS_ITEMS } from "./content-fixtures.ts";
import { baseUrl, type OpenedPage, openPage, setupBrowser, waitForHydration } from "./support/browser.ts";

// The blog list, the article pages with their share card, the feeds and files crawlers and investors
// read, and client-side navigation between them.

setupBrowser();

const [article] = ARTICLES;
if (!article) throw new Error("content/blog has no articles");
const HASHTAGS = "construction,contractmanagement,efficiency";
/** Fail with a clear message well before the 30 s test timeout. */
const WAIT = { timeout: 5_000 };

async function get(path: string) {
  return fetch(new URL(path, baseUrl), { redirect: "manual" });
}

/** Answers every request that leaves the test server, so share popups load offline. */
async function stubExternalSites(context: BrowserContext) {
  const origin = new URL(baseUrl).origin;
  await context.route(
    (url) => url.origin !== origin,
    (route) => route.fulfill({ status: 200, contentType: "text/html", body: "<title>stub</title>" }),
  );
}

describe("/blog", () => {
  let opened: OpenedPage | undefined;
  beforeAll(async () => {
    opened = await openPage("/blog");
  });
  afterAll(async () => {
    await opened?.close();
  });
  function page(): Page {
    if (!opened) throw new Error("/blog did not open");
    return opened.page;
  }

  it("shows a breadcrumb back to the home page", async () => {
    const breadcrumb = page().getByRole("navigation", { name: "Breadcrumb" });
    await expect(breadcrumb.getByRole("link", { name: "Home" }).getAttribute("href")).resolves.toBe("/");
    await expect(breadcrumb.locator('[aria-current="page"]').textContent()).resolves.toBe("Blog");
  });

  it("features two press items, each badged and linking out in a new tab", async () => {
    const press = page().getByRole("region", { name: "Featured Press Coverage" });
    await expect(press.getByRole("heading", { name: "Featured Press Coverage" }).isVisible()).resolves.toBe(
      true,
    );
    const cards = press.getByRole("article");
    await expect(cards.count()).resolves.toBe(2);
    expect(PRESS_ITEMS).toHaveLength(2);
    for (const item of PRESS_ITEMS) {
      const card = cards.filter({ hasText: item.title });
      await expect(card.count(), item.title).resolves.toBe(1);
      await expect(card.getByText("Featured", { exact: true }).isVisible()).resolves.toBe(true);
      const link = card.locator(`a[href="${item.externalLink}"]`);
      await expect(link.isVisible(), `link to ${item.externalLink}`).resolves.toBe(true);
      await expect(link.getAttribute("target")).resolves.toBe("_blank");
      await expect(link.getAttribute("rel")).resolves.toMatch(/\bnoopener\b/);
      expect(new URL(item.externalLink).origin).not.toBe(new URL(baseUrl).origin);
    }
    // Only the magazine item carries the page note.
    const noted = cards.filter({ hasText: "Featured on Page 12" });
    await expect(noted.count()).resolves.toBe(1);
    await expect(noted.getByText("Featured on Page 12", { exact: true }).isVisible()).resolves.toBe(true);
    const magazine = PRESS_ITEMS.find((item) => item.note === "Featured on Page 12");
    await expect(noted.textContent()).resolves.toContain(magazine?.title);
  });

  it("lists the three latest articles, each linking to its page", async () => {
    const latest = page().getByRole("region", { name: "Latest Articles" });
    await expect(latest.getByRole("heading", { name: "Latest Articles" }).isVisible()).resolves.toBe(true);
    const cards = latest.getByRole("article");
    await expect(cards.count()).resolves.toBe(3);
    for (const expected of ARTICLES) {
      const card = cards.filter({ hasText: expected.title });
      const link = card.getByRole("link", { name: expected.title });
      await expect(link.getAttribute("href")).resolves.toBe(`/blog/${expected.slug}`);
      const text = (await card.textContent()) ?? "";
      expect(text).toContain(expected.category);
      expect(text).toContain(expected.displayDate);
      expect(text).toContain(`${expected.readTime} min read`);
    }
  });

  it("'Stay Updated' links to /demo-request, which ends at the demo page", async () => {
    const p = page();
    const card = p.getByRole("complementary", { name: "Stay Updated" });
    const link = card.getByRole("link", { name: "Request a Demo" });
    await expect(link.getAttribute("href")).resolves.toBe("/demo-request");
    await link.click();
    await p.waitForURL((url) => url.pathname === "/demo", WAIT);
    await waitForHydration(p);
    await expect(p.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Request a Demo");
  });

  it("/demo-request is a permanent redirect to the demo page", async () => {
    const response = await get("/demo-request");
    expect([301, 308]).toContain(response.status);
    expect(new URL(response.headers.get("location") ?? "", baseUrl).pathname).toBe("/demo");
  });
});

describe.each(ARTICLES.map((a) => [a.slug, a] as const))("/blog/%s", (slug, expected) => {
  let opened: OpenedPage | undefined;
  beforeAll(async () => {
    opened = await openPage(`/blog/${slug}`);
  });
  afterAll(async () => {
    await opened?.close();
  });
  function page(): Page {
    if (!opened) throw new Error(`/blog/${slug} did not open`);
    return opened.page;
  }

  it("shows the breadcrumb, category, date, read time, title and excerpt", async () => {
    const p = page();
    const breadcrumb = p.getByRole("navigation", { name: "Breadcrumb" });
    await expect(breadcrumb.getByRole("link", { name: "Home" }).getAttribute("href")).resolves.toBe("/");
    await expect(breadcrumb.getByRole("link", { name: "Blog" }).getAttribute("href")).resolves.toBe("/blog");
    await expect(breadcrumb.locator('[aria-current="page"]').textContent()).resolves.toBe(expected.title);
    const header = p.getByRole("article").locator("header").first();
    for (const text of [expected.category, expected.displayDate, `${expected.readTime} min read`]) {
      await expect(header.getByText(text, { exact: true }).isVisible(), text).resolves.toBe(true);
    }
    await expect(header.locator("time").getAttribute("datetime")).resolves.toBe(expected.date);
    await expect(p.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(expected.title);
    await expect(header.getByText(expected.excerpt, { exact: true }).isVisible()).resolves.toBe(true);
  });

  it("renders the body with its section headings", async () => {
    const headings = await page().getByRole("article").getByRole("heading", { level: 2 }).allInnerTexts();
    expect(expected.h2s.length).toBeGreaterThan(0);
    for (const h2 of expected.h2s) expect(headings).toContain(h2);
  });

  it(`offers 'See How ${site.productName} Can Help' and 'Back to Blog'`, async () => {
    const p = page();
    const cta = p.getByRole("link", { name: `See How ${site.productName} Can Help`, exact: true });
    await expect(cta.isVisible()).resolves.toBe(true);
    await expect(cta.getAttribute("href")).resolves.toBe("/demo");
    const back = p.getByRole("main").getByRole("link", { name: "Back to Blog" });
    await expect(back.isVisible()).resolves.toBe(true);
    await expect(back.getAttribute("href")).resolves.toBe("/blog");
  });

  it("share links carry the article's address, title and hashtags", async () => {
    const p = page();
    const articleUrl = (await p.locator('link[rel="canonical"]').getAttribute("href")) ?? "";
    expect(new URL(articleUrl).pathname).toBe(`/blog/${slug}`);
    const share = p.getByRole("region", { name: "Share this article" });

    const facebook = new URL(
      (await share.getByRole("link", { name: /Facebook/ }).getAttribute("href")) ?? "",
    );
    expect(facebook.origin + facebook.pathname).toBe("https://www.facebook.com/sharer/sharer.php");
    expect(facebook.searchParams.get("u")).toBe(articleUrl);

    const twitterHref = (await share.getByRole("link", { name: /Twitter/ }).getAttribute("href")) ?? "";
    const twitter = new URL(twitterHref);
    expect(twitter.origin + twitter.pathname).toBe("https://twitter.com/intent/tweet");
    expect(twitter.searchParams.get("url")).toBe(articleUrl);
    expect(twitter.searchParams.get("text")).toBe(expected.title);
    expect(twitter.searchParams.get("hashtags")).toBe(HASHTAGS);
    expect(twitterHref).toMatch(new RegExp(`[?&]hashtags=${HASHTAGS}(&|$)`));

    const linkedIn = new URL(
      (await share.getByRole("link", { name: /LinkedIn/ }).getAttribute("href")) ?? "",
    );
    expect(linkedIn.origin + linkedIn.pathname).toBe("https://www.linkedin.com/sharing/share-offsite/");
    expect(linkedIn.searchParams.get("url")).toBe(articleUrl);

    const emailHref = (await share.getByRole("link", { name: /email/i }).getAttribute("href")) ?? "";
    expect(emailHref).toMatch(/^mailto:/);
    const email = new URL(emailHref);
    expect(email.searchParams.get("subject")).toBe(expected.title);
    expect(email.searchParams.get("body")).toContain(articleUrl);
  });
});

describe("article share card", () => {
  const path = `/blog/${article.slug}`;

  it("opens each social network's share page in a popup", async () => {
    const { page, context, close } = await openPage(path);
    await stubExternalSites(context);
    const share = page.getByRole("region", { name: "Share this article" });
    for (const name of ["Share on Facebook", "Share on Twitter", "Share on LinkedIn"]) {
      const link = share.getByRole("link", { name });
      const href = (await link.getAttribute("href")) ?? "";
      const [popup] = await Promise.all([context.waitForEvent("page"), link.click()]);
      await popup.waitForURL((url) => url.href === new URL(href).href, WAIT);
      expect(popup.url()).toBe(new URL(href).href);
      // The article stays open behind the popup.
      expect(new URL(page.url()).pathname).toBe(path);
      await popup.close();
    }
    await close();
  });

  it("'Copy link' copies the address and shows a single 'Link copied' toast", async () => {
    const { page, context, close } = await openPage(path);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], {
      origin: new URL(baseUrl).origin,
    });
    const articleUrl = (await page.locator('link[rel="canonical"]').getAttribute("href")) ?? "";
    const copy = page.getByRole("button", { name: "Copy link" });
    await copy.click();
    await copy.click();
    const toasts = page.getByRole("region", { name: /Notifications/ }).locator("li");
    await toasts.first().waitFor({ state: "visible", ...WAIT });
    await expect(toasts.first().textContent()).resolves.toContain("Link copied");
    // SPEC section 9: one toast visible at a time, however quickly the button is pressed.
    await page.waitForTimeout(300);
    await expect(toasts.count()).resolves.toBe(1);
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(articleUrl);
    await close();
  });

  it("shows a tooltip on hover after the 700 ms delay, not before", async () => {
    const { page, close } = await openPage(path);
    const link = page.getByRole("link", { name: "Share on LinkedIn" });
    await link.scrollIntoViewIfNeeded();
    const tooltip = page.getByRole("tooltip");
    // Timed inside the page: the test process's own clock drifts when the machine is busy.
    await page.evaluate(() => {
      const marks: { hoveredAt?: number; shownAt?: number } = {};
      (window as unknown as { tooltipMarks: typeof marks }).tooltipMarks = marks;
      document.addEventListener(
        "pointermove",
        (event) => {
          if (
            marks.hoveredAt === undefined &&
            (event.target as Element).closest('[aria-label="Share on LinkedIn"]')
          )
            marks.hoveredAt = performance.now();
        },
        true,
      );
      new MutationObserver(() => {
        if (marks.shownAt === undefined && document.querySelector('[role="tooltip"]'))
          marks.shownAt = performance.now();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await link.hover();
    await tooltip.waitFor({ state: "attached", timeout: 5000 });
    const { hoveredAt, shownAt } = await page.evaluate(
      () => (window as unknown as { tooltipMarks: { hoveredAt: number; shownAt: number } }).tooltipMarks,
    );
    expect(shownAt - hoveredAt).toBeGreaterThanOrEqual(690);
    await expect(tooltip.textContent()).resolves.toBe("Share on LinkedIn");
    // The screen-reader tooltip sits in the bubble a sighted visitor sees: its parent.
    const bubble = tooltip.locator("..");
    await expect(bubble.isVisible()).resolves.toBe(true);
    await expect(bubble.textContent()).resolves.toContain("Share on LinkedIn");
    const box = await bubble.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(40);
    await close();
  });

  it("asks for the spec's 550 x 400 popup, and leaves modified clicks to the browser", async () => {
    const { page, close } = await openPage(path);
    await page.evaluate(() => {
      const calls: unknown[][] = [];
      Object.assign(window, { __openCalls: calls });
      window.open = ((...args: unknown[]) => {
        calls.push(args);
        return null;
      }) as typeof window.open;
    });
    const share = page.getByRole("region", { name: "Share this article" });
    const linkedIn = share.getByRole("link", { name: "Share on LinkedIn" });
    await linkedIn.click();
    const href = await linkedIn.getAttribute("href");
    await expect(
      page.evaluate(() => (window as unknown as { __openCalls: unknown[][] }).__openCalls),
    ).resolves.toEqual([[href, "share", "width=550,height=400,noopener"]]);
    await close();
  });

  it("opens the next tooltip at once when the last one closed less than 300 ms ago", async () => {
    const { page, close } = await openPage(path);
    const share = page.getByRole("region", { name: "Share this article" });
    const linkedIn = share.getByRole("link", { name: "Share on LinkedIn" });
    await linkedIn.scrollIntoViewIfNeeded();
    await linkedIn.hover();
    await page.getByRole("tooltip").waitFor({ state: "attached", timeout: 5000 });
    // Timed inside the page, from the pointer reaching the next link to its tooltip.
    await page.evaluate(() => {
      const marks: { enteredAt?: number; shownAt?: number } = {};
      Object.assign(window, { skipMarks: marks });
      document.addEventListener(
        "pointerover",
        (event) => {
          if ((event.target as Element).closest('[aria-label="Share on Twitter"]'))
            marks.enteredAt ??= performance.now();
        },
        true,
      );
      new MutationObserver(() => {
        if (document.querySelector('[role="tooltip"]')?.textContent === "Share on Twitter")
          marks.shownAt ??= performance.now();
      }).observe(document.body, { childList: true, subtree: true });
    });
    await share.getByRole("link", { name: "Share on Twitter" }).hover();
    await expect.poll(() => page.getByRole("tooltip").textContent()).toBe("Share on Twitter");
    const marks = await page.evaluate(
      () => (window as unknown as { skipMarks: { enteredAt: number; shownAt: number } }).skipMarks,
    );
    expect(marks.shownAt - marks.enteredAt).toBeLessThan(600);
    // One tooltip at a time, describing the link under the pointer.
    await expect(page.getByRole("tooltip").count()).resolves.toBe(1);
    await expect(
      share.getByRole("link", { name: "Share on Twitter" }).getAttribute("aria-describedby"),
    ).resolves.toBe(await page.getByRole("tooltip").getAttribute("id"));
    await close();
  });
});

describe("unknown article", () => {
  it("answers 404 with 'Article Not Found' and a way back to the blog", async () => {
    const { page, response, close } = await openPage("/blog/no-such-article", {
      allowConsoleErrors: [/404/],
    });
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Article Not Found");
    await expect(
      page.getByText("The article you're looking for doesn't exist.", { exact: true }).isVisible(),
    ).resolves.toBe(true);
    const back = page.getByRole("main").getByRole("link", { name: "Back to Blog" });
    await expect(back.getAttribute("href")).resolves.toBe("/blog");
    await back.click();
    await page.waitForURL((url) => url.pathname === "/blog", WAIT);
    await page.getByRole("heading", { name: "Latest Articles" }).waitFor(WAIT);
    await close();
  });
});

describe("feeds and files", () => {
  it("/rss.xml lists the three articles with absolute links", async () => {
    const response = await get("/rss.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/rss+xml");
    const xml = await response.text();
    const items = [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((match) => match[1] ?? "");
    expect(items).toHaveLength(3);
    const links = items.map((item) => /<link>([^<]+)<\/link>/.exec(item)?.[1] ?? "");
    for (const link of links) expect(link).toMatch(/^https?:\/\/[^/]+\/blog\/[a-z0-9-]+$/);
    expect(links.map((link) => new URL(link).pathname).sort()).toEqual(
      ARTICLES.map((a) => `/blog/${a.slug}`).sort(),
    );
  });

  it("/sitemap.xml lists every public page and article by absolute URL, and no admin page", async () => {
    const response = await get("/sitemap.xml");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/xml/);
    const xml = await response.text();
    const locs = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1] ?? "");
    for (const loc of locs) expect(loc).toMatch(/^https?:\/\/[^/]+\//);
    const paths = locs.map((loc) => new URL(loc).pathname);
    for (const path of [...staticPublicPaths, ...ARTICLES.map((a) => `/blog/${a.slug}`)]) {
      expect(paths).toContain(path);
    }
    expect(xml).not.toContain("/admin");
  });

  it("/robots.txt keeps crawlers out of /admin", async () => {
    const response = await get("/robots.txt");
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^Disallow: \/admin\/?$/m);
  });

  it("/investor-deck-pdf is a PDF of more than five pages", async () => {
    const response = await get("/investor-deck-pdf");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/pdf");
    const pdf = Buffer.from(await response.arrayBuffer()).toString("latin1");
    expect(pdf.startsWith("%PDF-")).toBe(true);
    const pages = pdf.match(/\/Type\s*\/Page(?!s)\b/g) ?? [];
    expect(pages.length).toBeGreaterThan(5);
  });

  it("/investor-deck opens the presentation here when the browser blocks the new tab", async () => {
    const { page, close } = await openPage("/investor-deck");
    await page.evaluate(() => {
      window.open = () => null;
    });
    // The PDF itself is checked above; here only where the browser goes.
    await page.route("**/investor-deck-pdf", (route) =>
      route.fulfill({ status: 200, contentType: "text/plain", body: "deck" }),
    );
    await page.getByRole("link", { name: "Open Investor Presentation" }).click();
    await page.waitForURL((url) => url.pathname === "/investor-deck-pdf", WAIT);
    await close();
  });

  it("/investor-deck opens the presentation in a new tab", async () => {
    const { page, context, close } = await openPage("/investor-deck");
    const open = page.getByRole("link", { name: "Open Investor Presentation" });
    await expect(open.getAttribute("href")).resolves.toBe("/investor-deck-pdf");
    await expect(open.getAttribute("target")).resolves.toBe("_blank");
    // The new tab navigates to the deck, answered as a PDF. (The suite's headless Chromium saves a PDF
    // it navigates to instead of showing it in a viewer, so the tab's address stays blank: the
    // navigation is what is checked, ADR 038.)
    const deckUrl = new URL("/investor-deck-pdf", baseUrl).href;
    const [deck, answer] = await Promise.all([
      context.waitForEvent("page"),
      context.waitForEvent("response", {
        predicate: (response) => response.url() === deckUrl,
        timeout: 15_000,
      }),
      open.click(),
    ]);
    expect(answer.request().isNavigationRequest()).toBe(true);
    expect(answer.request().frame().page()).toBe(deck);
    expect(answer.status()).toBe(200);
    expect(await answer.headerValue("content-type")).toBe("application/pdf");
    expect(new URL(page.url()).pathname).toBe("/investor-deck");
    await deck.close();
    await close();
  });
});

describe("moving between public pages", () => {
  it("loads each page as a document of its own, so the server sees every page view (ADR 013)", async () => {
    const { page, close } = await openPage("/");
    const documents: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() === "document") documents.push(new URL(request.url()).pathname);
    });
    await page.evaluate(() => {
      (window as unknown as { __marker: number }).__marker = 1;
    });
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Blog" }).click();
    await page.waitForURL((url) => url.pathname === "/blog", WAIT);
    const latest = page.getByRole("region", { name: "Latest Articles" });
    await latest.waitFor(WAIT);
    await latest.getByRole("link", { name: article.title }).click();
    await page.waitForURL((url) => url.pathname === `/blog/${article.slug}`, WAIT);
    await page.getByRole("heading", { level: 1, name: article.title }).waitFor(WAIT);
    await expect(page.title()).resolves.toBe(`${article.title} | ${site.title}`);
    expect(documents).toEqual(["/blog", `/blog/${article.slug}`]);
    await expect(page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).resolves.toBe(
      undefined,
    );
    await close();
  });
});
