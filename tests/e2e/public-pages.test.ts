import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONFIDENTIALITY_NOTICE,
  RISK_WARNING,
  TERMS_DISCUSSED_DIRECTLY,
} from "#app/features/investor-deck/deck-content.ts";
import { contentPages } from "#app/lib/site/navigation.ts";
import { formatPolicyDate, privacyPolicyChanges } from "#app/lib/site/privacy-changes.ts";
import { site } from "#app/lib/site/site.ts";
import { ARTICLES, type ExpectedArticle } from "./content-fixtures.ts";
import {
  expectNoA11yViolations,
  MOBILE,
  type OpenedPage,
  openPage,
  setupBrowser,
} from "./support/browser.ts";

// Every public page of SPEC section 2: status, heading, head tags for search and sharing, the spec's
// content, the same content without JavaScript, and accessibility at desktop and phone widths.
// One browser page per route is shared by that route's tests to keep the suite fast.

setupBrowser();

type RouteCase = {
  path: string;
  h1: string;
  /** Texts that must be in <main> with or without JavaScript. */
  keyTexts: string[];
  /** Spec content beyond the heading; runs on the JavaScript-enabled page. */
  content?: (page: Page) => Promise<void>;
  /** Pages that carry the related-pages block. */
  related?: boolean;
  article?: ExpectedArticle;
};

async function expectVisible(page: Page, ...locators: ReturnType<Page["locator"]>[]) {
  for (const locator of locators) {
    await expect(locator.isVisible(), `${locator} should be visible on ${page.url()}`).resolves.toBe(true);
  }
}

async function expectHeadings(page: Page, names: string[]) {
  const main = page.getByRole("main");
  for (const name of names) {
    await expectVisible(page, main.getByRole("heading", { name, exact: true }));
  }
}

async function hrefOf(locator: ReturnType<Page["locator"]>) {
  return locator.getAttribute("href");
}

