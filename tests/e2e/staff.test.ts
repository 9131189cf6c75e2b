import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { hashToken } from "../../app/features/auth/sessions.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { checkPostgres, createPostgresSchema } from "../support/databases.ts";
import { signIn } from "./support/accounts.ts";
import {
  baseUrl,
  expectNoA11yViolations,
  MOBILE,
  openPage,
  type PageOptions,
  setupBrowser,
} from "./support/browser.ts";
import { goto, openAccountMenu, openSignedIn as openWithSession, pathOf, readText } from "./support/pages.ts";

// Issue 10, staff accounts, in Chromium against the shared e2e server: an admin adds a colleague with
// a one-time link, the colleague chooses a password and signs in, the admin disables them (their open
// session is refused at its next request), enables and resets them; the same without JavaScript; and
// SPEC sections 3-4's localStorage hints. Then the JSON API's contract on a server of its own per
// database, where the last-admin rule can be reached.

setupBrowser();

const ADMIN = { username: inject("adminUsername"), password: inject("adminPassword") };
const RUN = Date.now().toString(36);
const WAIT = { timeout: 10_000 };
// Chromium reports every 4xx/5xx answer to a fetch or a page as a console error.
const FAILED_LOAD = [/Failed to load resource/];
const STAFF = "/admin/staff";
/** The journeys below are long (two browsers, a dozen page loads): more than the default 30 s. */
const JOURNEY_MS = 120_000;

let database: AppDatabase;
let adminSession: string;
const createdUsernames: string[] = [];

beforeAll(async () => {
  database = openDatabase(inject("databaseUrl"), { poolSize: 1 });
  adminSession = await signIn(baseUrl, ADMIN.username, ADMIN.password);
});

afterAll(async () => {
  if (!database) return;
  // Their events, links and sessions go with them (ON DELETE CASCADE).
  if (createdUsernames.length > 0)
    await database.db.deleteFrom("users").where("username", "in", createdUsernames).execute();
  await database.close();
});

function newUsername(label: string): string {
  const username = `${label}-${RUN}`;
  createdUsernames.push(username);
  return username;
}

function openSignedIn(path: string, options: PageOptions = {}, session = adminSession) {
  return openWithSession(path, { allowConsoleErrors: FAILED_LOAD, ...options }, session);
}

const row = (page: Page, username: string) =>
  page
    .getByRole("listitem")
    .filter({ has: page.locator(`[id$="-name"]`, { hasText: new RegExp(`^${username}$`) }) });
const notice = (page: Page, text: string) => page.getByRole("status").filter({ hasText: text });
const storedUser = (username: string) =>
  database.db
    .selectFrom("users")
    .select(["id", "disabled", "passwordHash", "lastSignInAt"])
    .where("username", "=", username)
    .executeTakeFirstOrThrow();
const flags = (page: Page) =>
  page.evaluate(() => ({
    isAdmin: localStorage.getItem("isAdmin"),
    adminUser: localStorage.getItem("adminUser"),
  }));

async function fillNewPassword(
  scope: Page | ReturnType<Page["locator"]>,
  password: string,
  confirm = password,
) {
  await scope.getByLabel(/^(New|Initial) password/).fill(password);
  await scope.getByLabel(/^Same password again/).fill(confirm);
}

/** The set-password link the page shows once, read as the admin would copy it. */
async function shownLink(page: Page): Promise<string> {
  const code = page.getByTestId("set-password-url");
  await code.waitFor(WAIT);
  const url = (await code.textContent()) ?? "";
  expect(url).toMatch(new RegExp(`^${baseUrl}/admin/set-password/[A-Za-z0-9_-]{43}$`));
  return url;
}

/** Signs in on the login page with JavaScript, as a person would. */
async function signInWithForm(page: Page, username: string, password: string) {
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
}

