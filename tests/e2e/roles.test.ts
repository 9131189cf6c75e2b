import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { leadRow } from "../support/lead-rows.ts";
import { signIn } from "./support/accounts.ts";
import { baseUrl, openPage, setupBrowser } from "./support/browser.ts";
import { goto, openSignedIn, pathOf, readText } from "./support/pages.ts";

// Issue 23, roles enforced by the server, as each role meets them in Chromium: a sales rep signs in
// to the lead dashboard and works a lead, may read analytics and is turned away from staff and
// audits; a marketer signs in to analytics, sees counts but no lead's name or email, and is turned
// away from the dashboard and a lead's page (the SPEC's answer: home); an admin gives a colleague
// another role on the staff page (with and without JavaScript), which holds from the colleague's
// next click.

setupBrowser();

const RUN = Date.now().toString(36);
const PASSWORD = "roles journey passphrase";
const ADMIN = { username: inject("adminUsername"), password: inject("adminPassword") };
const SALES = `sales-${RUN}`;
const MARKETING = `marketing-${RUN}`;
const MOVER = `mover-${RUN}`;
const LEAD = { fullName: `Quentin Rolesjourney ${RUN}`, email: `quentin.${RUN}@roles-journey.example` };
const WAIT = { timeout: 10_000 };
const JOURNEY_MS = 120_000;
// Chromium reports every 4xx/5xx answer to a fetch or a page as a console error.
const FAILED_LOAD = [/Failed to load resource/];

let database: AppDatabase;
let leadId = 0;

beforeAll(async () => {
  database = openDatabase(inject("databaseUrl"), { poolSize: 1 });
  await createUser(database.db, { username: SALES, password: PASSWORD, role: "sales" });
  await createUser(database.db, { username: MARKETING, password: PASSWORD, role: "marketing" });
  await createUser(database.db, { username: MOVER, password: PASSWORD, role: "sales" });
  const row = await database.db
    .insertInto("leads")
    .values(leadRow({ ...LEAD, company: `Journey Builds ${RUN}` }))
    .returning("id")
    .executeTakeFirstOrThrow();
  leadId = Number(row.id);
});

afterAll(async () => {
  if (!database) return;
  await database.db.deleteFrom("leads").where("id", "=", leadId).execute();
  await database.db.deleteFrom("users").where("username", "in", [SALES, MARKETING, MOVER]).execute();
  await database.close();
});

/** Signs in on the login page with JavaScript, as a person would, and waits to land somewhere. */
async function signInWithForm(username: string) {
  const opened = await openPage("/admin/login", { allowConsoleErrors: FAILED_LOAD });
  const { page } = opened;
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => url.pathname !== "/admin/login", WAIT);
  await page.waitForLoadState("load");
  return opened;
}

const heading = (page: Page) => page.getByRole("heading", { level: 1 }).first().textContent();

/** Opens `path` in the signed-in page and says where the browser ended up. */
async function visit(page: Page, path: string) {
  await goto(page, path);
  return new URL(page.url()).pathname;
}

