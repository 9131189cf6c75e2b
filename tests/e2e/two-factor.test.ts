import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { loadAppSecret } from "../../app/db/app-secret.server.ts";
import { type AppDatabase, openDatabase } from "../../app/db/database.server.ts";
import { totpCode, twoFactorKeys } from "../../app/features/auth/two-factor.server.ts";
import { confirmEnrolment, enrolmentSecret } from "../../app/features/auth/two-factor-store.server.ts";
import { createUser } from "../../app/features/auth/users.server.ts";
import { type RunningServer, startServer } from "../../scripts/lib/server-process.ts";
import { signIn } from "./support/accounts.ts";
import { baseUrl, expectNoA11yViolations, MOBILE, openPage, setupBrowser } from "./support/browser.ts";
import { openSignedIn, readText } from "./support/pages.ts";

// Issue 13, two-factor sign-in, as people and clients meet it: enrolling on the account page, the
// second step at /admin/login with JavaScript (and the localStorage hints only after it), in the
// simple viewer, and without
// (a recovery code, at phone width), an admin's reset on the staff page; the API's answers and
// cookies; and, on a server with STAFF_2FA_REQUIRED, enrolling right after the password through the
// API and the operator's `admin:reset-2fa`. Codes are computed here from the secret the page shows.

setupBrowser();

const ADMIN = { username: inject("adminUsername"), password: inject("adminPassword") };
const RUN = Date.now().toString(36);
const WAIT = { timeout: 20_000 };
const JOURNEY_MS = 150_000;
const STEP_MS = 30_000;
const FAILED_LOAD = [/Failed to load resource/];
const PERSON = { username: `two-factor-${RUN}`, password: "two factor journey passphrase" };
const API_PERSON = { username: `two-factor-api-${RUN}`, password: "two factor api passphrase" };

let database: AppDatabase;
let secret = "";
let recoveryCodes: string[] = [];

beforeAll(async () => {
  database = openDatabase(inject("databaseUrl"), { poolSize: 1 });
  await createUser(database.db, { ...PERSON, isAdmin: true });
  await createUser(database.db, { ...API_PERSON, isAdmin: true });
});

afterAll(async () => {
  if (!database) return;
  await database.db
    .deleteFrom("users")
    .where("username", "in", [PERSON.username, API_PERSON.username])
    .execute();
  await database.close();
});

/** A code the app would show `steps` steps from now (the server accepts one step either way). */
const codeIn = (steps: number) => totpCode(secret, Date.now() + steps * STEP_MS);
const localFlag = (page: Page) => page.evaluate(() => localStorage.getItem("isAdmin"));

