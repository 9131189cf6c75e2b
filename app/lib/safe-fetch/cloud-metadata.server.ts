import { BlockList, isIP } from "node:net";

// The one list of cloud metadata targets, and the one test against it, for every outbound request
// the server makes (audits, performance and TLS checks, the lab's browser, watches, webhooks, the
// HSTS preload download; ADR 006). A metadata service hands out the machine's credentials to
// whatever asks from inside it, and no website, receiver or list lives there, so these targets are
// refused ALWAYS: AUDIT_ALLOW_PRIVATE_TARGETS and WEBHOOK_ALLOW_PRIVATE_TARGETS let private ranges
// through for intranet deployments, never these. safe-connect.server.ts applies the test to the
// URL's host, to every address a name resolves to, to every redirect hop, and once more right
// before each TCP connection.

/** Names that reach a metadata service, compared after lowercasing and dropping trailing dots. */
const METADATA_NAMES: ReadonlyMap<string, string> = new Map([
  ["metadata.google.internal", "Google Cloud's metadata server"],
  ["metadata.goog", "Google Cloud's metadata server"],
  ["metadata", "the short name of Google Cloud's metadata server"],
  ["metadata.azure.internal", "Azure's metadata service"],
  ["instance-data", "the EC2 instance metadata service"],
  ["instance-data.ec2.internal", "the EC2 instance metadata service"],
  ["metadata.tencentyun.com", "Tencent Cloud's metadata service"],
  ["metadata.platformequinix.com", "Equinix Metal's metadata service"],
]);

type Rule = { cidr: string; what: string };

// The first matching rule names the service; the specific addresses come before the ranges.
const V4_RULES: Rule[] = [
  { cidr: "169.254.169.254/32", what: "the AWS, Google Cloud, Azure, Oracle and OpenStack metadata service" },
  { cidr: "169.254.170.2/32", what: "the Amazon ECS task metadata service" },
  { cidr: "169.254.170.23/32", what: "the Amazon EKS pod identity agent" },
  { cidr: "169.254.169.253/32", what: "the Amazon VPC DNS resolver" },
  // No website lives on a link-local address; every cloud puts its services there.
  { cidr: "169.254.0.0/16", what: "link-local, where cloud metadata services live" },
  { cidr: "100.100.100.200/32", what: "the Alibaba Cloud metadata service" },
  { cidr: "192.0.0.192/32", what: "the Oracle Cloud metadata service" },
  { cidr: "168.63.129.16/32", what: "the Azure wire server" },
];
const V6_RULES: Rule[] = [
  { cidr: "fd00:ec2::254/128", what: "the AWS instance metadata service over IPv6" },
  { cidr: "fd00:ec2::/32", what: "AWS's internal services (DNS, metadata, pod identity)" },
  { cidr: "fd20:ce::254/128", what: "Google Cloud's metadata server over IPv6" },
  { cidr: "fd00:c1::a9fe:a9fe/128", what: "the Oracle Cloud metadata service over IPv6" },
  { cidr: "fd00:42::42/128", what: "the Scaleway metadata service over IPv6" },
  { cidr: "fd00:a9fe:a9fe::1/128", what: "the Akamai (Linode) metadata service over IPv6" },
  { cidr: "fd00:100::100:200/128", what: "the Alibaba Cloud metadata service over IPv6" },
  { cidr: "fe80::/10", what: "link-local, where cloud metadata services live" },
];

type Compiled = Rule & { list: BlockList; family: "ipv4" | "ipv6" };
function compile(rules: Rule[], family: "ipv4" | "ipv6"): Compiled[] {
  return rules.map((rule) => {
    const [network = "", prefix = ""] = rule.cidr.split("/");
    const list = new BlockList();
    list.addSubnet(network, Number(prefix), family);
    return { ...rule, list, family };
  });
}
const V4 = compile(V4_RULES, "ipv4");
const V6 = compile(V6_RULES, "ipv6");

/** Why a host is a metadata target: `normal` is its canonical form (dotted IPv4, lowercase name). */
export type MetadataMatch = { normal: string; what: string; range: string | null };

/** Lowercase, without URL brackets, an IPv6 zone id or trailing dots. */
function bare(host: string): string {
  let text = host.trim().toLowerCase();
  if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
  const zone = text.indexOf("%");
  if (zone !== -1 && text.includes(":")) text = text.slice(0, zone);
  return text.replace(/\.+$/, "");
}

/**
 * The dotted IPv4 address an inet_aton spelling stands for (2852039166, 0xa9fea9fe, 0251.0376.0251.0376,
 * 169.254.43518, 0xa9.254.169.254…), as the URL parser and C libraries read them; null otherwise.
 */
export function ipv4FromAnySpelling(text: string): string | null {
  const parts = text.split(".");
  if (parts.length === 0 || parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : Number.parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = Number.parseInt(part.slice(1), 8);
    else if (/^(0|[1-9]\d*)$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isSafeInteger(value)) return null;
    numbers.push(value);
  }
  const last = numbers.pop() as number;
  if (numbers.some((value) => value > 255)) return null;
  if (last >= 256 ** (4 - numbers.length)) return null;
  let whole = last;
  numbers.forEach((value, index) => {
    whole += value * 256 ** (3 - index);
  });
  return [whole >>> 24, (whole >>> 16) & 0xff, (whole >>> 8) & 0xff, whole & 0xff].join(".");
}