describe("each role in the back office", () => {
  it(
    "a sales rep lands on the dashboard, works a lead, reads analytics, and is sent home from staff and audits",
    async () => {
      const opened = await signInWithForm(SALES);
      const { page } = opened;
      expect(pathOf(page)).toBe("/admin/dashboard");
      await expect.poll(() => heading(page), WAIT).toBe("Admin Dashboard");
      await expect(page.getByText(LEAD.email).first().isVisible()).resolves.toBe(true);
      expect(await visit(page, `/admin/leads/${leadId}`)).toBe(`/admin/leads/${leadId}`);
      await expect(readText(page.locator("main").first())).resolves.toContain(LEAD.fullName);
      expect(await visit(page, "/admin/analytics")).toBe("/admin/analytics");
      await expect(heading(page)).resolves.toBe("Analytics");
      for (const refused of ["/admin/staff", "/admin/audit", "/admin/api-keys", "/admin/people"])
        expect(await visit(page, refused), refused).toBe("/");
      await opened.close();
    },
    JOURNEY_MS,
  );

  it(
    "a marketer lands on analytics with counts but no lead's personal data, and is sent home from the leads",
    async () => {
      const opened = await signInWithForm(MARKETING);
      const { page } = opened;
      expect(pathOf(page)).toBe("/admin/analytics");
      await expect.poll(() => heading(page), WAIT).toBe("Analytics");
      const text = await readText(page.locator("body"));
      expect(text).toContain("Leads");
      expect(text).not.toContain(LEAD.fullName);
      expect(text).not.toContain(LEAD.email);
      // No way "back" to a dashboard that is not theirs, and no Leads in their shell; from their
      // account page the shell's Analytics leads back.
      await expect(page.getByRole("link", { name: /Back to Dashboard/ }).count()).resolves.toBe(0);
      await expect(
        page
          .getByRole("link", { name: /^Leads/ })
          .filter({ visible: true })
          .count(),
      ).resolves.toBe(0);
      expect(await visit(page, "/admin/account")).toBe("/admin/account");
      await page
        .getByRole("link", { name: "Analytics", exact: true })
        .filter({ visible: true })
        .first()
        .click();
      await page.waitForURL(/\/admin\/analytics$/, WAIT);
      // SPEC section 2: the lead dashboard is admin-only; a signed-in non-admin goes home.
      expect(await visit(page, "/admin/dashboard")).toBe("/");
      expect(await visit(page, `/admin/leads/${leadId}`)).toBe("/");
      expect(await visit(page, "/admin/audit")).toBe("/admin/audit");
      expect(await visit(page, "/admin/staff")).toBe("/");
      const user = await page.evaluate(async () => (await fetch("/api/user")).json());
      expect(user).toMatchObject({ username: MARKETING, role: "marketing", isAdmin: false });
      await opened.close();
    },
    JOURNEY_MS,
  );

  it(
    "a marketer signing in without JavaScript lands on analytics too, even when sent to the dashboard",
    async () => {
      const opened = await openPage("/admin/login?next=%2Fadmin%2Fdashboard", {
        javaScript: false,
        allowConsoleErrors: FAILED_LOAD,
      });
      const { page } = opened;
      await page.getByLabel("Username").fill(MARKETING);
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Login" }).click();
      await page.waitForURL((url) => url.pathname !== "/admin/login", WAIT);
      expect(pathOf(page)).toBe("/admin/analytics");
      await expect(heading(page)).resolves.toBe("Analytics");
      await opened.close();
    },
    JOURNEY_MS,
  );

  it(
    "an admin changes a colleague's role on the staff page, and it holds from the colleague's next click",
    async () => {
      const colleague = await signIn(baseUrl, MOVER, PASSWORD);
      const mover = await openSignedIn("/admin/dashboard", { allowConsoleErrors: FAILED_LOAD }, colleague);
      expect(pathOf(mover.page)).toBe("/admin/dashboard");

      const adminSession = await signIn(baseUrl, ADMIN.username, ADMIN.password);
      const admin = await openSignedIn("/admin/staff", { allowConsoleErrors: FAILED_LOAD }, adminSession);
      const select = admin.page.getByLabel(`Role of ${MOVER}`);
      await expect(select.inputValue()).resolves.toBe("sales");
      await select.selectOption("marketing");
      await admin.page.getByRole("button", { name: `Save role of ${MOVER}` }).click();
      await expect
        .poll(
          () =>
            admin.page
              .getByRole("status")
              .filter({ hasText: `${MOVER} has a new role` })
              .count(),
          WAIT,
        )
        .toBe(1);
      await expect(admin.page.getByLabel(`Role of ${MOVER}`).inputValue()).resolves.toBe("marketing");

      // The colleague's very next click: the dashboard is no longer theirs, analytics is.
      expect(await visit(mover.page, "/admin/dashboard")).toBe("/");
      expect(await visit(mover.page, "/admin/analytics")).toBe("/admin/analytics");
      await mover.close();
      await admin.close();
    },
    JOURNEY_MS,
  );

  it(
    "an admin changes a role without JavaScript",
    async () => {
      const session = await signIn(baseUrl, ADMIN.username, ADMIN.password);
      const admin = await openSignedIn(
        "/admin/staff",
        { javaScript: false, allowConsoleErrors: FAILED_LOAD },
        session,
      );
      const { page } = admin;
      await page.getByLabel(`Role of ${MOVER}`).selectOption("sales");
      await page.getByRole("button", { name: `Save role of ${MOVER}` }).click();
      await page.waitForURL(/notice=role/, WAIT);
      await expect(page.getByLabel(`Role of ${MOVER}`).inputValue()).resolves.toBe("sales");
      const stored = await database.db
        .selectFrom("users")
        .select(["role", "isAdmin"])
        .where("username", "=", MOVER)
        .executeTakeFirstOrThrow();
      expect(stored).toEqual({ role: "sales", isAdmin: 1 });
      await admin.close();
    },
    JOURNEY_MS,
  );
});
