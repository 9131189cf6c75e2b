import { BlockList, isIP } from "node:net";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { cloudMetadataMatch, expandIpv6 } from "./cloud-metadata.server.ts";

// Which URLs and addresses the server may reach when staff choose the URL (issue 5, "Safe
// fetching"): the website audits and the outgoing webhooks fetch whatever URL a staff member types,
// from inside our network. Without these checks they would be a way to read cloud metadata, admin
// panels on localhost or anything else only the server can reach (server-side request forgery).
// safe-connect.server.ts checks every resolved address and then connects to that very address, so
// DNS cannot answer differently the second time. The wording of refusals is the caller's (each tool
// names its own switch for private targets). Cloud metadata targets are the one exception to the
// switches: cloud-metadata.server.ts holds their list, and they are refused whatever they say.

export const MAX_URL_LENGTH = 2_000;

/**
 * Why an address is not a public one; `range` is the CIDR block it fell in. `metadata` marks a cloud
 * metadata address, which no switch allows.
 */
export type AddressVerdict =
  | { blocked: false }
  | { blocked: true; kind: string; range: string; metadata?: boolean };

export type TargetUrlResult = { ok: true; url: URL } | { ok: false; error: string; details: string };

/**
 * `true` lets every address through (an intranet deployment, tests); a function decides per address
 * (a test server on 127.0.0.1 allowed while a redirect to 10.0.0.1 is still refused).
 */
export type AllowPrivate = boolean | ((address: string) => boolean);

type Rule = { cidr: string; kind: string };

// Order matters only for the name in the message: the first matching rule is reported, so the
// specific ranges come before the broad ones that contain them. Cloud metadata addresses are not
// here: they are checked first, always, from their own list (cloud-metadata.server.ts).
const IPV4_RULES: Rule[] = [
  { cidr: "0.0.0.0/8", kind: 'unspecified ("this network") address' },
  { cidr: "10.0.0.0/8", kind: "private address" },
  { cidr: "100.64.0.0/10", kind: "carrier-grade NAT (shared) address" },
  { cidr: "127.0.0.0/8", kind: "loopback address" },
  { cidr: "169.254.0.0/16", kind: "link-local address" },
  { cidr: "172.16.0.0/12", kind: "private address" },
  { cidr: "192.0.0.0/24", kind: "IETF protocol assignment address" },
  { cidr: "192.0.2.0/24", kind: "documentation address" },
  { cidr: "192.168.0.0/16", kind: "private address" },
  { cidr: "198.18.0.0/15", kind: "benchmarking address" },
  { cidr: "198.51.100.0/24", kind: "documentation address" },
  { cidr: "203.0.113.0/24", kind: "documentation address" },
  { cidr: "224.0.0.0/4", kind: "multicast address" },
  { cidr: "255.255.255.255/32", kind: "broadcast address" },
  { cidr: "240.0.0.0/4", kind: "reserved address" },
];

const IPV6_RULES: Rule[] = [
  { cidr: "::/128", kind: "unspecified address" },
  { cidr: "::1/128", kind: "loopback address" },
  // Mapped addresses reach IPv4 hosts through an IPv6 socket; refused whatever the IPv4 part is, as
  // a public site has no reason to publish one in DNS.
  { cidr: "::ffff:0:0/96", kind: "IPv4-mapped IPv6 address" },
  // Deprecated IPv4-compatible form (::a.b.c.d); some stacks still route it to the IPv4 host.
  { cidr: "::/96", kind: "IPv4-compatible IPv6 address" },
  { cidr: "fc00::/7", kind: "unique-local address" },
  { cidr: "fe80::/10", kind: "link-local address" },
  { cidr: "ff00::/8", kind: "multicast address" },
  { cidr: "2001:db8::/32", kind: "documentation address" },
  // Transition ranges that carry an IPv4 address (or reach one through a local gateway): a NAT64
  // local-use prefix, 6to4, Teredo, SIIT-translated; plus old site-local and the discard prefix.
  { cidr: "64:ff9b:1::/48", kind: "local-use NAT64 address" },
  { cidr: "2002::/16", kind: "6to4 address" },
  { cidr: "2001::/32", kind: "Teredo address" },
  { cidr: "::ffff:0:0:0/96", kind: "IPv4-translated IPv6 address" },
  { cidr: "fec0::/10", kind: "site-local address" },
  { cidr: "100::/64", kind: "discard-only address" },
];

type CompiledRule = Rule & { list: BlockList };

function compile(rules: Rule[], family: "ipv4" | "ipv6"): CompiledRule[] {
  return rules.map((rule) => {
    const [network = "", prefix = ""] = rule.cidr.split("/");
    const list = new BlockList();
    list.addSubnet(network, Number(prefix), family);
    return { ...rule, list };
  });
}

const IPV4 = compile(IPV4_RULES, "ipv4");
const IPV6 = compile(IPV6_RULES, "ipv6");
const NAT64 = compile([{ cidr: "64:ff9b::/96", kind: "NAT64" }], "ipv6")[0];

/** Strips URL brackets and an IPv6 zone id (fe80::1%eth0), which BlockList does not understand. */
function bareAddress(address: string): string {
  const unbracketed = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address;
  const zone = unbracketed.indexOf("%");
  return zone === -1 ? unbracketed : unbracketed.slice(0, zone);
}

