import { describe, expect, it } from "vitest";
import { OTHER_VALUE } from "./rollup.server.ts";
import {
  ADDRESS_BURST,
  addressKey,
  addressPrefix,
  createViewLimits,
  MAX_VIEWS_PER_ADDRESS_PER_DAY,
  MAX_VISITORS_PER_ADDRESS,
  NOT_FOUND_PATHS_ON_FIRST_SIGHT,
  sharedVisitorId,
} from "./view-limits.server.ts";

const DAY = "2026-11-27";
const SALT = "a".repeat(64);
const KEY = addressKey(SALT, "203.0.113.7");
const START = Date.parse(`${DAY}T10:00:00Z`);
/** A visitor id as the writer makes them: 32 hex characters, a new one for every `n`. */
const visitor = (n: number) => n.toString(16).padStart(8, "0").repeat(4);
const shared = () => sharedVisitorId(SALT, KEY);

describe("addressPrefix", () => {
  it("keeps an IPv4 address, and an IPv4-mapped one as IPv4", () => {
    expect(addressPrefix("203.0.113.7")).toBe("203.0.113.7");
    expect(addressPrefix("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("takes an IPv6 address by its /64, however it is written", () => {
    const prefix = "2001:db8:abcd:12::/64";
    for (const address of [
      "2001:db8:abcd:12::1",
      "2001:0db8:abcd:0012:aaaa:bbbb:cccc:dddd",
      "2001:DB8:ABCD:12:1:2:3:4",
      "2001:db8:abcd:12::5%eth0",
      "2001:db8:abcd:12:0:0:1.2.3.4",
    ])
      expect(addressPrefix(address), address).toBe(prefix);
    expect(addressPrefix("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressPrefix("::1")).toBe("0:0:0:0::/64");
    expect(addressPrefix("2001:db8:abcd:13::1")).not.toBe(prefix);
  });

  it("leaves anything that is not an address as it is", () => {
    expect(addressPrefix("unknown")).toBe("unknown");
    expect(addressPrefix("1::2::3")).toBe("1::2::3");
    expect(addressPrefix("zz:1:2:3:4:5:6:7")).toBe("zz:1:2:3:4:5:6:7");
  });
});

describe("addressKey", () => {
  it("is one key per /64 and day's salt, and holds no address", () => {
    const key = addressKey(SALT, "2001:db8:abcd:12::1");
    expect(addressKey(SALT, "2001:db8:abcd:12:ffff::2")).toBe(key);
    expect(addressKey("b".repeat(64), "2001:db8:abcd:12::1")).not.toBe(key);
    expect(addressKey(SALT, "2001:db8:abcd:13::1")).not.toBe(key);
    expect(String(key)).not.toContain("2001");
    expect(Number.isSafeInteger(key)).toBe(true);
  });
});

describe("view limits of one address", () => {
  it(`gives its first ${MAX_VISITORS_PER_ADDRESS - 1} visitors their own id and the rest one shared id`, () => {
    const limits = createViewLimits();
    const ids = new Set<string>();
    // A minute apart: never over the rate.
    for (let n = 0; n < 100; n++)
      ids.add(limits.admit(DAY, KEY, visitor(n), START + n * 60_000, shared) ?? "");
    expect(ids.size).toBe(MAX_VISITORS_PER_ADDRESS);
    expect(ids.has(shared())).toBe(true);
    // A visitor who already has an id keeps it.
    expect(limits.admit(DAY, KEY, visitor(3), START + 101 * 60_000, shared)).toBe(visitor(3));
    expect(limits.admit(DAY, KEY, visitor(500), START + 102 * 60_000, shared)).toBe(shared());
    // Another address has its own allowance.
    const other = addressKey(SALT, "203.0.113.8");
    expect(limits.admit(DAY, other, visitor(500), START + 103 * 60_000, shared)).toBe(visitor(500));
    expect(limits.stats()).toMatchObject({ limited: 0, shared: 100 - (MAX_VISITORS_PER_ADDRESS - 1) + 1 });
  });

  it(`stores a burst of ${ADDRESS_BURST} views, then one a second`, () => {
    const limits = createViewLimits();
    const admitted = (at: number) => limits.admit(DAY, KEY, visitor(1), at, shared) !== undefined;
    let stored = 0;
    for (let i = 0; i < 1000; i++) if (admitted(START)) stored++;
    expect(stored).toBe(ADDRESS_BURST);
    expect(admitted(START + 500)).toBe(false);
    expect(admitted(START + 1000)).toBe(true);
    expect(admitted(START + 1000)).toBe(false);
    // A quiet minute refills the burst, no more.
    stored = 0;
    for (let i = 0; i < 1000; i++) if (admitted(START + 3_600_000)) stored++;
    expect(stored).toBe(ADDRESS_BURST);
    expect(limits.stats().limited).toBe(2003 - 2 * ADDRESS_BURST - 1);
  });

  it(`stores at most ${MAX_VIEWS_PER_ADDRESS_PER_DAY} of its views a day, and starts afresh the next day`, () => {
    const limits = createViewLimits();
    let stored = 0;
    // One a second, within the rate all day.
    for (let i = 0; i < 5000; i++) if (limits.admit(DAY, KEY, visitor(1), START + i * 1000, shared)) stored++;
    expect(stored).toBe(MAX_VIEWS_PER_ADDRESS_PER_DAY);
    expect(limits.admit("2026-11-28", KEY, visitor(1), START + 86_400_000, shared)).toBe(visitor(1));
    // A late view of the day before is not limited (nor does it bring the old day back).
    expect(limits.admit(DAY, KEY, visitor(1), START + 86_400_001, shared)).toBe(visitor(1));
    expect(limits.stats().trackedAddresses).toBe(1);
  });

  it("remembers a bounded number of addresses, forgetting those not seen for longest", () => {
    // Two generations of two: an address seen in either is remembered (and moves to the newer).
    const limits = createViewLimits({ maxAddresses: 4, burst: 1, viewsPerMinute: 0 });
    const keys = ["a", "b", "c", "d"].map((letter) => addressKey(SALT, `198.51.100.${letter.charCodeAt(0)}`));
    const [a, b, c, d] = keys as [number, number, number, number];
    const admit = (key: number) => limits.admit(DAY, key, visitor(1), START, shared);
    for (const key of [a, b, c]) expect(admit(key)).toBeDefined();
    // `a` is remembered (over its rate) and moves to the newer generation; `b` is not seen again.
    expect(admit(a)).toBeUndefined();
    expect(admit(d)).toBeDefined();
    expect(admit(b)).toBeDefined();
    expect(admit(a)).toBeUndefined();
    // `c` was in the older generation when `a` left it for a full newer one: forgotten, afresh.
    expect(admit(c)).toBeDefined();
    expect(limits.stats().trackedAddresses).toBe(4);
  });
});

describe("404 paths of a day", () => {
  it(`keeps the first ${NOT_FOUND_PATHS_ON_FIRST_SIGHT} as asked, then only paths asked for twice, up to 200`, () => {
    const limits = createViewLimits();
    for (let i = 0; i < NOT_FOUND_PATHS_ON_FIRST_SIGHT; i++)
      expect(limits.notFoundPath(DAY, `/first-${i}`)).toBe(`/first-${i}`);
    // A scanner's paths, each asked for once: counted, stored as (other).
    for (let i = 0; i < 5000; i++) expect(limits.notFoundPath(DAY, `/scan-${i}`)).toBe(OTHER_VALUE);
    // A broken link asked for again is kept from its second view on; kept paths stay kept.
    expect(limits.notFoundPath(DAY, "/old-link")).toBe(OTHER_VALUE);
    expect(limits.notFoundPath(DAY, "/old-link")).toBe("/old-link");
    expect(limits.notFoundPath(DAY, "/first-7")).toBe("/first-7");
    for (let i = 0; i < 300; i++) {
      limits.notFoundPath(DAY, `/twice-${i}`);
      limits.notFoundPath(DAY, `/twice-${i}`);
    }
    const kept = new Set<string>();
    for (let i = 0; i < 300; i++) kept.add(limits.notFoundPath(DAY, `/twice-${i}`));
    kept.delete(OTHER_VALUE);
    expect(kept.size).toBe(200 - NOT_FOUND_PATHS_ON_FIRST_SIGHT - 1);
    expect(limits.stats().foldedNotFound).toBeGreaterThan(5000);
    // The next day starts afresh.
    expect(limits.notFoundPath("2026-11-28", "/scan-1")).toBe("/scan-1");
  });
});
