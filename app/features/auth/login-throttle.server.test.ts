import { beforeEach, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../../../tests/support/databases.ts";
import { addressBucket, createLoginThrottle, LOGIN_WINDOW_MS } from "./login-throttle.server.ts";

const SECRET = "throttle-test-secret-throttle-test";
const NOW = Date.parse("2026-11-21T10:00:00.000Z");

describe("addressBucket", () => {
  it("counts IPv6 addresses by their /64 and IPv4 ones (also IPv4-mapped) as they are", () => {
    expect(addressBucket("2001:db8:1:2::5")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:0db8:0001:0002:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
    expect(addressBucket("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressBucket("::ffff:198.51.100.7")).toBe("198.51.100.7");
    expect(addressBucket("198.51.100.7")).toBe("198.51.100.7");
    expect(addressBucket("unknown")).toBe("unknown");
  });
});

describeEachDatabase("login throttle", (use) => {
  const throttle = () => createLoginThrottle({ db: use().db, secret: SECRET });
  beforeEach(async () => {
    await use().db.deleteFrom("loginAttempts").execute();
  });

  it("grants exactly 5 of 50 concurrent reservations for one username and address (no race)", async () => {
    const limiter = throttle();
    const decisions = await Promise.all(
      Array.from({ length: 50 }, () => limiter.reserve("admin", "203.0.113.5", NOW)),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(5);
    // The refused 45 counted nothing: each counter holds exactly the 5 granted.
    const rows = await use().db.selectFrom("loginAttempts").select("failures").execute();
    expect(rows.map((row) => Number(row.failures))).toEqual([5, 5, 5]);
  });

  it("grants exactly 20 of 60 concurrent reservations from one address across usernames", async () => {
    const limiter = throttle();
    const decisions = await Promise.all(
      Array.from({ length: 60 }, (_, n) => limiter.reserve(`user-${n}`, "203.0.113.6", NOW)),
    );
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(20);
  });

  it("allows 100 failures per username alone, then refuses until its window ends", async () => {
    const limiter = throttle();
    for (let n = 0; n < 100; n++) {
      const decision = await limiter.reserve("Admin", `198.51.${n >> 8}.${n & 255}`, NOW);
      if (!decision.allowed) throw new Error(`attempt ${n + 1} refused`);
      decision.reservation.failed();
    }
    expect(await limiter.reserve(" ADMIN ", "192.0.2.1", NOW + 1000)).toEqual({
      allowed: false,
      retryAfterSeconds: LOGIN_WINDOW_MS / 1000 - 1,
    });
    expect((await limiter.reserve("admin", "192.0.2.1", NOW + LOGIN_WINDOW_MS)).allowed).toBe(true);
  });

  it("lets a trusted device in while strangers hold the username's counter full (issue 22 point 1)", async () => {
    const limiter = throttle();
    // 100 wrong passwords from 100 networks: every untrusted client is refused for 15 minutes…
    for (let n = 0; n < 100; n++) {
      const decision = await limiter.reserve("admin", `2001:db8:${n.toString(16)}::1`, NOW);
      if (!decision.allowed) throw new Error(`attempt ${n + 1} refused`);
      decision.reservation.failed();
    }
    expect((await limiter.reserve("admin", "192.0.2.1", NOW + 1000)).allowed).toBe(false);
    // …but the owner's browser, from an address as busy as any, is judged on its own counter.
    const owner = await limiter.reserve("admin", "2001:db8:1::1", NOW + 1000, "owner-device");
    expect(owner).toMatchObject({ allowed: true, trusted: true });
    if (owner.allowed) await owner.reservation.succeeded();
    // Its success does not hand the botnet a fresh 100: the username stays refused to strangers.
    expect((await limiter.reserve("admin", "192.0.2.2", NOW + 2000)).allowed).toBe(false);
  });

  it("trusts a device for 5 failures in all, then judges it like any client (a stolen cookie)", async () => {
    const limiter = throttle();
    for (let n = 0; n < 5; n++) {
      const decision = await limiter.reserve("admin", `198.51.100.${n}`, NOW + n * LOGIN_WINDOW_MS, "stolen");
      expect(decision).toMatchObject({ allowed: true, trusted: true });
      if (decision.allowed) decision.reservation.failed();
    }
    // Days later its failures still stand: it is an untrusted client now, on the usual counters.
    const later = NOW + 3 * 24 * 3_600_000;
    const spent = await limiter.reserve("admin", "198.51.100.9", later, "stolen");
    expect(spent).toMatchObject({ allowed: true, trusted: false });
    // A device a sign-in vouched for starts afresh; another device is unaffected throughout.
    expect(await limiter.reserve("admin", "198.51.100.9", later, "another")).toMatchObject({ trusted: true });
  });

  it("gives a released reservation back, so only verified failures count", async () => {
    const limiter = throttle();
    for (let n = 0; n < 20; n++) {
      const decision = await limiter.reserve("admin", "203.0.113.7", NOW);
      if (!decision.allowed) throw new Error(`attempt ${n + 1} refused`);
      await decision.reservation.release();
    }
    const rows = await use().db.selectFrom("loginAttempts").select("failures").execute();
    expect(rows.map((row) => Number(row.failures))).toEqual([0, 0, 0]);
  });

  it("settles many concurrent reservations of one user and address without a deadlock", async () => {
    const limiter = createLoginThrottle({
      db: use().db,
      secret: SECRET,
      limits: { userAddress: 1000, address: 1000, user: 1000 },
    });
    const settle = async (n: number) => {
      const decision = await limiter.reserve("admin", "203.0.113.9", NOW);
      if (!decision.allowed) throw new Error("refused");
      // Releases, successes and failures interleaved with the next reservations.
      if (n % 3 === 0) await decision.reservation.release();
      else if (n % 3 === 1) await decision.reservation.succeeded();
      else decision.reservation.failed();
    };
    await Promise.all(Array.from({ length: 60 }, (_, n) => settle(n)));
    await limiter.prune(NOW + LOGIN_WINDOW_MS);
    expect(await use().db.selectFrom("loginAttempts").select("key").execute()).toEqual([]);
  }, 30_000);

  it("prunes counters whose window has ended", async () => {
    const limiter = throttle();
    const decision = await limiter.reserve("admin", "203.0.113.8", NOW);
    if (decision.allowed) decision.reservation.failed();
    await limiter.prune(NOW + LOGIN_WINDOW_MS - 1);
    expect(await use().db.selectFrom("loginAttempts").select("key").execute()).toHaveLength(3);
    await limiter.prune(NOW + LOGIN_WINDOW_MS);
    expect(await use().db.selectFrom("loginAttempts").select("key").execute()).toEqual([]);
  });
});
