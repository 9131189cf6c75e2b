// Each prerendered page inlines only the CSS rules it can use (scripts/lib/page-css.ts, issue 11).
// A rule cut wrongly shows as a page that looks different, so each page is photographed twice, as
// served and with the whole stylesheet put back, and the two pictures must be the same to the pixel:
// every public page without JavaScript, and with it the keyboard focus and the states that scripts
// create (the mobile menu, a form's errors, a tooltip, the copy-link toast).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import sharp from "sharp";
import { beforeAll, describe, expect, it } from "vitest";
import { NOT_FOUND_PAGES, publicPages } from "../../scripts/lib/page-weight.ts";
import { baseUrl, DESKTOP, MOBILE, openPage, setupBrowser } from "./support/browser.ts";

setupBrowser();

/** Levels (of 255) a channel may differ by: anti-aliasing noise, not a rule. */
const SHADE = 8;

const INLINE_STYLE = /<style>[\s\S]*?<\/style>/;

/** The whole inline stylesheet, as a page rendered per request (a 404) carries it. */
let wholeStylesheet = "";

beforeAll(async () => {
  const html = await (await fetch(new URL(NOT_FOUND_PAGES[0] as string, baseUrl))).text();
  wholeStylesheet = INLINE_STYLE.exec(html)?.[0] ?? "";
  expect(wholeStylesheet.length).toBeGreaterThan(10_000);
});

type Variant = "as served" | "whole stylesheet";

async function photograph(
  path: string,
  variant: Variant,
  options: { width: number; height: number; javaScript: boolean },
  act?: (page: Page) => Promise<Locator | undefined>,
): Promise<Buffer> {
  const { page, context } = await openPage(path, {
    ...options,
    rewrite:
      variant === "whole stylesheet"
        ? (html) => html.replace(INLINE_STYLE, () => wholeStylesheet)
        : undefined,
  });
  // A passing state (a toast) is photographed alone, at once; anything else as the whole page.
  const element = await act?.(page);
  // A state a script or the keyboard just set may still be in a CSS transition (the links'
  // colours): photographed mid-way, the two pictures differed by a few pixels now and then.
  if (options.javaScript)
    await page.waitForFunction(() =>
      document.getAnimations().every((animation) => animation.playState !== "running"),
    );
  const shoot = () =>
    element
      ? element.screenshot({ animations: "disabled", caret: "hide" })
      : page.screenshot({ fullPage: true, animations: "disabled", caret: "hide" });
  // Chromium under a heavy load sometimes answers "Unable to capture screenshot" (a protocol error,
  // not a difference), twice in a row in one CI run: asked up to four times, a moment apart.
  const picture = await (async () => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await shoot();
      } catch (error) {
        if (attempt >= 4 || !/Unable to capture screenshot/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    }
  })();
  await context.close();
  return picture;
}

/** Both pictures of a failed comparison, for a person to look at (.ci-artifacts is kept by CI). */
function keepForInspection(path: string, width: number, pictures: Record<string, Buffer>) {
  const dir = join(process.cwd(), ".ci-artifacts", "page-css");
  mkdirSync(dir, { recursive: true });
  const name = `${path.replace(/\W+/g, "-")}-${width}`;
  for (const [variant, picture] of Object.entries(pictures))
    writeFileSync(join(dir, `${name}-${variant}.png`), picture);
}

async function expectSameLook(
  path: string,
  options: { width: number; height: number; javaScript: boolean },
  act?: (page: Page) => Promise<Locator | undefined>,
) {
  const served = await photograph(path, "as served", options, act);
  const whole = await photograph(path, "whole stylesheet", options, act);
  if (served.equals(whole)) return;
  keepForInspection(path, options.width, { served, whole });
  expect(await pictureDifference(served, whole), `${path} at ${options.width} px looks different`).toEqual({
    sizes: "same",
    visible: 0,
  });
}

/**
 * How two pictures differ: the pixels off by more than a shade (a rule cut wrongly changes a
 * colour, a size or a place: tens of levels at least). Under a heavy load Chromium now and then
 * rasterises an anti-aliased edge one or three levels apart (one pixel of a focus ring, seen in
 * CI): that is not a rule, so it does not count.
 */
