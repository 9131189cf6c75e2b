import Bowser from "bowser";
import { isbot } from "isbot";

// What a page view keeps of the User-Agent: whether it is a bot (then nothing is counted), a device
// class and a browser family from short fixed lists, so the reports group them and no rare string
// helps single anyone out. Bot detection is `isbot` (Unlicense), device and browser `bowser` (MIT;
// ua-parser-js 2 would do as well but is AGPL). Both are regular-expression work of 5-30 µs a call:
// results are cached per User-Agent string, which repeats from request to request.

export type DeviceClass = "desktop" | "mobile" | "tablet" | "other";

export type UserAgentInfo = { bot: boolean; device: DeviceClass; browser: string };

/** Longer User-Agents are cut here before they are parsed or hashed (no real browser sends more). */
export const MAX_USER_AGENT_LENGTH = 512;
const CACHE_SIZE = 1000;

// Bowser's names, most specific first: Edge and Samsung Internet also announce themselves as Chrome.
const BROWSER_FAMILIES: [needle: string, family: string][] = [
  ["edge", "Edge"],
  ["samsung", "Samsung Internet"],
  ["opera", "Opera"],
  ["firefox", "Firefox"],
  ["chrom", "Chrome"],
  ["safari", "Safari"],
];

const cache = new Map<string, UserAgentInfo>();

function parse(userAgent: string): UserAgentInfo {
  if (userAgent.trim() === "" || isbot(userAgent)) return { bot: true, device: "other", browser: "Other" };
  const parsed = Bowser.parse(userAgent);
  const type = parsed.platform.type;
  if (type === "bot") return { bot: true, device: "other", browser: "Other" };
  const device: DeviceClass = type === "desktop" || type === "mobile" || type === "tablet" ? type : "other";
  const name = (parsed.browser.name ?? "").toLowerCase();
  const family = BROWSER_FAMILIES.find(([needle]) => name.includes(needle))?.[1] ?? "Other";
  return { bot: false, device, browser: family };
}

/** Bot, device class and browser family of a User-Agent header; a missing one counts as a bot. */
export function describeUserAgent(header: string | undefined): UserAgentInfo {
  if (header === undefined) return { bot: true, device: "other", browser: "Other" };
  const userAgent = header.slice(0, MAX_USER_AGENT_LENGTH);
  let info = cache.get(userAgent);
  if (!info) {
    info = parse(userAgent);
    // Bounded memory whatever a client sends: start again when full (real traffic has few distinct values).
    if (cache.size >= CACHE_SIZE) cache.clear();
    cache.set(userAgent, info);
  }
  return info;
}
