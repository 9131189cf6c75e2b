import { X509Certificate } from "node:crypto";
import { isIP } from "node:net";
import tls from "node:tls";
import type { TlsCertificateFacts } from "./tls-types.ts";

// What the TLS check says about a server's certificate, worked out with node:crypto's X509Certificate
// from the chain the server sent: names, dates, key, and whether the chain leads to a trusted root.
// OpenSSL's own verdict (the handshake's `authorized`) is the first word on trust; see
// `chainVerdict` for the one case where it is not the last.

const DAY_MS = 86_400_000;
/** Hostile certificates can carry megabytes of names: the page and the stored issues keep a bounded part. */
const MAX_NAME_CHARS = 300;
const MAX_ALT_NAMES = 50;
/** No real chain is deeper; a loop of cross-signed certificates must not run forever. */
const MAX_CHAIN_DEPTH = 10;
/** OpenSSL's verdicts that are about dates alone, not about who signed what. */
const DATE_ERRORS = new Set(["CERT_HAS_EXPIRED", "CERT_NOT_YET_VALID"]);

export type OpensslVerdict = { authorized: boolean; error: string | null };

/** Trusted roots, parsed once for the default store (265 certificates: 20-60 ms, once per process). */
let defaultRoots: X509Certificate[] | null = null;

export function trustedRoots(ca?: string | string[]): X509Certificate[] {
  if (ca !== undefined) return [ca].flat().map((pem) => new X509Certificate(pem));
  // The store the handshake itself uses: Node's bundled roots plus NODE_EXTRA_CA_CERTS (and the
  // operating system's with --use-system-ca), so both verdicts agree on what is trusted.
  defaultRoots ??= tls.getCACertificates("default").map((pem) => new X509Certificate(pem));
  return defaultRoots;
}

const clip = (text: string, max = MAX_NAME_CHARS) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** "CN=example.com\nO=Example" → "CN=example.com, O=Example". */
function distinguishedName(text: string): string {
  return clip(text.split("\n").filter(Boolean).join(", "));
}

/** OpenSSL prints "DNS:a.example, DNS:b.example, IP Address:127.0.0.1". */
function altNamesOf(certificate: X509Certificate): string[] {
  const text = certificate.subjectAltName ?? "";
  if (!text) return [];
  return text
    .split(", ")
    .slice(0, MAX_ALT_NAMES)
    .map((name) => clip(name, 260));
}

const CURVE_BITS: Record<string, number> = {
  prime256v1: 256,
  "P-256": 256,
  secp256k1: 256,
  secp384r1: 384,
  "P-384": 384,
  secp521r1: 521,
  "P-521": 521,
  secp224r1: 224,
  prime192v1: 192,
};

const KEY_NAMES: Record<string, string> = {
  rsa: "RSA",
  "rsa-pss": "RSA-PSS",
  ec: "EC",
  dsa: "DSA",
  ed25519: "Ed25519",
  ed448: "Ed448",
};

function keyOf(certificate: X509Certificate): { keyType: string; keyBits: number | null; curve?: string } {
  const key = certificate.publicKey;
  const type = key.asymmetricKeyType ?? "unknown";
  const details = key.asymmetricKeyDetails ?? {};
  const keyType = KEY_NAMES[type] ?? type;
  if (details.modulusLength) return { keyType, keyBits: details.modulusLength };
  if (details.namedCurve)
    return { keyType, keyBits: CURVE_BITS[details.namedCurve] ?? null, curve: details.namedCurve };
  if (type === "ed25519") return { keyType, keyBits: 256 };
  if (type === "ed448") return { keyType, keyBits: 456 };
  return { keyType, keyBits: null };
}

/** Browsers match names against the alternative names only; the subject's CN no longer counts. */
function matchesHost(certificate: X509Certificate, host: string): boolean {
  if (isIP(host)) return certificate.checkIP(host) !== undefined;
  return certificate.checkHost(host, { subject: "never" }) !== undefined;
}

const within = (certificate: X509Certificate, now: Date) =>
  certificate.validFromDate.getTime() <= now.getTime() && now.getTime() <= certificate.validToDate.getTime();

const signedBy = (child: X509Certificate, parent: X509Certificate) =>
  child.checkIssued(parent) && child.verify(parent.publicKey);

/**
 * Whether the signatures lead from the leaf to a trusted root through the certificates the server
 * sent, every certificate above the leaf being within its dates. The leaf's own dates are left out:
 * they are findings of their own (expired, not yet valid). Null when it does, else why not.
 */
export function pathProblem(served: X509Certificate[], roots: X509Certificate[], now: Date): string | null {
  const [leaf] = served;
  if (!leaf) return "the server sent no certificate";
  const trusted = new Set(roots.map((root) => root.fingerprint256));
  let current = leaf;
  for (let depth = 0; depth < MAX_CHAIN_DEPTH; depth++) {
    if (depth > 0 && !within(current, now))
      return `the certificate of ${distinguishedName(current.subject)} is outside its dates`;
    if (trusted.has(current.fingerprint256)) return null;
    const root = roots.find((candidate) => signedBy(current, candidate));
    if (root)
      return within(root, now) ? null : `the root ${distinguishedName(root.subject)} is outside its dates`;
    const next = served.find(
      (candidate) => candidate !== current && candidate.ca && signedBy(current, candidate),
    );
    if (!next) {
      return current.checkIssued(current)
        ? "the chain ends in a self-signed certificate that is not a trusted root"
        : "the chain does not lead to a trusted root (an intermediate certificate may be missing)";
    }
    current = next;
  }
  return "the chain is longer than 10 certificates";
}

/**
 * The chain verdict. OpenSSL's handshake verification is authoritative, but when a certificate is
 * out of date it reports only that (its last error), hiding whether the chain is trusted at all; then
 * the signatures are followed here, so an expired certificate from a trusted CA reads "expired", and
 * an expired self-signed one reads "expired" and "not trusted".
 */
export function chainVerdict(
  served: X509Certificate[],
  /** Called only when needed: parsing the default store costs ~20-60 ms the first time. */
  roots: () => X509Certificate[],
  openssl: OpensslVerdict,
  now: Date,
): { chainVerified: boolean; verifyError: string | null } {
  if (openssl.authorized) return { chainVerified: true, verifyError: null };
  if (openssl.error && DATE_ERRORS.has(openssl.error)) {
    const problem = pathProblem(served, roots(), now);
    return problem
      ? { chainVerified: false, verifyError: problem }
      : { chainVerified: true, verifyError: null };
  }
  return { chainVerified: false, verifyError: openssl.error ?? "the chain could not be verified" };
}

/** Facts about the leaf (the first of `chain`, the order the server sent them). */
export function describeCertificate(
  chain: Buffer[],
  host: string,
  openssl: OpensslVerdict,
  roots: () => X509Certificate[],
  now: Date,
): TlsCertificateFacts | null {
  const served = chain.map((der) => new X509Certificate(der));
  const [leaf] = served;
  if (!leaf) return null;
  return {
    subject: distinguishedName(leaf.subject),
    altNames: altNamesOf(leaf),
    matchesHost: matchesHost(leaf, host),
    issuer: distinguishedName(leaf.issuer),
    validFrom: leaf.validFromDate.toISOString(),
    validTo: leaf.validToDate.toISOString(),
    daysLeft: Math.floor((leaf.validToDate.getTime() - now.getTime()) / DAY_MS),
    ...keyOf(leaf),
    signatureAlgorithm: leaf.signatureAlgorithm ?? null,
    fingerprint256: leaf.fingerprint256,
    ...chainVerdict(served, roots, openssl, now),
    chainLength: served.length,
  };
}
