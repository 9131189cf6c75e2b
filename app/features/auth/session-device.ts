import { isIPv4, isIPv6 } from "node:net";
import Bowser from "bowser";

// What a session keeps of the device that opened it, to be recognised in the sessions list: the
// browser and system by name, and the client address masked to its network. Never the raw
// User-Agent (a near-unique string) nor the full address (personal data under UK GDPR).

const MAX_USER_AGENT_LENGTH = 512;

/** "Firefox on Windows", "Safari on iOS", or "Unknown browser". */
export function describeBrowser(userAgent: string | null | undefined): string {
  const header = (userAgent ?? "").slice(0, MAX_USER_AGENT_LENGTH).trim();
  if (!header) return "Unknown browser";
  const parsed = Bowser.parse(header);
  const browser = parsed.browser.name?.slice(0, 40);
  const system = parsed.os.name?.slice(0, 40);
  if (!browser) return system ? `Unknown browser on ${system}` : "Unknown browser";
  return system ? `${browser} on ${system}` : browser;
}

/**
 * The network of an address: IPv4 to its /24 ("203.0.113.x"), IPv6 to its /48 ("2001:db8:1::/48"),
 * IPv4 mapped into IPv6 as IPv4. Anything else (a unix socket, nothing) is "unknown".
 */
export function maskAddress(address: string | null | undefined): string {
  const value = (address ?? "").trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(value)?.[1];
  const v4 = mapped ?? value;
  if (isIPv4(v4)) return `${v4.split(".").slice(0, 3).join(".")}.x`;
  if (isIPv6(value)) {
    const groups = expandIPv6(value)
      .slice(0, 3)
      .map((group) => group.replace(/^0+(?=.)/, ""));
    return `${groups.join(":")}::/48`;
  }
  return "unknown";
}

/** The eight groups of an IPv6 address, `::` expanded (a zone id and an embedded IPv4 dropped). */
function expandIPv6(address: string): string[] {
  const plain = address.split("%")[0] ?? "";
  const [head = "", tail] = plain.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  return [...headGroups, ...Array.from({ length: Math.max(0, missing) }, () => "0"), ...tailGroups];
}
