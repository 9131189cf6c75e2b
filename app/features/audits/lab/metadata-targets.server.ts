import { BlockList, isIP } from "node:net";

// Cloud metadata services hand out credentials to whatever asks from inside the machine. No audit
// has a reason to load them, so the lab check's browser is refused them ALWAYS, even with
// AUDIT_ALLOW_PRIVATE_TARGETS=true (which lets the private ranges through for intranet sites).

/** Names that reach a metadata service (GCP, Azure, AWS, Alibaba, Oracle, OpenStack, k8s helpers). */
const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "metadata.azure.internal",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
  "metadata.platformequinix.com",
]);

const METADATA_V4 = new BlockList();
// Link-local as a whole: AWS/GCP/Azure/Oracle/OpenStack at .169.254, ECS task metadata at .170.2,
// EKS pod identity at .170.23. No website lives on a link-local address.
METADATA_V4.addSubnet("169.254.0.0", 16, "ipv4");
METADATA_V4.addAddress("100.100.100.200", "ipv4"); // Alibaba Cloud
METADATA_V4.addAddress("168.63.129.16", "ipv4"); // Azure wire server
const METADATA_V6 = new BlockList();
METADATA_V6.addSubnet("fd00:ec2::", 32, "ipv6"); // AWS internal services: IMDS fd00:ec2::254, EKS ::23, DNS ::253
METADATA_V6.addSubnet("fe80::", 10, "ipv6"); // link-local

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) address. */
function embeddedV4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1] ?? null;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const high = Number.parseInt(hex[1] ?? "0", 16);
  const low = Number.parseInt(hex[2] ?? "0", 16);
  return [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".");
}

/**
 * The refusal sentence when `hostOrAddress` is a cloud metadata name or address, else null.
 * `viaName` names the host that resolved to the address.
 */
export function metadataRefusal(hostOrAddress: string, viaName?: string): string | null {
  const text = hostOrAddress.toLowerCase().replace(/\.$/, "");
  const subject = viaName && viaName !== hostOrAddress ? `${viaName} resolves to a` : `${text} is a`;
  const family = isIP(text);
  if (family === 0) {
    return METADATA_NAMES.has(text) ? `Refused: ${text} is a cloud metadata service, never loaded.` : null;
  }
  const v4 = family === 4 ? text : embeddedV4(text);
  const hit = v4 ? METADATA_V4.check(v4, "ipv4") : METADATA_V6.check(text.split("%")[0] ?? text, "ipv6");
  return hit ? `Refused: ${subject} cloud metadata or link-local address, never loaded.` : null;
}