const ROUTES: RouteCase[] = [
  {
    path: "/",
    h1: "Turning Contracts Into Strategic Assets",
    keyTexts: ["Turning Contracts Into Strategic Assets", "9.2%", "71%", "90%", "Get Started Today"],
    async content(page) {
      const main = page.getByRole("main");
      const requestDemo = main.getByRole("link", { name: "Request a Demo", exact: true });
      await expectVisible(page, requestDemo, main.getByRole("link", { name: "Learn More", exact: true }));
      await expect(hrefOf(requestDemo)).resolves.toBe("/demo");
      // SPEC section 2: the three statistics with what they measure.
      for (const [value, meaning] of [
        ["9.2%", /annual revenue/i],
        ["71%", /cannot locate at least 10%/i],
        ["90%", /legal language confusing/i],
      ] as const) {
        await expectVisible(page, main.getByText(value, { exact: true }), main.getByText(meaning));
      }
      for (const to of ["/problem", "/solution", "/features"]) {
        await expectVisible(page, main.locator(`a[href="${to}"]`).first());
      }
      const demoSection = page.locator("section#demo");
      await expectVisible(page, demoSection.getByRole("heading", { name: "Get Started Today" }));
    },
  },
  {
    path: "/problem",
    h1: "The Contract Management Problem",
    keyTexts: ["Siloed Post-Signature", "Business Impact", "up to 40%"],
    related: true,
    async content(page) {
      await expectHeadings(page, [
        "Siloed Post-Signature",
        "Fragmented Data",
        "Legal Complexity",
        "Limited Access",
        "Business Impact",
        "Value Leakage",
        "Compliance Risk",
        "Operational Inefficiency",
        "Revenue Loss",
      ]);
      const impact = page.getByRole("region", { name: "Business Impact" });
      await expect(impact.textContent()).resolves.toMatch(/up to 40%/);
      const quote = page.getByRole("main").locator("blockquote");
      await expect(quote.count()).resolves.toBe(1);
      await expect(quote.textContent()).resolves.toMatch(/\w{3,}.*\w{3,}/);
    },
  },
  {
    path: "/solution",
    h1: "Our Approach",
    keyTexts: ["Centralisation", "Analytics"],
    related: true,
    async content(page) {
      await expectHeadings(page, [
        "Centralisation",
        "Consolidation",
        "Clarity",
        "Accessibility",
        "Automation",
        "Analytics",
      ]);
    },
  },
  {
    path: "/features",
    h1: "Features",
    keyTexts: ["AI Contract Consolidation", "Insights Dashboard", "Expected results"],
    related: true,
    async content(page) {
      await expectHeadings(page, [
        "AI Contract Consolidation",
        "Plain Language Translation",
        "Automated Date Tracking",
        "Conversational Search",
        "Role-Based Access",
        "Insights Dashboard",
        "Expected results",
      ]);
      // Four expected results, each with its own heading (SPEC does not give their wording).
      const results = page.getByRole("region", { name: "Expected results" });
      await expect(results.getByRole("listitem").count()).resolves.toBe(4);
      await expect(results.getByRole("heading", { level: 3 }).count()).resolves.toBe(4);
    },
  },
  {
    path: "/demo",
    h1: "Request a Demo",
    keyTexts: ["Request a Demo", site.company.email],
    async content(page) {
      const breadcrumb = page.getByRole("navigation", { name: "Breadcrumb" });
      await expect(hrefOf(breadcrumb.getByRole("link", { name: "Home" }))).resolves.toBe("/");
      await expect(breadcrumb.locator('[aria-current="page"]').textContent()).resolves.toBe("Request a Demo");
      const main = page.getByRole("main");
      for (const [name, to] of [
        [/^The Problem/, "/problem"],
        [/^Our Approach/, "/solution"],
        [/^Features/, "/features"],
      ] as const) {
        const link = main.getByRole("link", { name });
        await expectVisible(page, link);
        await expect(hrefOf(link)).resolves.toBe(to);
      }
      await expect(page.locator("section#demo").count()).resolves.toBe(1);
    },
  },
  {
    path: "/invest",
    h1: "Investment Opportunity",
    keyTexts: [
      "Investments of this nature carry risks to your capital. Please Invest Aware.",
      site.investorContact.name,
      site.investorContact.email,
      // Issue 11: the same answer as the deck's 'Terms' (the round's size is not in the deck).
      TERMS_DISCUSSED_DIRECTLY,
    ],
    async content(page) {
      const main = page.getByRole("main");
      await expectVisible(
        page,
        main.getByText("Investments of this nature carry risks to your capital. Please Invest Aware.", {
          exact: true,
        }),
        main.getByText(site.investorContact.name, { exact: true }),
      );
      const { phone, email } = site.investorContact;
      const tel = main.getByRole("link", { name: phone.display, exact: true });
      await expect(hrefOf(tel)).resolves.toBe(`tel:${phone.e164}`);
      const mail = main.getByRole("link", { name: email, exact: true });
      await expect(hrefOf(mail)).resolves.toMatch(
        new RegExp(`^mailto:${email.replace(/\./g, "\\.")}(\\?|$)`),
      );

      // 'Get in Touch' scrolls the investor form section to the 80 px anchor offset (SPEC section 9).
      await main.getByRole("link", { name: "Get in Touch" }).click();
      const form = page.getByRole("region", { name: "Investor Interest Form" });
      await expect
        .poll(() => form.evaluate((el) => Math.round(el.getBoundingClientRect().top)), { timeout: 5_000 })
        .toBe(80);
      await expect(form.getByRole("heading", { name: "Investor Interest Form" }).isVisible()).resolves.toBe(
        true,
      );
    },
  },
  {
    path: "/investor-deck",
    h1: "Investor Presentation",
    keyTexts: ["Open Investor Presentation", "Return to Homepage", CONFIDENTIALITY_NOTICE],
    async content(page) {
      const main = page.getByRole("main");
      const open = main.getByRole("link", { name: "Open Investor Presentation" });
      await expectVisible(page, open);
      await expect(hrefOf(open)).resolves.toBe("/investor-deck-pdf");
      await expect(hrefOf(main.getByRole("link", { name: "Return to Homepage" }))).resolves.toBe("/");
      // SPEC section 2's confidentiality footer, worded for a document anyone can download (issue 11):
      // the PDF's own footer words and the risk warning.
      const notice = main.getByRole("complementary", { name: "Confidentiality notice" });
      await expectVisible(page, notice);
      await expect(notice.innerText()).resolves.toBe(`${CONFIDENTIALITY_NOTICE} ${RISK_WARNING}`);
      // What the deck covers agrees with it: amount and terms are discussed directly.
      await expectVisible(page, main.getByText(/amount and terms are discussed directly with investors/));
    },
  },
  {
    path: "/blog",
    h1: "Insights on Construction Contract Management",
    keyTexts: ["Featured Press Coverage", "Latest Articles", "Stay Updated", ...ARTICLES.map((a) => a.title)],
  },
  {
    path: "/privacy-policy",
    h1: "Privacy Policy",
    keyTexts: ["Policy version: 1 April 2025", "Children"],
    async content(page) {
      const main = page.getByRole("main");
      await expectVisible(page, main.getByText("Policy version: 1 April 2025", { exact: true }));
      for (const name of [
        /what this policy covers/i,
        /personal data we collect/i,
        /how we collect/i,
        /how and why we use/i,
        /^marketing$/i,
        /who we share/i,
        /how to contact us/i,
      ]) {
        await expectVisible(page, main.getByRole("heading", { level: 2, name }));
      }
      const text = (await main.textContent()) ?? "";
      expect(text).toMatch(/children under (the age of )?13/i);
      expect(text).toMatch(/limited company registered in England and Wales/);
      expect(text).toMatch(/UK General Data Protection Regulation/);
      expect(text).toMatch(/EU General Data Protection Regulation/);
      expect(text).toMatch(/legitimate interest/);
      expect(text).toMatch(/opt out/i);
      const contact = page.getByRole("region", { name: /how to contact us/i });
      const contactText = (await contact.textContent()) ?? "";
      expect(contactText).toMatch(/By post/);
      expect(contactText).toMatch(/By email/);
      expect(contactText).toMatch(/By phone/);
      expect(contactText).toContain(site.company.address.postalCode);
      // Issues 12 and 13: analytics, retention and people's rights, and every later change with its
      // date under "Changes" while the pinned version line stays.
      for (const name of [
        /^website analytics$/i,
        /how long we keep/i,
        /^your rights$/i,
        /^changes to this policy$/i,
      ])
        await expectVisible(page, main.getByRole("heading", { level: 2, name }));
      expect(text).toMatch(/strictly necessary for spam protection/);
      expect(text).toMatch(
        /Global Privacy Control signal \(Sec-GPC: 1\) or a Do Not Track request \(DNT: 1\)/,
      );
      expect(text).toMatch(/salt is deleted 48\s+hours after/);
      expect(text).toMatch(/Demonstration requests and investor enquiries: 24 months from the last activity/);
      expect(text).toMatch(/spam filter holds back: deleted 30 days/);
      expect(text).toMatch(/erase all of it together/);
      expect(text).toMatch(/suppression record: a keyed code made from your email address/);
      // Issue 34: what a booked meeting keeps, where it goes (invitations, reminders, the host's own
      // calendar) and how long it stays.
      await expectVisible(
        page,
        main.getByRole("heading", { level: 2, name: /^booking a meeting with us$/i }),
      );
      expect(text).toMatch(/your time zone, so that we show and send you the time of the meeting in it/);
      expect(text).toMatch(/reminder 24 hours and one hour before the meeting/);
      expect(text).toMatch(/we write the meeting into that calendar/);
      expect(text).toMatch(/Meetings you book with us: with your enquiry/);
      expect(text).toMatch(/An erasure also covers the meetings you booked with us/);
      const changes = page.getByRole("region", { name: /changes to this policy/i });
      for (const change of privacyPolicyChanges) {
        await expectVisible(
          page,
          changes.getByRole("heading", { level: 3, name: formatPolicyDate(change.date) }),
        );
        for (const line of change.changes) expect((await changes.textContent()) ?? "").toContain(line);
      }
      const latest = privacyPolicyChanges.at(-1);
      if (latest)
        await expectVisible(
          page,
          main.getByText(`Last changed: ${formatPolicyDate(latest.date)}`, { exact: false }),
        );
    },
  },
  ...ARTICLES.map(
    (article): RouteCase => ({
      path: `/blog/${article.slug}`,
      h1: article.title,
      keyTexts: [article.title, article.excerpt, ...article.h2s],
      related: true,
      article,
    }),
  ),
];

