import { hash } from "node:crypto";
import { VISITOR_ID_LENGTH } from "./daily-salt.server.ts";
import { MAX_VALUES_PER_DAY, OTHER_VALUE } from "./rollup.server.ts";
import { MAX_VIEWS_PER_ADDRESS_PER_DAY, MAX_VISITORS_PER_ADDRESS } from "./view-limits.ts";

// What one client can add to the analytics in a day (issue 22). A visitor id hashes the address
// with the User-Agent, so one address changing only its User-Agent made a new visitor, and a row,
// per request. Per instance and per UTC day, in memory, keyed by a hash of the address with the
// day's salt (never the address itself):
//
// - an address (an IPv6 address by its /64) brings at most MAX_VISITORS_PER_ADDRESS visitor ids:
//   its first browsers each their own, any more share the last one;
// - its views are stored at ADDRESS_VIEWS_PER_MINUTE (in bursts of up to ADDRESS_BURST) and at most
//   MAX_VIEWS_PER_ADDRESS_PER_DAY; views beyond are counted (stats) and not stored;
// - of 404 paths, the day's first NOT_FOUND_PATHS_ON_FIRST_SIGHT are stored as asked, then only paths
//   asked for a second time, up to MAX_VALUES_PER_DAY; any other 404 is stored as OTHER_VALUE.
//
// N instances allow at most N times these. Checking costs one more hash and a few map operations.

// The two limits the privacy policy states live in view-limits.ts (the page cannot import this file).
export { MAX_VIEWS_PER_ADDRESS_PER_DAY, MAX_VISITORS_PER_ADDRESS };
/** Views of one address stored per minute, on average... */
export const ADDRESS_VIEWS_PER_MINUTE = 60;
/** ...and at once, after a quiet spell (a token bucket this deep). */
export const ADDRESS_BURST = 60;
/**
 * Addresses remembered per instance: two generations of half this each; when the newer is full the
 * older is forgotten (those addresses start afresh), and an address seen again moves to the newer.
 */
export const MAX_TRACKED_ADDRESSES = 20_000;
/** 404 paths a day stores as asked the first time they are asked for (per instance)... */
export const NOT_FOUND_PATHS_ON_FIRST_SIGHT = 100;
/** ...paths asked for once and remembered for a second time (cleared when full). */
const MAX_NOT_FOUND_CANDIDATES = 1_000;

/**
 * What identifies an address for the limits: an IPv4 address (an IPv4-mapped IPv6 one included) as
 * it is, an IPv6 address by its first 64 bits (one household or phone rotates the rest), anything
 * else as it is. Only ever hashed (addressKey).
 */
export function addressPrefix(address: string): string {
  if (!address.includes(":")) return address;
  let text = address.toLowerCase();
  const zone = text.indexOf("%");
  if (zone !== -1) text = text.slice(0, zone);
  if (text.startsWith("::ffff:") && text.includes(".")) return text.slice(7);
  const halves = text.split("::");
  if (halves.length > 2) return text;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  // An embedded dotted IPv4 address (last) stands for two groups; none of them are in the /64.
  const tailGroups = tail.length + (tail.at(-1)?.includes(".") ? 1 : 0);
  const zeros = halves.length === 2 ? Math.max(0, 8 - head.length - tailGroups) : 0;
  const groups = [...head, ...Array<string>(zeros).fill("0"), ...tail].slice(0, 4);
  if (groups.length < 4) return text;
  const prefix: string[] = [];
  for (const group of groups) {
    const value = Number.parseInt(group, 16);
    if (!/^[0-9a-f]{1,4}$/.test(group) || Number.isNaN(value)) return text;
    prefix.push(value.toString(16));
  }
  return `${prefix.join(":")}::/64`;
}

/**
 * The address's key for the day: 48 bits of a hash with the day's salt, so no address is kept in
 * memory (a number: cheaper to keep and look up than a string; two of 20,000 addresses share one
 * about once in a million days).
 */
export function addressKey(salt: string, address: string): number {
  // Hex then parseInt: half the cost of a Buffer digest read as a number.
  return Number.parseInt(hash("sha256", `${salt}\naddress\n${addressPrefix(address)}`).slice(0, 12), 16);
}

/** The visitor id the address's browsers beyond the limit share (a hash of the key, not of an address). */
export function sharedVisitorId(salt: string, key: number): string {
  return hash("sha256", `${salt}\nshared\n${key}`).slice(0, VISITOR_ID_LENGTH);
}

type AddressEntry = {
  /**
   * The first 32 bits of each visitor id this address brought (enough to tell one address's apart):
   * the first here (-1 before it), the others in `more` (most addresses bring one: no array).
   */
  first: number;
  more: number[] | undefined;
  shared: string | undefined;
  tokens: number;
  refilledAt: number;
  views: number;
};

