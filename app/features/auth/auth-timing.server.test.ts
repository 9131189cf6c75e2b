import { beforeAll, expect, it, vi } from "vitest";

// At scrypt's production cost, as a production server hashes (password.server.ts): the other auth
// tests use the test cost, at which a database lookup weighs as much as a hash and timing says nothing.
vi.hoisted(() => {
  process.env.PASSWORD_HASH_COST = "production";
});

import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { createAuthService } from "./auth-service.server.ts";
import { createHashingQueue } from "./hashing-queue.server.ts";
import { createLoginThrottle } from "./login-throttle.server.ts";
import { createUser } from "./users.server.ts";

const SECRET = "test-secret-test-secret-test-secret";
const NOW = new Date("2026-11-21T10:00:00.000Z");

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

describeEachDatabase("auth service timing", (use) => {
  let address = 0;
  const newClient = () => `203.0.113.${++address}`;

  beforeAll(async () => {
    await createUser(use().db, { username: "Admin", password: "the admin's passphrase", isAdmin: true });
    await createUser(use().db, { username: "staff", password: "the admin's passphrase", isAdmin: false });
  });

  it("takes as long for an unknown user as for a wrong password (no enumeration by timing)", async () => {
    const auth = createAuthService({
      db: use().db,
      policy: { idleMs: 2 * 3_600_000, absoluteMs: 24 * 3_600_000 },
      throttle: createLoginThrottle({ db: use().db, secret: SECRET }),
      secret: SECRET,
      hashing: createHashingQueue(),
    });
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
      await use().db.deleteFrom("loginAttempts").execute();
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
});