it(
  "enrols on the account page, then signs in with a code: the admin hints only after the second step",
  async () => {
    const session = await signIn(baseUrl, PERSON.username, PERSON.password);
    const account = await openSignedIn("/admin/account", { allowConsoleErrors: FAILED_LOAD }, session);
    const { page } = account;
    const section = page.getByRole("region", { name: "Two-factor sign-in" });
    await section.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    await section.getByTestId("two-factor-qr").locator("svg").waitFor(WAIT);
    secret = (await readText(section.getByTestId("two-factor-secret"))).replace(/\s/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expectNoA11yViolations(page);
    // A wrong code leaves it off.
    const wrong = codeIn(0) === "000000" ? "111111" : "000000";
    await section.getByLabel("Code from the app").fill(wrong);
    await section.getByLabel("Your password").fill(PERSON.password);
    await section.getByRole("button", { name: "Turn on" }).click();
    await section.getByText("Invalid code: enter the code your app shows now.").waitFor(WAIT);
    // A session alone is not enough: the right code with a wrong password leaves it off too.
    await section.getByLabel("Code from the app").fill(codeIn(0));
    await section.getByLabel("Your password").fill("not my password at all");
    await section.getByRole("button", { name: "Turn on" }).click();
    await section.getByText("That is not your password.").waitFor(WAIT);
    const enrolCode = codeIn(0);
    const enrolStep = Math.floor(Date.now() / STEP_MS);
    await section.getByLabel("Code from the app").fill(enrolCode);
    await section.getByLabel("Your password").fill(PERSON.password);
    await section.getByRole("button", { name: "Turn on" }).click();
    const codes = section.getByTestId("recovery-codes").getByRole("listitem");
    await codes.first().waitFor(WAIT);
    recoveryCodes = await codes.allInnerTexts();
    expect(recoveryCodes).toHaveLength(10);
    await expect(readText(section)).resolves.toContain("Two-factor sign-in is on.");
    await account.close();

    // Signing in: the password alone leads to the second step, not into the back office.
    // A just-used code is answered 401, which Chromium reports as a console error.
    const login = await openPage("/admin/login", { allowConsoleErrors: FAILED_LOAD });
    await login.page.getByLabel("Username").fill(PERSON.username);
    await login.page.getByLabel("Password").fill(PERSON.password);
    await login.page.getByRole("button", { name: "Login" }).click();
    await login.page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor(WAIT);
    expect(await localFlag(login.page)).toBeNull();
    expect((await login.context.cookies()).map((cookie) => cookie.name)).toEqual(["pending_login"]);
    await expectNoA11yViolations(login.page);
    // The enrolment used this step's code: it is refused as just used (issue 22 point 5)…
    // (Only while it is still within the accepted window: on a slow machine a step may have passed.)
    if (Math.floor(Date.now() / STEP_MS) <= enrolStep + 1 && enrolCode !== codeIn(1)) {
      await login.page.getByLabel("Code").fill(enrolCode);
      await login.page.getByRole("button", { name: "Verify" }).click();
      await login.page
        .getByText("That code has just been used. Please wait for the next code from your app.")
        .waitFor(WAIT);
    }
    // …and the next step's is the one still unused.
    await login.page.getByLabel("Code").fill(codeIn(1));
    await login.page.getByRole("button", { name: "Verify" }).click();
    await login.page.waitForURL("**/admin/dashboard", WAIT);
    expect(await localFlag(login.page)).toBe("true");
    const cookies = (await login.context.cookies()).map((cookie) => cookie.name).sort();
    expect(cookies).toEqual(["admin_hint", "device", "session"]);
    // The device cookie (issue 22 point 1): out of scripts' reach, sent only by this site's forms.
    expect((await login.context.cookies()).find((cookie) => cookie.name === "device")).toMatchObject({
      httpOnly: true,
      sameSite: "Strict",
      path: "/",
      value: expect.stringMatching(/^[\w-]{22}\.\d+\.[\w-]{43}$/),
    });
    await login.close();

    // The simple viewer asks for the second step too (a recovery code: this step's app code is spent).
    const simple = await openPage("/admin/simple");
    await simple.page.getByLabel("Username").fill(PERSON.username);
    await simple.page.getByLabel("Password").fill(PERSON.password);
    await simple.page.getByRole("button", { name: "Login" }).click();
    await simple.page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor(WAIT);
    expect(await localFlag(simple.page)).toBeNull();
    await simple.page.getByLabel("Code").fill(recoveryCodes[1] ?? "");
    await simple.page.getByRole("button", { name: "Verify" }).click();
    await simple.page.getByText(`Signed in as ${PERSON.username}`).waitFor(WAIT);
    expect(await localFlag(simple.page)).toBe("true");
    await simple.close();
  },
  JOURNEY_MS,
);

it(
  "takes the second step without JavaScript at phone width with a recovery code, and an admin resets it",
  async () => {
    const plain = await openPage("/admin/login", { javaScript: false, ...MOBILE });
    const { page } = plain;
    await page.getByLabel("Username").fill(PERSON.username);
    await page.getByLabel("Password").fill(PERSON.password);
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("heading", { name: "Two-factor sign-in" }).waitFor(WAIT);
    const pending = (await plain.context.cookies()).find((cookie) => cookie.name === "pending_login");
    expect(pending).toMatchObject({ httpOnly: true, sameSite: "Strict", path: "/" });
    expect((pending?.expires ?? 0) - Date.now() / 1000).toBeLessThanOrEqual(300);
    // Typed loosely, a recovery code still counts, once (the simple viewer used another).
    await page.getByLabel("Code").fill(` ${(recoveryCodes[0] ?? "").toLowerCase()} `);
    await page.getByRole("button", { name: "Verify" }).click();
    await page.waitForURL("**/admin/dashboard", WAIT);
    await page.goto(new URL("/admin/account", baseUrl).href);
    await expect(readText(page.getByRole("region", { name: "Two-factor sign-in" }))).resolves.toContain(
      "8 of 10 recovery codes left.",
    );
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(overflow).toBeLessThanOrEqual(MOBILE.width);
    await plain.close();

    // The phone is lost: an admin resets it from the staff page, and the history says who did.
    const adminSession = await signIn(baseUrl, ADMIN.username, ADMIN.password);
    const staff = await openSignedIn("/admin/staff", { allowConsoleErrors: FAILED_LOAD }, adminSession);
    const row = staff.page.getByRole("listitem").filter({ hasText: PERSON.username });
    await expect(readText(row)).resolves.toContain("Two-factor on");
    await row.getByRole("button", { name: `Reset two-factor of ${PERSON.username}` }).click();
    await staff.page
      .getByRole("status")
      .filter({ hasText: `Two-factor sign-in for ${PERSON.username} is reset` })
      .waitFor(WAIT);
    await expect(readText(staff.page.getByRole("region", { name: "Recent changes" }))).resolves.toContain(
      `${ADMIN.username} reset two-factor sign-in for ${PERSON.username}`,
    );
    await staff.close();
    // The password alone signs in again (the setting is off on this server).
    await signIn(baseUrl, PERSON.username, PERSON.password);
  },
  JOURNEY_MS,
);

describe("the API's second step", () => {
  let apiSecret = "";
  beforeAll(async () => {
    const keys = twoFactorKeys(await loadAppSecret(database.db, undefined));
    const user = await database.db
      .selectFrom("users")
      .select("id")
      .where("username", "=", API_PERSON.username)
      .executeTakeFirstOrThrow();
    const account = { id: Number(user.id), username: API_PERSON.username };
    apiSecret = await enrolmentSecret(database.db, keys, account.id);
    // Confirmed with the previous step's code, so this step's and the next are still unused.
    const confirmed = await confirmEnrolment(
      database.db,
      keys,
      account,
      totpCode(apiSecret, Date.now() - STEP_MS),
    );
    expect(confirmed?.recoveryCodes).toHaveLength(10);
  });

  const post = (path: string, body: unknown, cookie?: string) =>
    fetch(`${baseUrl}${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) },
      body: JSON.stringify(body),
    });

  it("answers the password with 200, no session and a 5-minute pending cookie; the code with the session", async () => {
    const first = await post("/api/login", API_PERSON);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ twoFactorRequired: true, username: API_PERSON.username });
    const [pendingCookie, ...others] = first.headers.getSetCookie();
    expect(others).toEqual([]);
    expect(pendingCookie).toMatch(
      /^pending_login=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=300; SameSite=Strict; HttpOnly$/,
    );
    const pending = pendingCookie?.split(";")[0] ?? "";
    // The pending cookie is no session.
    expect((await fetch(`${baseUrl}/api/user`, { headers: { Cookie: pending } })).status).toBe(401);
    expect((await fetch(`${baseUrl}/api/admin/leads`, { headers: { Cookie: pending } })).status).toBe(401);

    const wrongCode = totpCode(apiSecret, Date.now()) === "000000" ? "111111" : "000000";
    const wrong = await post("/api/login/2fa", { code: wrongCode }, pending);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: "Invalid code" });
    expect(wrong.headers.getSetCookie()).toEqual([]);
    const malformed = await post("/api/login/2fa", { code: "x".repeat(100) }, pending);
    expect(malformed.status).toBe(400);

    const right = await post("/api/login/2fa", { code: totpCode(apiSecret, Date.now() + STEP_MS) }, pending);
    expect(right.status).toBe(200);
    const user = (await right.json()) as { id: number; username: string; isAdmin: boolean };
    expect(user).toEqual({
      id: expect.any(Number),
      username: API_PERSON.username,
      role: "admin",
      isAdmin: true,
    });
    const set = right.headers.getSetCookie();
    expect(set[0]).toBe("pending_login=; Path=/; Max-Age=0; SameSite=Strict; HttpOnly");
    expect(set[1]).toMatch(/^session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=\d+; SameSite=Lax; HttpOnly$/);
    const session = set[1]?.split(";")[0] ?? "";
    expect(await (await fetch(`${baseUrl}/api/user`, { headers: { Cookie: session } })).json()).toEqual(user);

    // Used once: the same pending cookie now only says to start again.
    const again = await post("/api/login/2fa", { code: totpCode(apiSecret, Date.now()) }, pending);
    expect(again.status).toBe(401);
    expect(await again.json()).toEqual({
      message: "Your sign-in has expired. Please enter your username and password again.",
      signInAgain: true,
    });
  });
});

describe("with STAFF_2FA_REQUIRED, behind a TLS proxy [sqlite]", () => {
  let dir: string;
  let server: RunningServer;
  let databaseUrl: string;
  const BOSS = { username: "required-boss", password: "required boss passphrase" };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "two-factor-required-"));
    databaseUrl = join(dir, "required.sqlite");
    server = await startServer({
      DATABASE_URL: databaseUrl,
      STAFF_2FA_REQUIRED: "true",
      TRUST_PROXY: "1",
      LOG_LEVEL: "error",
      ADMIN_USERNAME: BOSS.username,
      ADMIN_PASSWORD: BOSS.password,
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const origin = () => server.url.replace("http://", "https://");
  const post = (path: string, body: unknown, cookie?: string, client?: string) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-Forwarded-Proto": "https",
        Origin: origin(),
        ...(cookie ? { Cookie: cookie } : {}),
        ...(client ? { "X-Forwarded-For": client } : {}),
      },
      body: JSON.stringify(body),
    });

  /** `npm run admin:<command> -- <name>` against this server's database while it runs. */
  const adminCommand = (command: "reset-2fa" | "setup-link", username: string) =>
    new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const child = spawn(process.execPath, ["scripts/admin-user.ts", command, username], {
        env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" },
        stdio: ["ignore", "pipe", "inherit"],
      });
      let stdout = "";
      child.stdout.on("data", (chunk) => (stdout += chunk));
      child.on("error", reject);
      child.on("close", (code) => resolve({ code, stdout }));
    });
  const resetCommand = (username: string) => adminCommand("reset-2fa", username);

  /**
   * Issue 22 point 3: the password alone is refused with what to do; the command line's set-up link,
   * used in a browser (its form posted here as one would), starts the set-up there. The new secret.
   */
  async function enrolThroughLink(): Promise<string> {
    const refused = await post("/api/login", BOSS);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({
      message:
        "Two-factor sign-in must be set up for this account first. Ask an administrator for a set-up link.",
    });
    expect(refused.headers.getSetCookie()).toEqual([]);
    const issued = await adminCommand("setup-link", BOSS.username);
    expect(issued.code).toBe(0);
    const linkPath = /\/admin\/set-password\/[A-Za-z0-9_-]{43}/.exec(issued.stdout)?.[0] ?? "";
    expect(linkPath).not.toBe("");
    const used = await fetch(`${server.url}${linkPath}`, {
      method: "POST",
      redirect: "manual",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "X-Forwarded-Proto": "https",
        Origin: origin(),
      },
      body: new URLSearchParams({ password: BOSS.password, confirm: BOSS.password }),
    });
    expect(used.status).toBe(302);
    expect(used.headers.get("location")).toBe("/admin/login");
    const [cookie] = used.headers.getSetCookie();
    expect(cookie).toMatch(
      /^__Host-pending_login=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=300; SameSite=Strict; Secure; HttpOnly$/,
    );
    const pending = cookie?.split(";")[0] ?? "";
    const page = await fetch(`${server.url}/admin/login`, {
      headers: { "X-Forwarded-Proto": "https", Cookie: pending },
    });
    const html = await page.text();
    const newSecret = /secret=([A-Z2-7]{32})/.exec(html)?.[1] ?? "";
    expect(newSecret).toMatch(/^[A-Z2-7]{32}$/);
    const done = await post("/api/login/2fa", { code: totpCode(newSecret, Date.now()) }, pending);
    expect(done.status).toBe(200);
    const user = (await done.json()) as { username: string; recoveryCodes: string[] };
    expect(user).toMatchObject({ username: BOSS.username, isAdmin: true });
    expect(user.recoveryCodes).toHaveLength(10);
    expect(done.headers.getSetCookie()[1]).toMatch(/^__Host-session=[A-Za-z0-9_-]{43}; .*Secure; HttpOnly$/);
    return newSecret;
  }

  it(
    "sets up only through a set-up link, then always asks for a code; the reset command starts it over",
    async () => {
      const secretNow = await enrolThroughLink();
      const next = await post("/api/login", BOSS);
      expect(await next.json()).toEqual({ twoFactorRequired: true, username: BOSS.username });

      // Someone with the password but not the phone: five wrong codes end the pending login (issue
      // 22 point 2), and they counted like wrong passwords, so the password again is refused.
      const guesser = "203.0.113.66";
      const started = await post("/api/login", BOSS, undefined, guesser);
      const pending = started.headers.getSetCookie()[0]?.split(";")[0];
      const right = totpCode(secretNow, Date.now() + STEP_MS);
      const wrongCodes = ["000000", "111111", "222222", "333333", "444444", "555555"].filter(
        (code) => code !== right && code !== totpCode(secretNow, Date.now()),
      );
      for (const code of wrongCodes.slice(0, 4))
        expect((await post("/api/login/2fa", { code }, pending, guesser)).status).toBe(401);
      const fifth = await post("/api/login/2fa", { code: wrongCodes[4] }, pending, guesser);
      expect(fifth.status).toBe(401);
      expect(await fifth.json()).toEqual({
        message: "Too many wrong codes. Please enter your username and password again.",
        signInAgain: true,
      });
      const gone = await post("/api/login/2fa", { code: right }, pending, guesser);
      expect(gone.status).toBe(401);
      expect(await gone.json()).toMatchObject({ signInAgain: true });
      const throttled = await post("/api/login", BOSS, undefined, guesser);
      expect(throttled.status).toBe(429);
      expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await throttled.json()).toEqual({
        message: expect.stringMatching(/^Too many login attempts\. Please try again in \d+ minutes?\.$/),
      });

      // The phone is lost and no other admin exists: the operator's command on the server.
      const reset = await resetCommand(BOSS.username);
      expect(reset).toEqual({
        code: 0,
        stdout: expect.stringContaining(`Reset two-factor sign-in for "${BOSS.username}"`),
      });
      const again = await enrolThroughLink();
      expect(again).toMatch(/^[A-Z2-7]{32}$/);
      const events = openDatabase(databaseUrl, { poolSize: 1 });
      try {
        const log = await events.db
          .selectFrom("accessLog")
          .select(["action", "actorUsername"])
          .where("action", "in", ["two_factor_enabled", "staff_two_factor_reset"])
          .orderBy("id")
          .execute();
        expect(log).toEqual([
          { action: "two_factor_enabled", actorUsername: BOSS.username },
          { action: "staff_two_factor_reset", actorUsername: "command line" },
          { action: "two_factor_enabled", actorUsername: BOSS.username },
        ]);
      } finally {
        await events.close();
      }
    },
    JOURNEY_MS,
  );
});
