import { isIPv4, isIPv6 } from "node:net";

// A client address as staff may see it (the sessions list, the access log): its network only. The
// full address is personal data under UK GDPR and is never stored; the network is enough to tell
// "the office" from "somewhere else".

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
