import { beforeAll, beforeEach, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { createAuthService } from "./auth-service.server.ts";
import { createHashingQueue } from "./hashing-queue.server.ts";
import { createLoginThrottle } from "./login-throttle.server.ts";
import { hashToken } from "./sessions.server.ts";
import { createUser } from "./users.server.ts";

const SECRET = "test-secret-test-secret-test-secret";
// Each counter's window starts at its first failure, so a refusal at NOW waits the whole window.
const NOW = new Date("2026-11-21T10:00:00.000Z");
const WINDOW_MS = 15 * 60_000;
const PASSWORD = "the admin's passphrase";

describeEachDatabase("auth service", (use) => {
  let address = 0;
  const newClient = () => `203.0.113.${++address}`;
  const service = ({ hashing = createHashingQueue() } = {}) =>
    createAuthService({
      db: use().db,
      policy: { idleMs: 2 * 3_600_000, absoluteMs: 24 * 3_600_000 },
      // The limits services.server.ts configures (the defaults).
      throttle: createLoginThrottle({ db: use().db, secret: SECRET }),
      secret: SECRET,
      hashing,
    });

  beforeAll(async () => {
    await createUser(use().db, { username: "Admin", password: PASSWORD, isAdmin: true });
    await createUser(use().db, { username: "staff", password: PASSWORD, isAdmin: false });
  });
  beforeEach(async () => {
    await use().db.deleteFrom("loginAttempts").execute();
    await use().db.deleteFrom("sessions").execute();
  });

  it("signs in with the right password (any case of the username) and opens a session", async () => {
    const result = await service().login("ADMIN", PASSWORD, newClient(), NOW);
    expect(result).toEqual({
      kind: "ok",
      user: { id: expect.any(Number), username: "Admin", role: "admin", isAdmin: true },
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      maxAgeSeconds: 24 * 3600,
      device: { token: expect.stringMatching(/^[\w-]{22}\.\d+\.[\w-]{43}$/), maxAgeSeconds: 90 * 24 * 3600 },
    });
    if (result.kind !== "ok") return;
    expect(JSON.stringify(result.user)).not.toMatch(/scrypt|password/i);
    const rows = await use().db.selectFrom("sessions").select(["idHash", "userId"]).execute();
    expect(rows).toEqual([{ idHash: hashToken(result.token), userId: result.user.id }]);
    await expect(service().currentUser(result.token, NOW)).resolves.toEqual(result.user);
    const staff = await service().login("staff", PASSWORD, newClient(), NOW);
    expect(staff).toMatchObject({ kind: "ok", user: { username: "staff", isAdmin: false } });
  });

  it("gives an unknown user and a wrong password the same answer, and opens no session", async () => {
    const auth = service();
    const unknown = await auth.login("nobody", PASSWORD, newClient(), NOW);
    const wrong = await auth.login("Admin", "not the passphrase", newClient(), NOW);
    const empty = await auth.login("", "", newClient(), NOW);
    const huge = await auth.login("Admin", "x".repeat(10_000), newClient(), NOW);
    expect(unknown).toEqual({ kind: "invalid" });
    for (const result of [wrong, empty, huge]) expect(result).toEqual(unknown);
    expect(await use().db.selectFrom("sessions").select("idHash").execute()).toEqual([]);
  });

  it("records sign-ins and failed ones in the access log, never a name that is no account", async () => {
    await use().db.deleteFrom("accessLog").execute();
    const auth = service();
    const firefox = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
    await auth.login("Admin", PASSWORD, "203.0.113.50", NOW, firefox);
    await auth.login("Admin", "not the passphrase", "203.0.113.51", NOW);
    await auth.login("my secret passphrase", PASSWORD, "198.51.100.7", NOW);
    const rows = await use()
      .db.selectFrom("accessLog")
      .select(["action", "actorUsername", "detail", "network"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      {
        action: "sign_in",
        actorUsername: "Admin",
        detail: JSON.stringify({ browser: "Firefox on Windows" }),
        network: "203.0.113.x",
      },
      { action: "sign_in_failed", actorUsername: "Admin", detail: "{}", network: "203.0.113.x" },
      {
        action: "sign_in_failed",
        actorUsername: null,
        detail: JSON.stringify({ account: "unknown" }),
        network: "198.51.100.x",
      },
    ]);
    expect(JSON.stringify(rows)).not.toContain("my secret passphrase");
  });

  it("throttles a username from one address after 5 failures, even with the right password then", async () => {
    const auth = service();
    const client = newClient();
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await auth.login("admin", `wrong ${attempt}`, client, NOW)).toEqual({ kind: "invalid" });
    }
    expect(await auth.login("Admin", PASSWORD, client, NOW)).toEqual({
      kind: "throttled",
      retryAfterSeconds: WINDOW_MS / 1000,
    });
    expect(await auth.login(" ADMIN ", PASSWORD, client, new Date(NOW.getTime() + 60_000))).toEqual({
      kind: "throttled",
      retryAfterSeconds: WINDOW_MS / 1000 - 60,
    });
    // The owner, from their own address, is not locked out by someone else's guesses (point 3)...
    expect(await auth.login("Admin", PASSWORD, newClient(), NOW)).toMatchObject({ kind: "ok" });
    // ...and the guessing address's next window starts afresh.
    expect(await auth.login("Admin", PASSWORD, client, new Date(NOW.getTime() + WINDOW_MS))).toMatchObject({
      kind: "ok",
    });
  });

  it("throttles a client after 20 failures across usernames", async () => {
    const auth = service();
    const client = newClient();
    for (let attempt = 1; attempt <= 20; attempt++) {
      expect(await auth.login(`user-${attempt}`, "guess", client, NOW)).toEqual({ kind: "invalid" });
    }
    expect(await auth.login("Admin", PASSWORD, client, new Date(NOW.getTime() + 1000))).toEqual({
      kind: "throttled",
      retryAfterSeconds: WINDOW_MS / 1000 - 1,
    });
    // The account itself is fine from elsewhere.
    expect(await auth.login("Admin", PASSWORD, newClient(), NOW)).toMatchObject({ kind: "ok" });
  }, 60_000); // 21 real password hashes: a generous bound for a busy two-core machine.

  it("counts an IPv6 client by its /64", async () => {
    const auth = service();
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await auth.login("Admin", "wrong", `2001:db8:1:2::${attempt.toString(16)}`, NOW)).toEqual({
        kind: "invalid",
      });
    }
    expect(await auth.login("Admin", PASSWORD, "2001:db8:1:2:ffff::1", NOW)).toMatchObject({
      kind: "throttled",
    });
    expect(await auth.login("Admin", PASSWORD, "2001:db8:1:3::1", NOW)).toMatchObject({ kind: "ok" });
  });

  it("forgets the user's failures after a successful sign-in", async () => {
    const auth = service();
    const client = newClient();
    for (let attempt = 1; attempt <= 4; attempt++) await auth.login("Admin", "wrong", client, NOW);
    expect(await auth.login("Admin", PASSWORD, client, NOW)).toMatchObject({ kind: "ok" });
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await auth.login("Admin", "wrong", client, NOW)).toEqual({ kind: "invalid" });
    }
    expect(await auth.login("Admin", PASSWORD, client, NOW)).toMatchObject({ kind: "throttled" });
  });

  it("answers busy when the hashing queue is full, counting it against the sending address only", async () => {
    const blocked = createHashingQueue({ maxRunning: 1, maxWaiting: 0, maxTrustedWaiting: 1 });
    let unblock = () => {};
    const holding = blocked.run(() => new Promise<void>((resolve) => (unblock = resolve)));
    const auth = service({ hashing: blocked });
    const flood = newClient();
    // Issue 32 point 2: each busy answer counts on the address's counter (20 per 15 minutes)…
    for (let attempt = 1; attempt <= 20; attempt++) {
      expect(await auth.login(`other-${attempt}`, "wrong", flood, NOW)).toEqual({ kind: "busy" });
    }
    expect(await auth.login("someone", "wrong", flood, NOW)).toEqual({
      kind: "throttled",
      retryAfterSeconds: WINDOW_MS / 1000,
    });
    unblock();
    await holding;
    // …and nowhere else: the account signs in from another address.
    expect(await auth.login("Admin", PASSWORD, newClient(), NOW)).toMatchObject({ kind: "ok" });
    expect(await auth.login("Admin", PASSWORD, flood, NOW)).toMatchObject({ kind: "throttled" });
  });

  it("lets a browser with the account's device cookie hash in a lane the flood cannot fill", async () => {
    const queue = createHashingQueue({ maxRunning: 1, maxWaiting: 1, maxTrustedWaiting: 1 });
    const auth = service({ hashing: queue });
    const first = await auth.login("Admin", PASSWORD, newClient(), NOW);
    if (first.kind !== "ok") throw new Error("sign-in failed");
    let unblock = () => {};
    const holding = queue.run(() => new Promise<void>((resolve) => (unblock = resolve)));
    const waiting = queue.run(async () => {});
    expect(await auth.login("Admin", PASSWORD, newClient(), NOW)).toEqual({ kind: "busy" });
    // Another account's or a forged cookie is no cookie: open lane, busy.
    const forged = `${first.device.token.slice(0, -4)}AAAA`;
    expect(await auth.login("Admin", PASSWORD, newClient(), NOW, null, forged)).toEqual({ kind: "busy" });
    expect(await auth.login("staff", PASSWORD, newClient(), NOW, null, first.device.token)).toEqual({
      kind: "busy",
    });
    const owner = auth.login("Admin", PASSWORD, newClient(), NOW, null, first.device.token);
    await new Promise((resolve) => setTimeout(resolve, 20));
    unblock();
    await Promise.all([holding, waiting]);
    expect(await owner).toMatchObject({ kind: "ok", user: { username: "Admin" } });
  });

  it("keeps no username or address in clear in the throttling table", async () => {
    await service().login("Admin", "wrong", "198.51.100.77", NOW);
    const rows = await use().db.selectFrom("loginAttempts").select(["key", "failures"]).execute();
    expect(rows).toHaveLength(3);
    expect(rows.map((row) => Number(row.failures))).toEqual([1, 1, 1]);
    expect(rows.map((row) => row.key).join(" ")).not.toMatch(/admin|198\.51/i);
  });

  it("signs out: the session is deleted and no longer recognised", async () => {
    const auth = service();
    const result = await auth.login("Admin", PASSWORD, newClient(), NOW);
    if (result.kind !== "ok") throw new Error("sign-in failed");
    await auth.logout(result.token);
    await auth.logout(undefined);
    await expect(auth.currentUser(result.token, NOW)).resolves.toBeNull();
    await expect(auth.currentUser(undefined, NOW)).resolves.toBeNull();
    expect(await use().db.selectFrom("sessions").select("idHash").execute()).toEqual([]);
  });
});