export type ViewLimitStats = {
  /** Views not stored: over their address's rate or its daily number. */
  limited: number;
  /** Views stored under their address's shared visitor id. */
  shared: number;
  /** 404 views stored as OTHER_VALUE instead of their path. */
  foldedNotFound: number;
  trackedAddresses: number;
};

export type ViewLimits = {
  /**
   * The visitor id to store a view under (its own, or its address's shared one), or undefined when
   * the view is over its address's rate and is not stored. `sharedId` makes the shared id when needed.
   */
  admit(day: string, key: number, visitor: string, atMs: number, sharedId: () => string): string | undefined;
  /** The path to store for a stored 404 view: the path, or OTHER_VALUE past the day's kept paths. */
  notFoundPath(day: string, path: string): string;
  stats(): ViewLimitStats;
};

export type ViewLimitOptions = {
  maxVisitors?: number;
  viewsPerMinute?: number;
  burst?: number;
  maxViewsPerDay?: number;
  maxAddresses?: number;
  maxNotFoundPaths?: number;
  notFoundOnFirstSight?: number;
};

export function createViewLimits({
  maxVisitors = MAX_VISITORS_PER_ADDRESS,
  viewsPerMinute = ADDRESS_VIEWS_PER_MINUTE,
  burst = ADDRESS_BURST,
  maxViewsPerDay = MAX_VIEWS_PER_ADDRESS_PER_DAY,
  maxAddresses = MAX_TRACKED_ADDRESSES,
  maxNotFoundPaths = MAX_VALUES_PER_DAY,
  notFoundOnFirstSight = NOT_FOUND_PATHS_ON_FIRST_SIGHT,
}: ViewLimitOptions = {}): ViewLimits {
  const tokensPerMs = viewsPerMinute / 60_000;
  let currentDay = "";
  // Two generations rather than a strict LRU: deleting from the front of one large Map leaves holes
  // V8 skips on every `keys().next()`, which cost ~80 µs a view once 20,000 addresses were known.
  const generation = Math.max(1, Math.floor(maxAddresses / 2));
  let addresses = new Map<number, AddressEntry>();
  let older = new Map<number, AddressEntry>();
  let keptNotFound = new Set<string>();
  let candidates = new Set<string>();
  const stats = { limited: 0, shared: 0, foldedNotFound: 0 };

  /** False for a view of a day already over (a late one): it is not limited. */
  function onDay(day: string): boolean {
    if (day === currentDay) return true;
    if (day < currentDay) return false;
    currentDay = day;
    addresses = new Map();
    older = new Map();
    keptNotFound = new Set();
    candidates = new Set();
    return true;
  }

  return {
    admit(day, key, visitor, atMs, sharedId) {
      if (!onDay(day)) return visitor;
      let entry = addresses.get(key);
      if (entry === undefined) {
        entry = older.get(key) ?? {
          first: -1,
          more: undefined,
          shared: undefined,
          tokens: burst,
          refilledAt: atMs,
          views: 0,
        };
        if (addresses.size >= generation) {
          older = addresses;
          addresses = new Map();
        }
        addresses.set(key, entry);
      }
      const elapsed = atMs - entry.refilledAt;
      if (elapsed > 0) {
        entry.tokens = Math.min(burst, entry.tokens + elapsed * tokensPerMs);
        entry.refilledAt = atMs;
      }
      if (entry.tokens < 1 || entry.views >= maxViewsPerDay) {
        stats.limited++;
        return undefined;
      }
      entry.tokens -= 1;
      entry.views++;
      const short = Number.parseInt(visitor.slice(0, 8), 16);
      if (entry.first === short || entry.more?.includes(short)) return visitor;
      if (entry.first === -1) {
        entry.first = short;
        return visitor;
      }
      if (1 + (entry.more?.length ?? 0) < maxVisitors - 1) {
        if (entry.more) entry.more.push(short);
        else entry.more = [short];
        return visitor;
      }
      stats.shared++;
      entry.shared ??= sharedId();
      return entry.shared;
    },
    notFoundPath(day, path) {
      if (!onDay(day) || keptNotFound.has(path)) return path;
      if (
        keptNotFound.size < notFoundOnFirstSight ||
        (keptNotFound.size < maxNotFoundPaths && candidates.has(path))
      ) {
        keptNotFound.add(path);
        candidates.delete(path);
        return path;
      }
      if (keptNotFound.size < maxNotFoundPaths) {
        if (candidates.size >= MAX_NOT_FOUND_CANDIDATES) candidates.clear();
        candidates.add(path);
      }
      stats.foldedNotFound++;
      return OTHER_VALUE;
    },
    stats: () => {
      let tracked = addresses.size;
      for (const key of older.keys()) if (!addresses.has(key)) tracked++;
      return { ...stats, trackedAddresses: tracked };
    },
  };
}