describe("staff accounts with JavaScript", () => {
  it(
    "adds a colleague with a link; they choose a password, sign in, are disabled mid-session, enabled and reset",
    async () => {
      const colleague = newUsername("colleague");
      const admin = await openSignedIn(STAFF);
      const { page } = admin;
      await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Staff accounts");

      // Adding: the button says so while the request is on its way.
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route("**/admin/staff.data**", async (route) => {
        await held;
        await route.continue();
      });
      await page.getByLabel("Username").fill(colleague);
      await expect(page.getByLabel("Give them a one-time link").isChecked()).resolves.toBe(true);
      await page.getByRole("button", { name: "Add admin" }).click();
      await expect.poll(() => page.getByRole("button", { name: "Adding..." }).count(), WAIT).toBe(1);
      release();
      const link = await shownLink(page);
      await page.unroute("**/admin/staff.data**");
      await expect(readText(page.getByRole("region", { name: `${colleague} was added` }))).resolves.toContain(
        "It is shown only now, works once, and expires on",
      );
      // The link is in the page, never in its address; only its hash is stored.
      const token = link.split("/").at(-1) ?? "";
      expect(page.url()).not.toContain(token);
      const stored = await database.db.selectFrom("setPasswordLinks").select("tokenHash").execute();
      expect(stored.map((row) => row.tokenHash)).toContain(hashToken(token));
      expect(JSON.stringify(stored)).not.toContain(token);
      await expect(readText(row(page, colleague))).resolves.toMatch(
        /Awaiting password[\s\S]*Never signed in/,
      );

      // Copy puts the whole link on the clipboard.
      await admin.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
      await page.getByRole("button", { name: "Copy link" }).click();
      await page.getByRole("button", { name: "Copied" }).waitFor(WAIT);
      await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(link);

      // The colleague opens the link in their own browser and chooses a password.
      const mate = await openPage(new URL(link).pathname, { allowConsoleErrors: FAILED_LOAD });
      await expect(mate.page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(
        "Choose your password",
      );
      await expect(mate.page.locator('meta[name="referrer"]').getAttribute("content")).resolves.toBe(
        "same-origin",
      );
      await fillNewPassword(mate.page, "colleague passphrase one", "colleague passphrase 1");
      await mate.page.getByRole("button", { name: "Set password" }).click();
      await mate.page.getByText("The two passwords differ.").waitFor(WAIT);
      await fillNewPassword(mate.page, "colleague passphrase one");
      await mate.page.getByRole("button", { name: "Set password" }).click();
      await mate.page.waitForURL("**/admin/login?password-set=1", WAIT);
      await notice(mate.page, "Your password is set.").waitFor(WAIT);
      await signInWithForm(mate.page, colleague, "colleague passphrase one");
      await mate.page.waitForURL("**/admin/dashboard", WAIT);
      // The link worked once: opened again, it says so.
      const again = await openPage(new URL(link).pathname, { allowConsoleErrors: FAILED_LOAD });
      await again.page.getByText("This link has expired or has already been used.").waitFor(WAIT);
      expect(again.response?.status()).toBe(404);
      await again.close();

      // The admin sees them signed in, and the history says who did what.
      await goto(page, STAFF);
      await expect(readText(row(page, colleague))).resolves.toMatch(/Active[\s\S]*Last signed in /);
      expect((await storedUser(colleague)).lastSignInAt).not.toBeNull();
      const history = await readText(page.getByRole("region", { name: "Recent changes" }));
      for (const line of [
        `${colleague} chose a password with their link`,
        `${ADMIN.username} created a set-password link for ${colleague}`,
        `${ADMIN.username} added ${colleague}`,
      ]) {
        expect(history).toContain(line);
      }

      // Disabling asks first, then ends the colleague's open session at once.
      await row(page, colleague)
        .getByRole("button", { name: `Disable ${colleague}` })
        .click();
      const dialog = page.getByRole("alertdialog", { name: `Disable ${colleague}?` });
      await expect(readText(dialog)).resolves.toContain("is signed out at once, everywhere");
      await dialog.getByRole("button", { name: "Disable account" }).click();
      await notice(page, `${colleague} is disabled`).waitFor(WAIT);
      await expect(readText(row(page, colleague))).resolves.toContain("Disabled");
      expect((await storedUser(colleague)).disabled).toBe(1);

      // The colleague's next click is refused: back to the login page, stale hints cleared, no loop.
      await expect(flags(mate.page)).resolves.toMatchObject({ isAdmin: "true" });
      await mate.page.getByRole("main").getByRole("link", { name: "Website audits" }).click();
      await mate.page.waitForURL("**/admin/login?next=%2Fadmin%2Faudit", WAIT);
      await expect.poll(() => flags(mate.page), WAIT).toEqual({ isAdmin: null, adminUser: null });
      const api = await mate.page.evaluate(async () => (await fetch("/api/admin/leads")).status);
      expect(api).toBe(401);
      await signInWithForm(mate.page, colleague, "colleague passphrase one");
      await mate.page.getByRole("alert").filter({ hasText: "Invalid credentials" }).waitFor(WAIT);

      // Enabled again, the same password works.
      await row(page, colleague)
        .getByRole("button", { name: `Enable ${colleague}` })
        .click();
      await notice(page, `${colleague} is enabled`).waitFor(WAIT);
      const session = await signIn(baseUrl, colleague, "colleague passphrase one");

      // A new password set by the admin signs them out everywhere.
      await row(page, colleague)
        .getByRole("link", { name: `Reset password of ${colleague}` })
        .click();
      const reset = page.getByRole("region", { name: `Reset the password of ${colleague}` });
      await reset.waitFor(WAIT);
      // The browser checks the length itself (minlength); the server checks the confirmation.
      await fillNewPassword(reset, "too short");
      await expect(
        reset.getByLabel(/^New password/).evaluate((input: HTMLInputElement) => input.validity.tooShort),
      ).resolves.toBe(true);
      await fillNewPassword(reset, "colleague passphrase two", "colleague passphrase 2");
      await reset.getByRole("button", { name: "Set password" }).click();
      await reset.getByText("The two passwords differ.").waitFor(WAIT);
      await fillNewPassword(reset, "colleague passphrase two");
      await reset.getByRole("button", { name: "Set password" }).click();
      await notice(page, `The password of ${colleague} was changed`).waitFor(WAIT);
      expect((await fetch(`${baseUrl}/api/user`, { headers: { Cookie: session } })).status).toBe(401);
      await expect(signIn(baseUrl, colleague, "colleague passphrase one")).rejects.toThrow(/401/);
      await signIn(baseUrl, colleague, "colleague passphrase two");

      // Or a reset by link: the old password stops working, the new link sets one.
      await row(page, colleague)
        .getByRole("link", { name: `Reset password of ${colleague}` })
        .click();
      await reset.getByRole("button", { name: "Create a set-password link" }).click();
      const resetLink = await shownLink(page);
      expect(resetLink).not.toBe(link);
      await expect(signIn(baseUrl, colleague, "colleague passphrase two")).rejects.toThrow(/401/);
      await goto(mate.page, new URL(resetLink).pathname);
      await fillNewPassword(mate.page, "colleague passphrase three");
      await mate.page.getByRole("button", { name: "Set password" }).click();
      await mate.page.waitForURL("**/admin/login?password-set=1", WAIT);
      await signIn(baseUrl, colleague, "colleague passphrase three");

      await mate.close();
      await admin.close();
    },
    JOURNEY_MS,
  );

  it(
    "passes axe and fits the screen at 1280 and 375 px, with a reset panel and a link showing",
    async () => {
      const name = newUsername("axe-staff");
      for (const size of [{}, MOBILE]) {
        const { page, close } = await openSignedIn(STAFF, size);
        const fitsWidth = () =>
          page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
        await expectNoA11yViolations(page);
        await expect(fitsWidth()).resolves.toBe(true);
        if (!(await row(page, name).count())) {
          await page.getByLabel("Username").fill(name);
          await page.getByRole("button", { name: "Add admin" }).click();
          await shownLink(page);
          await expectNoA11yViolations(page);
          await expect(fitsWidth()).resolves.toBe(true);
        }
        await row(page, name)
          .getByRole("link", { name: `Reset password of ${name}` })
          .click();
        await page.getByRole("region", { name: `Reset the password of ${name}` }).waitFor(WAIT);
        await expectNoA11yViolations(page);
        await expect(fitsWidth()).resolves.toBe(true);
        await close();
      }
    },
    JOURNEY_MS,
  );

  it("is reached from the dashboard's Staff accounts card", async () => {
    const { page, close } = await openSignedIn("/admin/dashboard");
    await page
      .getByRole("main")
      .getByRole("link", { name: /^Staff accounts/ })
      .click();
    await page.waitForURL(`**${STAFF}`, WAIT);
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent(), WAIT)
      .toBe("Staff accounts");
    await close();
  });
});