/** The last 32 bits of an IPv6 address as dotted IPv4 (for the NAT64 prefix, which embeds one). */
function embeddedIpv4(ipv6: string): string | null {
  const groups = expandIpv6(ipv6);
  if (!groups) return null;
  const high = groups[6] ?? 0;
  const low = groups[7] ?? 0;
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/** Whether an IP address is one the audits must not reach, and why. Non-IP text is blocked. */
export function classifyAddress(address: string): AddressVerdict {
  const bare = bareAddress(address);
  const family = isIP(bare);
  // The metadata list first (it looks inside mapped, NAT64 and other IPv6 forms of IPv4 too).
  const metadata = family ? cloudMetadataMatch(bare) : null;
  if (metadata)
    return { blocked: true, kind: "cloud metadata address", range: metadata.range ?? "-", metadata: true };
  if (family === 4) {
    const rule = IPV4.find((candidate) => candidate.list.check(bare, "ipv4"));
    return rule ? { blocked: true, kind: rule.kind, range: rule.cidr } : { blocked: false };
  }
  if (family === 6) {
    const rule = IPV6.find((candidate) => candidate.list.check(bare, "ipv6"));
    if (rule) return { blocked: true, kind: rule.kind, range: rule.cidr };
    // NAT64 translates to the IPv4 address in the last 32 bits: as safe as that address.
    if (NAT64?.list.check(bare, "ipv6")) {
      const inner = embeddedIpv4(bare);
      const verdict = inner ? classifyAddress(inner) : { blocked: true as const, kind: "", range: "" };
      if (verdict.blocked) {
        return {
          blocked: true,
          kind: `NAT64 address of a ${verdict.kind || "blocked address"}`,
          range: "64:ff9b::/96",
        };
      }
    }
    return { blocked: false };
  }
  return { blocked: true, kind: "not an IP address", range: "-" };
}

export function isAllowedPrivate(address: string, allowPrivate: AllowPrivate | undefined): boolean {
  if (typeof allowPrivate === "function") return allowPrivate(bareAddress(address));
  return allowPrivate === true;
}

/** How a tool words its refusals: the verb for a refused scheme, and how to allow private targets. */
export type TargetPolicyText = {
  /** "audited" → "Refused: file URLs are not audited; only http and https." */
  schemeVerb: string;
  /** The sentence after a refused address, naming the tool's switch. */
  howToAllow: string;
  /** The tool's switch itself, named in a cloud metadata refusal as one it does not lift. */
  privateSwitch?: string;
};

const GENERIC_TEXT: TargetPolicyText = { schemeVerb: "supported", howToAllow: "" };

/**
 * The refusal sentence for a blocked address, e.g. "Refused: 10.0.0.5 is a private address
 * (10.0.0.0/8). …". With `hostname` (a name, not an IP literal) it names the kind of address the
 * name resolved to, so a public-looking name pointing inward is explained, but not the address
 * itself: the tool must not become a way to read the internal DNS.
 */
export function refusalMessage(
  address: string,
  verdict: { kind: string; range: string },
  hostname?: string,
  howToAllow: string = GENERIC_TEXT.howToAllow,
) {
  const bare = bareAddress(address);
  // "an IPv4-mapped…", "a unique-local…"
  const article = /^(?!uni)[aeiou]/i.test(verdict.kind) ? "an" : "a";
  const what = `${article} ${verdict.kind} (${verdict.range})`;
  const subject =
    hostname && bareAddress(hostname) !== bare ? `${hostname} resolves to ${what}` : `${bare} is ${what}`;
  return howToAllow ? `Refused: ${subject}. ${howToAllow}` : `Refused: ${subject}.`;
}

/**
 * Parses and checks a URL typed by staff: http or https only, no user:password@ part (it would be
 * sent to the target and stored with the result), at most 2,000 characters. A bare host name
 * ("example.com/page") gets https://. The fragment is dropped: it never reaches the server.
 * NOTE: WHATWG URL parsing turns decimal, octal and hex IPv4 spellings (http://2130706433/,
 * http://0x7f.1/) into dotted form, so the address check sees 127.0.0.1 whatever the spelling.
 */
export function parseTargetUrl(input: string, wording: TargetPolicyText = GENERIC_TEXT): TargetUrlResult {
  const text = input.trim();
  if (!text) return { ok: false, error: "Invalid URL", details: "Enter the address of a website." };
  if (text.length > MAX_URL_LENGTH) {
    return {
      ok: false,
      error: "Invalid URL",
      details: `The URL is longer than ${MAX_URL_LENGTH} characters.`,
    };
  }
  // The URL parser silently drops tabs and line breaks and keeps other controls percent-encoded:
  // an address with them is not what the user meant to type.
  if (breaksTextRule(text, "one-line")) {
    return { ok: false, error: "Invalid URL", details: "The address contains control characters." };
  }
  const withScheme = /^[a-z][a-z\d+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { ok: false, error: "Invalid URL", details: `"${text}" is not a valid web address.` };
  }
  return checkTargetUrl(url, wording);
}

/** The checks of parseTargetUrl for an already parsed URL (redirect targets). */
export function checkTargetUrl(url: URL, wording: TargetPolicyText = GENERIC_TEXT): TargetUrlResult {
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return {
      ok: false,
      error: "Refused",
      details: `Refused: ${url.protocol.slice(0, -1)} URLs are not ${wording.schemeVerb}; only http and https.`,
    };
  }
  if (url.username || url.password) {
    return {
      ok: false,
      error: "Refused",
      details: "Refused: the URL contains a user name or password; remove the part before @.",
    };
  }
  if (!url.hostname) return { ok: false, error: "Invalid URL", details: "The URL has no host name." };
  if (url.href.length > MAX_URL_LENGTH) {
    return {
      ok: false,
      error: "Invalid URL",
      details: `The URL is longer than ${MAX_URL_LENGTH} characters.`,
    };
  }
  const clean = new URL(url.href);
  clean.hash = "";
  return { ok: true, url: clean };
}

/** The host of a URL without IPv6 brackets, as sockets and DNS want it. */
export function urlHost(url: URL): string {
  return bareAddress(url.hostname);
}
