import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { expectNoA11yViolations, MOBILE, openPage, setupBrowser } from "./support/browser.ts";

// Issue 11, "Show the product": the key screens drawn in HTML and SVG on the home hero, the features
// page (one per feature) and the solution page. They must be there without JavaScript, say they are
// illustrative, pass axe, fit a 320 px phone with text no smaller than 12 px, and move nothing once
// the page is painted (cumulative layout shift 0).

setupBrowser();

/** What each page's figures are about, read from their accessible names (their captions). */
const PAGES = [
  {
    path: "/",
    lastSection: "demo",
    figures: [/amendments merged and each change traced.*citing its clause/],
  },
  {
    path: "/features",
    lastSection: "related-pages",
    figures: [
      /merged into the current version; each change is marked and traced/,
      /original wording, beside the plain-English version/,
      /deadline calendar: notice periods/,
      /answered in conversation, with the clause .* cited/,
      /Access on a project by role/,
      /insights dashboard/,
    ],
  },
  {
    path: "/solution",
    lastSection: "related-pages",
    figures: [
      /Signed documents uploaded as they are/,
      /original wording, beside the plain-English version/,
      /deadline calendar: notice periods/,
      /insights dashboard/,
    ],
  },
] as const;

/** Tests that open several pages: on a busy 2-core machine each can take seconds (no timing is asserted). */
const SLOW = { timeout: 120_000 };

const ILLUSTRATIVE = /^Illustrative screen — fictional sample project\. /;

function figures(page: Page) {
  return page.getByRole("main").getByRole("figure");
}

/** Sum of the layout-shift entries the page recorded since navigation (buffered). */
function cumulativeLayoutShift(page: Page) {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
            if (!entry.hadRecentInput) total += entry.value;
        }).observe({ type: "layout-shift", buffered: true });
        // Two frames let the buffered entries arrive; this waits for rendering, it measures no time.
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
      }),
  );
}

/** Figures that stick out of the page or hold something sticking out of them, and text under 12 px. */
function layoutProblems(page: Page) {
  return page.evaluate(() => {
    const problems: string[] = [];
    const viewport = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > viewport)
      problems.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${viewport}`);
    for (const [index, figure] of [...document.querySelectorAll("main figure")].entries()) {
      const box = figure.getBoundingClientRect();
      if (box.left < 0 || box.right > viewport) problems.push(`figure ${index + 1} leaves the viewport`);
      const outside = new Set<Element>();
      for (const element of figure.querySelectorAll("*")) {
        const rect = element.getBoundingClientRect();
        const style = getComputedStyle(element);
        // Visually hidden text (sr-only) is clipped to 1 px: not seen, nothing to measure.
        if (rect.width <= 1 || style.visibility === "hidden" || style.clip === "rect(0px, 0px, 0px, 0px)")
          continue;
        const sticksOut = rect.left < box.left - 1 || rect.right > box.right + 1;
        if (sticksOut) outside.add(element);
        // Report the outermost element only, not each of its children again.
        if (sticksOut && !(element.parentElement && outside.has(element.parentElement)))
          problems.push(
            `figure ${index + 1}: <${element.tagName.toLowerCase()}> sticks out by ${Math.round(Math.max(box.left - rect.left, rect.right - box.right))} px`,
          );
        const ownText = [...element.childNodes].some(
          (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? "").trim() !== "",
        );
        if (ownText && Number.parseFloat(style.fontSize) < 12)
          problems.push(
            `figure ${index + 1}: "${element.textContent?.trim().slice(0, 30)}" at ${style.fontSize}`,
          );
      }
    }
    return problems;
  });
}

for (const { path, lastSection, figures: expected } of PAGES) {
  describe(`${path} product visuals`, () => {
    it("are there without JavaScript, each saying it is illustrative and what it shows", async () => {
      const { page, close } = await openPage(path, { javaScript: false });
      const found = figures(page);
      await expect(found.count()).resolves.toBe(expected.length);
      for (const [index, name] of expected.entries()) {
        const figure = found.nth(index);
        await expect(figure.isVisible()).resolves.toBe(true);
        const caption = (await figure.locator("figcaption").textContent()) ?? "";
        expect(caption).toMatch(ILLUSTRATIVE);
        expect(caption).toMatch(name);
        // The figure is named by its caption, so a screen reader announces what it shows.
        await expect(page.getByRole("figure", { name }).first().isVisible()).resolves.toBe(true);
      }
      await close();
    });

    it("pass axe at 1280 and 375 px without JavaScript", SLOW, async () => {
      const { page, close } = await openPage(path, { stripScripts: true });
      await expectNoA11yViolations(page);
      await page.setViewportSize(MOBILE);
      await expectNoA11yViolations(page);
      await close();
    });

    it("fit phones of 375 and 320 px with no text under 12 px", SLOW, async () => {
      for (const width of [375, 320]) {
        const { page, close } = await openPage(path, { javaScript: false, width, height: 740 });
        await expect(layoutProblems(page), `at ${width} px`).resolves.toEqual([]);
        await close();
      }
    });

    it("shift nothing once painted, with and without JavaScript", SLOW, async () => {
      // NOTE: the first paint waits until the page's last section has been parsed. On a busy machine
      // Chromium paints a document half-parsed at random points, and the site header (a flex row
      // whose parts are placed by what follows them) then moves as the rest of it arrives: a real
      // but random shift that is not the pictures' doing and would make this test flaky.
      for (const options of [
        { stripScripts: true },
        { stripScripts: true, ...MOBILE },
        { javaScript: true },
        { javaScript: true, ...MOBILE },
      ]) {
        const { page, close } = await openPage(path, { ...options, renderAfter: lastSection });
        await expect(cumulativeLayoutShift(page), JSON.stringify(options)).resolves.toBe(0);
        await close();
      }
    });
  });
}

describe("the pictures inside the screens", () => {
  it("name the calendar and the chart by what they show", async () => {
    const { page, close } = await openPage("/features", { javaScript: false });
    const main = page.getByRole("main");
    await expect(
      main
        .getByRole("img", { name: /^April 2026 calendar\. Notice of delay period from 2 to 16 April/ })
        .isVisible(),
    ).resolves.toBe(true);
    await expect(
      main
        .getByRole("img", {
          name: /^Bar chart of obligations falling due per week .*14 in the week of 4 May/,
        })
        .isVisible(),
    ).resolves.toBe(true);
    // Amendments are marked up as deletions and insertions, which assistive technology can announce.
    await expect(main.locator("figure del").first().textContent()).resolves.toBe("27 February 2026");
    await expect(main.locator("figure ins").first().textContent()).resolves.toBe("24 April 2026");
    await close();
  });
});