describe("staff accounts without JavaScript", () => {
  it(
    "adds with a password, confirms a disable on its own step, enables, resets and shows a link",
    async () => {
      const username = newUsername("nojs-colleague");
      const { page, close } = await openSignedIn(STAFF, { javaScript: false });
      await page.getByLabel("Username").fill(username);
      await page.getByLabel("Set a password now").check();
      await fillNewPassword(page, "nojs passphrase one", "different passphrase");
      await page.getByRole("button", { name: "Add admin" }).click();
      await page.getByText("The two passwords differ.").waitFor(WAIT);
      // The entered name and choice are kept.
      await expect(page.getByLabel("Username").inputValue()).resolves.toBe(username);
      await expect(page.getByLabel("Set a password now").isChecked()).resolves.toBe(true);
      await fillNewPassword(page, "nojs passphrase one");
      await page.getByRole("button", { name: "Add admin" }).click();
      await page.waitForURL(/\/admin\/staff\?notice=created&id=\d+$/, WAIT);
      await notice(page, `${username} was added and can sign in now.`).waitFor(WAIT);
      await signIn(baseUrl, username, "nojs passphrase one");

      await row(page, username)
        .getByRole("link", { name: `Disable ${username}` })
        .click();
      await page.waitForURL(/confirm-disable=\d+/, WAIT);
      await row(page, username).getByRole("button", { name: "Disable account" }).click();
      await page.waitForURL(/notice=disabled/, WAIT);
      await expect(readText(row(page, username))).resolves.toContain("Disabled");
      await expect(signIn(baseUrl, username, "nojs passphrase one")).rejects.toThrow(/401/);

      await row(page, username)
        .getByRole("button", { name: `Enable ${username}` })
        .click();
      await page.waitForURL(/notice=enabled/, WAIT);
      await row(page, username)
        .getByRole("link", { name: `Reset password of ${username}` })
        .click();
      await page.waitForURL(/reset=\d+/, WAIT);
      const reset = page.getByRole("region", { name: `Reset the password of ${username}` });
      await fillNewPassword(reset, "nojs passphrase two");
      await reset.getByRole("button", { name: "Set password" }).click();
      await page.waitForURL(/notice=password/, WAIT);
      await signIn(baseUrl, username, "nojs passphrase two");

      await row(page, username)
        .getByRole("link", { name: `Reset password of ${username}` })
        .click();
      await reset.getByRole("button", { name: "Create a set-password link" }).click();
      const link = await shownLink(page);
      expect(pathOf(page)).toBe(STAFF);
      await close();

      // The set-password page works without JavaScript too.
      const mate = await openPage(new URL(link).pathname, { javaScript: false });
      await fillNewPassword(mate.page, "nojs passphrase three");
      await mate.page.getByRole("button", { name: "Set password" }).click();
      await mate.page.waitForURL("**/admin/login?password-set=1", WAIT);
      await mate.close();
      await signIn(baseUrl, username, "nojs passphrase three");
    },
    JOURNEY_MS,
  );
});

