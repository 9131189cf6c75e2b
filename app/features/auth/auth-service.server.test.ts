import { beforeAll, beforeEach, expect, it } from "vitest";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { createAuthService } from "./auth-service.server.ts";
import { hashToken } from "./sessions.server.ts";
import { createUser } from "./users.server.ts";

const SECRET = "test-secret-test-secret-test-secret";
// On a 15-minute boundary, so a refused attempt is told to wait the whole window.
const NOW = new Date("2026-11-21T10:00:00.000Z");
const WINDOW_MS = 15 * 60_000;
const PASSWORD = "the admin's passphrase";

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

describeEachDatabase("auth service", (use) => {
  let address = 0;
  const newClient = () => `203.0.113.${++address}`;
  const service = () =>
    createAuthService({
      db: use().db,
      secret: SECRET,
      policy: { idleMs: 2 * 3_600_000, absoluteMs: 24 * 3_600_000 },
      // The limits services.server.ts configures.
      usernameLimiter: createRateLimiter(use().db, { limit: 5, windowMs: WINDOW_MS }),
      clientLimiter: createRateLimiter(use().db, { limit: 20, windowMs: WINDOW_MS }),
    });

  beforeAll(async () => {
    await createUser(use().db, { username: "Admin", password: PASSWORD, isAdmin: true });
    await createUser(use().db, { username: "staff", password: PASSWORD, isAdmin: false });
  });
  beforeEach(async () => {
    await use().db.deleteFrom("rateLimits").execute();
    await use().db.deleteFrom("sessions").execute();
  });

  it("signs in with the right password (any case of the username) and opens a session", async () => {
    const result = await service().login("ADMIN", PASSWORD, newClient(), NOW);
    expect(result).toEqual({
      kind: "ok",
      user: { id: expect.any(Number), username: "Admin", isAdmin: true },
      token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      maxAgeSeconds: 24 * 3600,
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

  it("takes as long for an unknown user as for a wrong password (no enumeration by timing)", async () => {
    const auth = service();
    const time = async (username: string) => {
      const started = performance.now();
      // A fresh client each time so throttling never cuts an attempt short.
      expect(await auth.login(username, "not the passphrase", newClient(), NOW)).toEqual({ kind: "invalid" });
      return performance.now() - started;
    };
    await time("nobody");
    await time("Admin");
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let round = 0; round < 7; round++) {
      // Alternating, so a slow moment of the machine weighs on both sides.
      unknown.push(await time(`nobody-${round}`));
      wrong.push(await time(round % 2 ? "Admin" : "staff"));
      await use().db.deleteFrom("rateLimits").execute();
    }
    const ratio = median(unknown) / median(wrong);
    expect(
      ratio,
      `unknown ${median(unknown).toFixed(1)} ms, wrong ${median(wrong).toFixed(1)} ms`,
    ).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
    // Both sides really run scrypt: far slower than a database lookup.
    expect(median(unknown)).toBeGreaterThan(10);
  });

  it("throttles a username after 5 failures, even with the right password then, from any client", async () => {
    const auth = service();
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await auth.login("admin", `wrong ${attempt}`, newClient(), NOW)).toEqual({ kind: "invalid" });
    }
    expect(await auth.login("Admin", PASSWORD, newClient(), NOW)).toEqual({
      kind: "throttled",
      retryAfterSeconds: WINDOW_MS / 1000,
    });
    expect(await auth.login(" ADMIN ", PASSWORD, newClient(), new Date(NOW.getTime() + 60_000))).toEqual({
      kind: "throttled",
      retryAfterSeconds: WINDOW_MS / 1000 - 60,
    });
    // Other accounts are not affected...
    expect(await auth.login("staff", PASSWORD, newClient(), NOW)).toMatchObject({ kind: "ok" });
    // ...and the next window starts afresh.
    expect(
      await auth.login("Admin", PASSWORD, newClient(), new Date(NOW.getTime() + WINDOW_MS)),
    ).toMatchObject({
      kind: "ok",
    });
  });

  it("throttles an unknown username the same way (throttling does not reveal who exists)", async () => {
    const auth = service();
    for (let attempt = 1; attempt <= 5; attempt++) await auth.login("ghost", "guess", newClient(), NOW);
    expect(await auth.login("ghost", "guess", newClient(), NOW)).toEqual({
      kind: "throttled",
      retryAfterSeconds: WINDOW_MS / 1000,
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
  });

  it("forgets a username's failures after a successful sign-in", async () => {
    const auth = service();
    for (let attempt = 1; attempt <= 4; attempt++) await auth.login("Admin", "wrong", newClient(), NOW);
    expect(await auth.login("Admin", PASSWORD, newClient(), NOW)).toMatchObject({ kind: "ok" });
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await auth.login("Admin", "wrong", newClient(), NOW)).toEqual({ kind: "invalid" });
    }
    expect(await auth.login("Admin", PASSWORD, newClient(), NOW)).toMatchObject({ kind: "throttled" });
  });

  it("keeps no username or address in clear in the throttling table", async () => {
    await service().login("Admin", "wrong", "198.51.100.77", NOW);
    const keys = (await use().db.selectFrom("rateLimits").select("key").execute()).map((row) => row.key);
    expect(keys).toHaveLength(2);
    expect(keys.join(" ")).not.toMatch(/admin|198\.51/i);
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
