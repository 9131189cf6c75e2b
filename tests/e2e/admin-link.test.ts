import { describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { signIn } from "./support/accounts.ts";
import { openPage, setupBrowser } from "./support/browser.ts";
import { cookiesFor } from "./support/pages.ts";

setupBrowser();

// SPEC section 1: a signed-in admin also sees an Admin link in the header. Public pages are the
// same prerendered HTML for everyone, so the header asks the server after hydration; nothing the
// browser stores by itself can make the link (or any data) appear.

const baseUrl = inject("baseUrl");
const PASSWORD = "admin link passphrase";

describe("the header's Admin link", () => {
  it("appears for a signed-in admin and leads to the dashboard", async () => {
    const session = await signIn(baseUrl, inject("adminUsername"), inject("adminPassword"));
    const { page, context, close } = await openPage("/");
    await context.addCookies(cookiesFor(session));
    await page.goto(`${baseUrl}/problem`);
    const admin = page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Admin", exact: true });
    await admin.waitFor({ state: "visible", timeout: 10_000 });
    await expect(admin.getAttribute("href")).resolves.toBe("/admin/dashboard");
    await close();
  });

  it("leads a marketer to their part of the back office (analytics)", async () => {
    const username = `link-marketer-${Date.now().toString(36)}`;
    const database = openDatabase(inject("databaseUrl"), { poolSize: 1 });
    try {
      await createUser(database.db, { username, password: PASSWORD, role: "marketing" });
    } finally {
      await database.close();
    }
    const { page, context, close } = await openPage("/");
    await context.addCookies(cookiesFor(await signIn(baseUrl, username, PASSWORD)));
    await page.goto(`${baseUrl}/problem`);
    const admin = page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Admin", exact: true });
    await admin.waitFor({ state: "visible", timeout: 10_000 });
    await expect(admin.getAttribute("href")).resolves.toBe("/admin");
    await admin.click();
    await page.waitForURL(`${baseUrl}/admin/analytics`);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toContain("Analytics");
    await close();
  });

  it("stays hidden for a forged hint cookie and localStorage.isAdmin = 'true'", async () => {
    const { page, context, close } = await openPage("/", { allowConsoleErrors: [/401/] });
    await context.addCookies(cookiesFor("admin_hint=1; session=forged-session-token-forged-session-token-x"));
    await page.evaluate(() => {
      localStorage.setItem("isAdmin", "true");
      localStorage.setItem("adminUser", JSON.stringify({ username: "mallory", isAdmin: true }));
    });
    const asked = page.waitForResponse((response) => response.url().endsWith("/api/user"));
    await page.goto(`${baseUrl}/problem`);
    expect((await asked).status()).toBe(401);
    await page.waitForTimeout(300);
    await expect(page.getByRole("link", { name: "Admin", exact: true }).count()).resolves.toBe(0);
    await close();
  });
});