describe("localStorage hints (SPEC sections 3-4)", () => {
  it("are stored after signing in on the login page and on /admin/simple, and cleared by logout", async () => {
    const { page, close } = await openPage("/admin/login");
    await expect(flags(page)).resolves.toEqual({ isAdmin: null, adminUser: null });
    await signInWithForm(page, ADMIN.username, ADMIN.password);
    await page.waitForURL("**/admin/dashboard", WAIT);
    const stored = await flags(page);
    expect(stored.isAdmin).toBe("true");
    expect(JSON.parse(stored.adminUser ?? "null")).toEqual({
      id: expect.any(Number),
      username: ADMIN.username,
      isAdmin: true,
    });
    await openAccountMenu(page);
    await page.getByRole("button", { name: "Logout" }).click();
    await page.waitForURL("**/admin/login", WAIT);
    await expect(flags(page)).resolves.toEqual({ isAdmin: null, adminUser: null });

    await goto(page, "/admin/simple");
    const form = page.locator("form");
    await form.getByLabel("Username").fill(ADMIN.username);
    await form.getByLabel("Password").fill(ADMIN.password);
    await form.getByRole("button", { name: "Login" }).click();
    await page.getByRole("button", { name: "Logout" }).waitFor(WAIT);
    await expect(flags(page)).resolves.toMatchObject({ isAdmin: "true" });
    await page.getByRole("button", { name: "Logout" }).click();
    await page.getByRole("button", { name: "Login" }).waitFor(WAIT);
    await expect(flags(page)).resolves.toEqual({ isAdmin: null, adminUser: null });
    await close();
  });

  it("are written on an admin page after a sign-in without JavaScript set none", async () => {
    const { page, close } = await openSignedIn("/admin/dashboard");
    await expect.poll(() => flags(page), WAIT).toMatchObject({ isAdmin: "true" });
    await close();
  });

  it("send /admin/login to the dashboard; stale ones without a session come back once and are cleared", async () => {
    const { page, close } = await openPage("/admin/login", { allowConsoleErrors: FAILED_LOAD });
    await page.evaluate(() => {
      localStorage.setItem("isAdmin", "true");
      localStorage.setItem("adminUser", JSON.stringify({ id: 1, username: "stale", isAdmin: true }));
    });
    const dashboardRequests: string[] = [];
    page.on("request", (request) => {
      if (new URL(request.url()).pathname.startsWith("/admin/dashboard"))
        dashboardRequests.push(request.url());
    });
    await goto(page, "/admin/login");
    await expect.poll(() => flags(page), WAIT).toEqual({ isAdmin: null, adminUser: null });
    expect(pathOf(page)).toBe("/admin/login?next=%2Fadmin%2Fdashboard");
    // The flag was followed once, the server said no, and it stopped there.
    await page.waitForLoadState("networkidle");
    expect(dashboardRequests).toHaveLength(1);
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe("Admin Login");
    await page.reload();
    await page.waitForLoadState("networkidle");
    expect(dashboardRequests).toHaveLength(1);
    expect(pathOf(page)).toBe("/admin/login?next=%2Fadmin%2Fdashboard");

    // With a real session the login page is never shown: the server goes straight on.
    await page.context().addCookies(
      adminSession.split("; ").map((pair) => {
        const [name = "", ...value] = pair.split("=");
        return { name, value: value.join("="), url: baseUrl };
      }),
    );
    await goto(page, "/admin/login");
    expect(pathOf(page)).toBe("/admin/dashboard");
    await close();
  });
});