async function pictureDifference(a: Buffer, b: Buffer): Promise<{ sizes: string; visible: number }> {
  const [first, second] = await Promise.all(
    [a, b].map((png) => sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true })),
  );
  if (!first || !second) throw new Error("unreachable");
  if (first.info.width !== second.info.width || first.info.height !== second.info.height)
    return {
      sizes: `${first.info.width}x${first.info.height} against ${second.info.width}x${second.info.height}`,
      visible: 0,
    };
  let visible = 0;
  for (let i = 0; i < first.data.length; i++) {
    if (Math.abs((first.data[i] ?? 0) - (second.data[i] ?? 0)) > SHADE) {
      visible++;
      i += 3 - (i % 4); // one count per pixel
    }
  }
  return { sizes: "same", visible };
}

describe("each page's own stylesheet", () => {
  it("cuts every prerendered page's inline CSS to well under the whole sheet", async () => {
    const cut: string[] = [];
    for (const path of publicPages(process.cwd())) {
      const html = await (await fetch(new URL(path, baseUrl))).text();
      const bytes = INLINE_STYLE.exec(html)?.[0].length ?? 0;
      if (bytes > 0 && bytes < wholeStylesheet.length * 0.8) cut.push(path);
    }
    expect(cut).toEqual(publicPages(process.cwd()));
  });

  // Every page on a phone; on a desktop too where the product visuals switch to their wide layouts.
  // The cut keeps a rule by the names in its selector, whatever the width, so one width per page
  // checks the choice; both widths of every page were compared when it was written (17 tests, 85 s).
  const WIDE_LAYOUTS = new Set(["/", "/features", "/solution"]);
  for (const path of publicPages(process.cwd())) {
    it(`looks the same as with the whole stylesheet: ${path}`, { timeout: 60_000 }, async () => {
      for (const size of WIDE_LAYOUTS.has(path) ? [MOBILE, DESKTOP] : [MOBILE]) {
        await expectSameLook(path, { ...size, javaScript: false });
      }
    });
  }

  it("keeps the open mobile menu's rules", { timeout: 60_000 }, async () => {
    await expectSameLook("/features", { ...MOBILE, javaScript: true }, async (page) => {
      await page.locator("header summary").click();
      await page.getByRole("navigation", { name: "Mobile" }).waitFor();
      return undefined;
    });
  });

  it("keeps the keyboard focus outline", { timeout: 60_000 }, async () => {
    await expectSameLook("/features", { ...DESKTOP, javaScript: true }, async (page) => {
      for (let i = 0; i < 3; i++) await page.keyboard.press("Tab");
      return page.locator("header");
    });
  });

  it("keeps the rules of a form's errors", { timeout: 60_000 }, async () => {
    await expectSameLook("/demo", { ...DESKTOP, javaScript: true }, async (page) => {
      await page.locator("form#demo-form").getByRole("button", { name: "Submit Request" }).click();
      await page.locator('form#demo-form [aria-invalid="true"]').first().waitFor();
      return undefined;
    });
  });

  it("keeps the rules of the copy-link toast", { timeout: 60_000 }, async () => {
    const article = "/blog/hidden-costs-poor-contract-management";
    await expectSameLook(article, { ...DESKTOP, javaScript: true }, async (page) => {
      await page.context().grantPermissions(["clipboard-read", "clipboard-write"], {
        origin: new URL(baseUrl).origin,
      });
      await page.getByRole("button", { name: "Copy link" }).click();
      const toast = page
        .getByRole("region", { name: /Notifications/ })
        .locator("li")
        .first();
      await toast.waitFor({ state: "visible" });
      return toast;
    });
  });

  it("keeps the rules of a tooltip", { timeout: 60_000 }, async () => {
    const article = "/blog/hidden-costs-poor-contract-management";
    await expectSameLook(article, { ...DESKTOP, javaScript: true }, async (page) => {
      const link = page.getByRole("link", { name: "Share on LinkedIn" });
      await link.scrollIntoViewIfNeeded();
      await link.hover();
      // The role="tooltip" text is for screen readers; the bubble around it is what a visitor sees.
      const tooltip = page.getByRole("tooltip");
      await tooltip.waitFor({ state: "attached" });
      return tooltip.locator("..");
    });
  });
});