/** Eight 16-bit groups, or null when the text is not an IPv6 address. */
export function expandIpv6(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address;
  // A trailing dotted quad (::ffff:1.2.3.4) counts as two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...tailGroups];
  return groups.length === 8 ? groups.map((group) => Number.parseInt(group, 16)) : null;
}

const quad = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");

/**
 * The IPv4 addresses an IPv6 address reaches or carries: IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible
 * (::a.b.c.d), SIIT (::ffff:0:a.b.c.d), NAT64 (64:ff9b::/96 and the local-use 64:ff9b:1::/48), 6to4
 * (2002:AABB:CCDD::) and Teredo (the server, and the client XOR 0xffff). Any one of them matching
 * makes the address a metadata target.
 */
function embeddedIpv4(groups: number[]): string[] {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const found: string[] = [];
  const zeroUpTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (zeroUpTo(5) && (g5 === 0xffff || g5 === 0)) found.push(quad(g6, g7)); // mapped, compatible
  if (zeroUpTo(4) && g4 === 0xffff && g5 === 0) found.push(quad(g6, g7)); // SIIT
  if (g0 === 0x64 && g1 === 0xff9b) found.push(quad(g6, g7)); // NAT64, well-known and local-use /96
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) {
    // The local-use prefix may be cut at /48, /56 or /64 too (RFC 6052 2.2: bits 64-71 are skipped).
    const byte = (group: number, high: boolean) => (high ? group >> 8 : group & 0xff);
    found.push([byte(g3, true), byte(g3, false), byte(g4, false), byte(g5, true)].join(".")); // /48
    found.push([byte(g3, false), byte(g4, false), byte(g5, true), byte(g5, false)].join(".")); // /56
    found.push([byte(g4, false), byte(g5, true), byte(g5, false), byte(g6, true)].join(".")); // /64
  }
  // Unique-local addresses that carry 169.254.169.254 in their last 32 bits (clouds' own IPv6 forms).
  if ((g0 & 0xfe00) === 0xfc00 && g6 === 0xa9fe && g7 === 0xa9fe) found.push("169.254.169.254");
  if (g0 === 0x2002) found.push(quad(g1, g2)); // 6to4
  if (g0 === 0x2001 && g1 === 0) found.push(quad(g2, g3), quad(g6 ^ 0xffff, g7 ^ 0xffff)); // Teredo
  return found;
}

function matchV4(address: string): Compiled | undefined {
  return V4.find((rule) => rule.list.check(address, "ipv4"));
}

/**
 * Whether a host (a name, or an address in any spelling) is a cloud metadata target: what it is, or
 * null. Names are matched after lowercasing and dropping trailing dots; addresses after turning
 * every IPv4 spelling into dotted form and looking inside every IPv6 form that carries an IPv4 one.
 */
export function cloudMetadataMatch(host: string): MetadataMatch | null {
  const text = bare(host);
  if (!text) return null;
  const name = METADATA_NAMES.get(text);
  if (name) return { normal: text, what: name, range: null };
  const v4 = isIP(text) === 4 ? text : isIP(text) === 6 ? null : ipv4FromAnySpelling(text);
  if (v4) {
    const rule = matchV4(v4);
    return rule ? { normal: v4, what: rule.what, range: rule.cidr } : null;
  }
  const groups = expandIpv6(text);
  if (!groups) return null;
  const rule = V6.find((candidate) => candidate.list.check(text, "ipv6"));
  if (rule) return { normal: text, what: rule.what, range: rule.cidr };
  for (const inner of embeddedIpv4(groups)) {
    const innerRule = matchV4(inner);
    if (innerRule)
      return { normal: text, what: `${innerRule.what}, reached through ${inner}`, range: innerRule.cidr };
  }
  return null;
}

/**
 * The refusal, in the same words on every path: "Refused: … is a cloud metadata address (…); …".
 * `viaName` is the host name that resolved to `host`, when there is one; `privateSwitch` the
 * caller's setting for private targets (AUDIT_ALLOW_PRIVATE_TARGETS…), named as no help here.
 */
export function cloudMetadataRefusal(
  host: string,
  match: MetadataMatch,
  viaName?: string,
  privateSwitch?: string,
): string {
  const shown = bare(host);
  const via = viaName ? bare(viaName) : "";
  const subject = via && via !== shown ? `${via} resolves to` : `${shown} is`;
  const facts = [
    ...(match.normal !== (via && via !== shown ? "" : shown) ? [match.normal] : []),
    match.what,
    ...(match.range ? [match.range] : []),
  ];
  const whatever = privateSwitch ? `whatever ${privateSwitch} says` : "whatever the settings allow";
  return `Refused: ${subject} a cloud metadata address (${facts.join(", ")}); cloud metadata is never reached, ${whatever}.`;
}

/** The refusal sentence when `host` is a metadata target, else null. */
export function metadataRefusalFor(host: string, viaName?: string, privateSwitch?: string): string | null {
  const match = cloudMetadataMatch(host);
  return match ? cloudMetadataRefusal(host, match, viaName, privateSwitch) : null;
}
