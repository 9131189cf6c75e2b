import { describe, expect, inject, it } from "vitest";
import { signIn } from "./support/accounts.ts";
import { baseUrl, expectNoA11yViolations, MOBILE, openPage, setupBrowser } from "./support/browser.ts";
import { openSignedIn } from "./support/pages.ts";

// Issue 34: an admin adds a meeting type on /admin/meeting-types (JavaScript off), prospects book it
// at /book/<link name> with its own length, and taking it off offer closes that page; a name left
// empty gets its message (JavaScript on). The two seeded types are left as they are: other files
// book them on the same server.

setupBrowser();

const adminSession = () => signIn(baseUrl, inject("adminUsername"), inject("adminPassword"));

describe("meeting types", () => {
  it("adds a type that prospects book on its own page, then takes it off offer", {
    timeout: 60_000,
  }, async () => {
    const slug = `site-visit-${Date.now().toString(36)}`;
    const { page, close } = await openSignedIn(
      "/admin/meeting-types",
      { javaScript: false },
      await adminSession(),
    );
    await page.getByRole("heading", { level: 2, name: "Product demo" }).waitFor();
    await page.getByRole("heading", { level: 2, name: "Investor call" }).waitFor();
    const form = page.locator("section", { has: page.getByRole("heading", { name: "Add a meeting type" }) });
    await form.getByRole("textbox", { name: "Name", exact: true }).fill("Site visit");
    await form.getByLabel("Length").selectOption("45");
    await form.getByLabel("Link name").fill(slug);
    await form.getByLabel("Only the people ticked below").check();
    await form.getByLabel(inject("adminUsername"), { exact: true }).check();
    await form.getByRole("button", { name: "Add meeting type" }).click();
    await page.getByText("“Site visit” saved.").waitFor();
    const card = page.locator("section", { has: page.getByRole("link", { name: `/book/${slug}` }) });
    expect(await card.getByLabel("Length").inputValue()).toBe("45");

    const booking = await openPage(`/book/${slug}`, { javaScript: false });
    await booking.page.getByRole("heading", { level: 1, name: "Book a site visit" }).waitFor();
    await booking.page.getByText(/A site visit of 45 minutes, online/).waitFor();
    expect(await booking.page.locator('input[name="start"]').count()).toBeGreaterThan(0);
    await booking.close();

    await card.getByLabel("Offered to prospects").uncheck();
    await card.getByRole("button", { name: "Save Site visit" }).click();
    await page.getByText("“Site visit” saved.").waitFor();
    await page
      .locator("section", { has: page.getByRole("link", { name: `/book/${slug}` }) })
      .getByText("not offered")
      .waitFor();
    const closed = await openPage(`/book/${slug}`, { javaScript: false, allowConsoleErrors: [/404/] });
    expect(closed.response?.status()).toBe(404);
    await closed.close();
    await close();
  });

  it("says what is wrong and keeps what was typed (JavaScript on), and fits a phone", {
    timeout: 60_000,
  }, async () => {
    const session = await adminSession();
    const { page, close } = await openSignedIn(
      "/admin/meeting-types",
      { allowConsoleErrors: [/400/] },
      session,
    );
    const form = page.locator("section", { has: page.getByRole("heading", { name: "Add a meeting type" }) });
    await form.getByLabel("Link name").fill("Not A Slug");
    await form.getByRole("button", { name: "Add meeting type" }).click();
    await page.getByText("Nothing was saved: correct the fields marked below.").waitFor();
    await form.getByText("Enter a name of 1 to 60 characters on one line.").waitFor();
    expect(await form.getByLabel("Link name").inputValue()).toBe("Not A Slug");
    await expectNoA11yViolations(page);
    await page.screenshot({ path: ".ci-artifacts/meeting-types-1280.png", fullPage: true });
    await close();

    const phone = await openSignedIn("/admin/meeting-types", { ...MOBILE }, session);
    await phone.page.getByRole("heading", { level: 1, name: "Meeting types" }).waitFor();
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await phone.page.screenshot({ path: ".ci-artifacts/meeting-types-375.png", fullPage: true });
    await phone.close();
  });
});