/**
 * Filled by the JavaScript-enabled pass, compared across pages and with the no-JavaScript pass.
 * NOTE: so the cross-page and no-JavaScript tests need the per-route tests to run first (file order);
 * filtering them out with `-t` makes those tests fail on purpose rather than pass on nothing.
 */
const titles = new Map<string, string>();
const descriptions = new Map<string, string>();
const mainTextLengths = new Map<string, number>();

type JsonLd = Record<string, unknown>;

async function readJsonLd(page: Page): Promise<JsonLd[]> {
  const blocks = await page.locator('script[type="application/ld+json"]').allTextContents();
  return blocks.flatMap((block) => {
    const parsed = JSON.parse(block) as JsonLd | JsonLd[];
    if (Array.isArray(parsed)) return parsed;
    return Array.isArray(parsed["@graph"]) ? (parsed["@graph"] as JsonLd[]) : [parsed];
  });
}

async function metaContent(page: Page, selector: string) {
  const tags = page.locator(selector);
  await expect(tags.count(), `${selector} on ${page.url()}`).resolves.toBe(1);
  return (await tags.getAttribute("content")) ?? "";
}

for (const route of ROUTES) {
  describe(`${route.path}`, () => {
    let opened: OpenedPage | undefined;

    beforeAll(async () => {
      opened = await openPage(route.path);
    });
    afterAll(async () => {
      await opened?.close();
    });

    function page(): Page {
      if (!opened) throw new Error(`${route.path} did not open`);
      return opened.page;
    }

    it("answers 200 and shows its heading", async () => {
      expect(opened?.response?.status()).toBe(200);
      const h1 = page().getByRole("heading", { level: 1 });
      await expect(h1.count()).resolves.toBe(1);
      await expect(h1.textContent()).resolves.toBe(route.h1);
      const mainText = (await page().getByRole("main").textContent()) ?? "";
      for (const text of route.keyTexts) expect(mainText).toContain(text);
      mainTextLengths.set(route.path, mainText.length);
    });

    it("has its own title, description, canonical URL and social tags", async () => {
      const p = page();
      const title = await p.title();
      if (route.path === "/") expect(title).toBe(site.title);
      else expect(title).toMatch(new RegExp(`^.+ \\| ${site.title}$`));
      titles.set(route.path, title);

      const description = await metaContent(p, 'meta[name="description"]');
      expect(description.length).toBeGreaterThan(50);
      descriptions.set(route.path, description);

      const canonicalTags = p.locator('link[rel="canonical"]');
      await expect(canonicalTags.count()).resolves.toBe(1);
      const canonical = (await canonicalTags.getAttribute("href")) ?? "";
      expect(canonical).toMatch(/^https?:\/\/[^/]+\//);
      expect(new URL(canonical).pathname).toBe(route.path);

      await expect(metaContent(p, 'meta[property="og:title"]')).resolves.toBe(title);
      await expect(metaContent(p, 'meta[property="og:description"]')).resolves.toBe(description);
      await expect(metaContent(p, 'meta[property="og:url"]')).resolves.toBe(canonical);
      await expect(metaContent(p, 'meta[property="og:image"]')).resolves.toMatch(/^https?:\/\/\S+$/);
      await expect(metaContent(p, 'meta[name="twitter:card"]')).resolves.toMatch(/^summary/);
    });

    it(`carries structured data for the organisation${route.article ? " and the article" : ""}`, async () => {
      const items = await readJsonLd(page());
      const organization = items.find((item) => item["@type"] === "Organization");
      expect(organization?.name).toBe(site.company.legalName);
      expect(String(organization?.url)).toMatch(/^https?:\/\//);
      if (route.article) {
        const article = items.find((item) => item["@type"] === "Article");
        expect(article?.headline).toBe(route.article.title);
        expect(article?.datePublished).toBe(route.article.date);
      }
    });

    if (route.content) {
      const content = route.content;
      it("shows the spec's content", async () => {
        await content(page());
      });
    }

    if (route.related) {
      it("lists the other pages in the related-pages block and omits this one", async () => {
        const block = page().getByRole("region", { name: "Related pages" });
        const hrefs = await block
          .getByRole("link")
          .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
        expect(hrefs).not.toContain(route.path);
        const others = route.article
          ? ["/problem", "/solution", "/features", "/demo"]
          : contentPages.map((p) => p.to).filter((to) => to !== route.path);
        for (const to of others) expect(hrefs).toContain(to);
        if (!route.article) expect(hrefs).toHaveLength(contentPages.length - 1);
      });
    }

    it("shows no placeholder or filler text", async () => {
      const p = page();
      const visible = [
        await p.locator("body").innerText(),
        await p.title(),
        (await p.locator('meta[name="description"]').getAttribute("content")) ?? "",
      ].join("\n");
      expect(visible).not.toMatch(/\{\s*[\w.]+\s*\}/);
      expect(visible).not.toMatch(/lorem|ipsum/i);
      expect(visible).not.toMatch(/\bundefined\b|\bNaN\b|\[object Object\]/);
    });

    it("has no accessibility violations at desktop width", async () => {
      await expectNoA11yViolations(page());
    });

    it("has no accessibility violations at 375 px", async () => {
      await page().setViewportSize(MOBILE);
      await expectNoA11yViolations(page());
    });
  });
}

describe("across all public pages", () => {
  it("no two pages share a title", () => {
    expect([...titles.keys()].sort()).toEqual(ROUTES.map((r) => r.path).sort());
    const seen = new Map<string, string>();
    for (const [path, title] of titles) {
      expect(seen.get(title), `${path} repeats the title '${title}'`).toBeUndefined();
      seen.set(title, path);
    }
  });

  it("no two pages share a meta description", () => {
    expect([...descriptions.keys()].sort()).toEqual(ROUTES.map((r) => r.path).sort());
    expect(new Set(descriptions.values()).size).toBe(descriptions.size);
  });
});

describe("without JavaScript", () => {
  it.each(ROUTES.map((route) => [route.path, route] as const))(
    "%s shows its heading and the same content",
    async (_path, route) => {
      const { page, response, close } = await openPage(route.path, { javaScript: false });
      expect(response?.status()).toBe(200);
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(route.h1);
      const mainText = (await page.getByRole("main").textContent()) ?? "";
      for (const text of route.keyTexts) expect(mainText).toContain(text);
      const withJs = mainTextLengths.get(route.path);
      expect(withJs, "the JavaScript-enabled pass recorded this page").toBeDefined();
      expect(Math.abs(mainText.length - (withJs ?? 0))).toBeLessThanOrEqual((withJs ?? 0) * 0.05);
      await close();
    },
  );
});

describe("error pages are accessible", () => {
  it.each([
    ["the 404 page", "/this/does-not-exist", "404 Page Not Found"],
    ["the 'Article Not Found' page", "/blog/no-such-article", "Article Not Found"],
  ])("%s, at desktop width and at 375 px", async (_label, path, heading) => {
    const { page, response, close } = await openPage(path, { allowConsoleErrors: [/404/] });
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(heading);
    await expectNoA11yViolations(page);
    await page.setViewportSize(MOBILE);
    await expectNoA11yViolations(page);
    await close();
  });
});