// The JSON API's contract, on a server of its own per database: here the test owns every admin, so
// the last-admin rule can be reached.
for (const kind of ["sqlite", "postgres"] as const) {
  describe(`/api/admin/users [${kind}]`, async () => {
    const available = kind === "sqlite" || (await checkPostgres());
    const OWNER = { username: "api-owner", password: "api owner passphrase" };
    let server: RunningServer;
    let drop = async () => {};
    let owner: string;

    beforeAll(async () => {
      if (!available) return;
      let url: string;
      if (kind === "postgres") {
        const schema = await createPostgresSchema();
        url = schema.url;
        drop = schema.drop;
      } else {
        const dir = mkdtempSync(join(tmpdir(), "staff-api-"));
        url = join(dir, "staff.sqlite");
        drop = async () => rmSync(dir, { recursive: true, force: true });
      }
      server = await startServer({
        DATABASE_URL: url,
        LOG_LEVEL: "error",
        ADMIN_USERNAME: OWNER.username,
        ADMIN_PASSWORD: OWNER.password,
      });
      owner = await signIn(server.url, OWNER.username, OWNER.password);
    }, 60_000);
    afterAll(async () => {
      await server?.stop();
      await drop();
    });

    const call = async (method: string, path: string, body?: unknown, cookie = owner) => {
      const response = await fetch(`${server.url}${path}`, {
        method,
        headers: {
          Cookie: cookie,
          Origin: server.url,
          ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    };
    type Listed = { id: number; username: string; disabled: boolean };
    const list = async () => (await call("GET", "/api/admin/users")).body as Listed[];
    const idOf = async (username: string) => (await list()).find((one) => one.username === username)?.id;

    it.skipIf(!available)(
      "creates admins with a password or a one-time link, and refuses bad input",
      async () => {
        const created = await call("POST", "/api/admin/users", {
          username: "Api.Colleague",
          password: "api colleague passphrase",
        });
        expect(created).toEqual({
          status: 201,
          body: {
            id: expect.any(Number),
            username: "Api.Colleague",
            role: "admin",
            isAdmin: true,
            disabled: false,
            passwordSet: true,
            twoFactor: false,
            email: null,
            lastSignInAt: null,
            createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          },
        });
        await signIn(server.url, "api.colleague", "api colleague passphrase");

        const linked = await call("POST", "/api/admin/users", { username: "api-invitee" });
        expect(linked.status).toBe(201);
        expect(linked.body).toMatchObject({ passwordSet: false });
        expect(linked.body.setPasswordUrl).toMatch(
          new RegExp(`^${server.url}/admin/set-password/[A-Za-z0-9_-]{43}$`),
        );
        const hours = (Date.parse(linked.body.setPasswordExpiresAt) - Date.now()) / 3_600_000;
        expect(hours).toBeGreaterThan(71.9);
        expect(hours).toBeLessThanOrEqual(72);
        // The link is a page a person uses; here its form is posted the way a browser would.
        const linkPath = new URL(linked.body.setPasswordUrl).pathname;
        const page = await fetch(`${server.url}${linkPath}`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain("api-invitee");
        const post = (password: string, confirm = password) =>
          fetch(`${server.url}${linkPath}`, {
            method: "POST",
            redirect: "manual",
            headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
            body: new URLSearchParams({ password, confirm }),
          });
        expect((await post("invitee passphrase", "other passphrase")).status).toBe(400);
        const used = await post("invitee passphrase");
        expect(used.status).toBe(302);
        expect(used.headers.get("location")).toBe("/admin/login?password-set=1");
        expect((await post("invitee passphrase")).status).toBe(404);
        await signIn(server.url, "api-invitee", "invitee passphrase");

        for (const [body, field, message] of [
          [{ username: "API.COLLEAGUE", password: "another passphrase" }, "username", /already exists/],
          [{ username: "ab", password: "another passphrase" }, "username", /3 to 64/],
          [{ username: "bad\u0007name", password: "another passphrase" }, "username", /control characters/],
          [{ username: 42 }, "username", /must be text/],
          [{ username: "api-weak", password: "short" }, "password", /at least 12/],
          [{ username: "api-weak", password: 123456789012 }, "password", /must be text/],
        ] as const) {
          const refused = await call("POST", "/api/admin/users", body);
          expect(refused.status, JSON.stringify(body)).toBe(400);
          expect(refused.body.message).toMatch(message);
          expect(refused.body.errors[field]).toMatch(message);
        }
        // By username, case-insensitively ("-" sorts before ".").
        expect((await list()).map((one) => one.username)).toEqual([
          "api-invitee",
          "api-owner",
          "Api.Colleague",
        ]);
        const wrongType = await fetch(`${server.url}/api/admin/users`, {
          method: "POST",
          headers: { Cookie: owner, "Content-Type": "text/plain" },
          body: "username=x",
        });
        expect(wrongType.status).toBe(415);
      },
    );

    it.skipIf(!available)(
      "disables, enables and sets passwords; 404 unknown; 409 for the last enabled admin",
      async () => {
        const colleagueId = await idOf("Api.Colleague");
        const inviteeId = await idOf("api-invitee");
        const ownerId = await idOf(OWNER.username);
        const theirs = await signIn(server.url, "api.colleague", "api colleague passphrase");
        const disabled = await call("PATCH", `/api/admin/users/${colleagueId}`, { disabled: true });
        expect(disabled).toMatchObject({ status: 200, body: { username: "Api.Colleague", disabled: true } });
        expect((await call("GET", "/api/user", undefined, theirs)).status).toBe(401);
        expect((await call("PATCH", `/api/admin/users/${inviteeId}`, { disabled: true })).status).toBe(200);

        // The owner is now the only enabled admin: not even they can disable themselves.
        const last = await call("PATCH", `/api/admin/users/${ownerId}`, { disabled: true });
        expect(last).toEqual({
          status: 409,
          body: {
            message:
              "At least one enabled admin with a password must remain: enable or add another admin first.",
          },
        });
        // Refused as a whole: a password sent with it is not changed either.
        const both = await call("PATCH", `/api/admin/users/${ownerId}`, {
          disabled: true,
          password: "an owner passphrase two",
        });
        expect(both.status).toBe(409);
        await signIn(server.url, OWNER.username, OWNER.password);

        expect(
          (await call("PATCH", `/api/admin/users/${colleagueId}`, { disabled: false })).body,
        ).toMatchObject({
          disabled: false,
        });
        const again = await signIn(server.url, "api.colleague", "api colleague passphrase");
        const reset = await call("PATCH", `/api/admin/users/${colleagueId}`, {
          password: "api colleague new one",
        });
        expect(reset).toMatchObject({ status: 200, body: { passwordSet: true, disabled: false } });
        expect((await call("GET", "/api/user", undefined, again)).status).toBe(401);
        await signIn(server.url, "api.colleague", "api colleague new one");

        // One's own password: this session stays, the others end.
        const other = await signIn(server.url, OWNER.username, OWNER.password);
        expect(
          (await call("PATCH", `/api/admin/users/${ownerId}`, { password: "an owner passphrase two" }))
            .status,
        ).toBe(200);
        expect((await call("GET", "/api/user")).status).toBe(200);
        expect((await call("GET", "/api/user", undefined, other)).status).toBe(401);

        for (const [path, body, status] of [
          ["/api/admin/users/999999", { disabled: true }, 404],
          ["/api/admin/users/abc", { disabled: true }, 404],
          [`/api/admin/users/${colleagueId}`, {}, 400],
          [`/api/admin/users/${colleagueId}`, { disabled: "yes" }, 400],
          [`/api/admin/users/${colleagueId}`, { password: "short" }, 400],
        ] as const) {
          expect((await call("PATCH", path, body)).status, `${path} ${JSON.stringify(body)}`).toBe(status);
        }
        const wrong = await fetch(`${server.url}/api/admin/users/${colleagueId}`, {
          headers: { Cookie: owner },
        });
        expect(wrong.status).toBe(405);
      },
    );
  });
}
