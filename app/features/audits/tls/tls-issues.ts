import { plural } from "#app/lib/plural.ts";
import type { AuditIssue, AuditResult } from "../audit-types.ts";
import { CATEGORY } from "../observatory/context.ts";
import { TLS_VERSIONS, type TlsCheckResult, type TlsVersion } from "./tls-types.ts";

// The TLS check's findings as audit issues (issue 25): expired, not yet valid, a name that does not
// cover the host or a chain that does not verify are critical (browsers refuse the site); expiring
// within 14 days, TLS 1.0/1.1 accepted, a weak key or a SHA-1/MD5 signature are high. They join the
// security audit's issues and never touch its Observatory score, which stays comparable with MDN's.

/** Days before expiry that make it urgent: certificate automation renews at 30, so 14 means it failed. */
export const EXPIRY_HIGH_DAYS = 14;
export const EXPIRY_MEDIUM_DAYS = 30;
const MIN_RSA_BITS = 2048;
const MIN_EC_BITS = 256;

const category = CATEGORY.transport;

/** The issue ids this module writes; the Observatory extras' certificate issues share the first four. */
export const TLS_ISSUE_IDS = {
  invalid: "tls-certificate-invalid",
  expired: "tls-certificate-expired",
  expiring: "tls-certificate-expiring",
  valid: "tls-certificate-valid",
  notYetValid: "tls-certificate-not-yet-valid",
  hostMismatch: "tls-certificate-host-mismatch",
  weakKey: "tls-weak-key",
  weakSignature: "tls-weak-signature",
  noModernProtocol: "tls-no-modern-protocol",
  noTls13: "tls-no-tls13",
  untested: "tls-protocols-untested",
} as const;

const protocolIssueId = (version: TlsVersion) =>
  `tls-protocol-${version.slice(4).replace(".", "-")}-accepted`;

// OpenSSL's codes for the usual ways a chain fails, in words; other codes are shown as they are.
const VERIFY_ERRORS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: "the certificate is self-signed",
  SELF_SIGNED_CERT_IN_CHAIN: "the chain ends in a self-signed certificate that is not a trusted root",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    "its issuer is not a trusted CA, or the server does not send the intermediate certificate",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    "its issuer is not a trusted CA, or the server does not send the intermediate certificate",
  UNABLE_TO_GET_ISSUER_CERT: "an issuer certificate is missing from the chain",
  CERT_REVOKED: "the certificate has been revoked",
  CERT_SIGNATURE_FAILURE: "a signature in the chain does not verify",
  CERT_UNTRUSTED: "the root is not trusted for server certificates",
  INVALID_CA: "a certificate in the chain is not allowed to act as a CA",
  EE_KEY_TOO_SMALL: "the certificate's key is too small",
  CA_KEY_TOO_SMALL: "a CA key in the chain is too small",
};

/** "UNABLE_TO_VERIFY_LEAF_SIGNATURE" → words staff can act on, with the code kept for searching. */
export function verifyErrorText(code: string | null): string {
  if (!code) return "unknown reason";
  const words = VERIFY_ERRORS[code];
  return words ? `${words} (${code})` : code;
}

const list = (versions: readonly string[]) => versions.join(", ") || "none";

function keyIsWeak(keyType: string, keyBits: number | null): boolean {
  if (keyType === "DSA") return true;
  if (keyBits === null) return false;
  if (keyType === "RSA" || keyType === "RSA-PSS") return keyBits < MIN_RSA_BITS;
  if (keyType === "EC") return keyBits < MIN_EC_BITS;
  return false;
}

export function tlsIssues(result: TlsCheckResult): AuditIssue[] {
  const issues: AuditIssue[] = [];
  const certificate = result.certificate;
  if (certificate) {
    const until = ` (valid until ${certificate.validTo})`;
    const now = Date.parse(result.checkedAt);
    if (certificate.daysLeft < 0 || Date.parse(certificate.validTo) < now)
      issues.push({
        id: TLS_ISSUE_IDS.expired,
        title: "TLS certificate expired",
        severity: "critical",
        category,
        description: `The certificate expired ${plural(Math.max(1, -certificate.daysLeft), "day")} ago${until}; browsers block the site with a warning.`,
        remediation:
          "Renew the certificate now and automate renewal (for example certbot or your host's managed certificates).",
      });
    else if (Date.parse(certificate.validFrom) > now)
      issues.push({
        id: TLS_ISSUE_IDS.notYetValid,
        title: "TLS certificate not yet valid",
        severity: "critical",
        category,
        description: `The certificate is valid only from ${certificate.validFrom}; browsers refuse it until then (or the server's clock is wrong).`,
        remediation: "Serve the current certificate, and check the clock of the machine that issued it.",
      });
    else if (certificate.daysLeft <= EXPIRY_MEDIUM_DAYS)
      issues.push({
        id: TLS_ISSUE_IDS.expiring,
        title: `TLS certificate expires in ${plural(certificate.daysLeft, "day")}`,
        severity: certificate.daysLeft <= EXPIRY_HIGH_DAYS ? "high" : "medium",
        category,
        description: `The certificate expires soon${until}. Automated renewal normally renews 30 days before expiry, so it may be failing.`,
        remediation:
          "Renew the certificate and check that automatic renewal runs (and alerts you when it fails).",
      });

    if (!certificate.matchesHost)
      issues.push({
        id: TLS_ISSUE_IDS.hostMismatch,
        title: `TLS certificate does not cover ${result.host}`,
        severity: "critical",
        category,
        description: `The certificate's alternative names are ${certificate.altNames.length ? certificate.altNames.join(", ") : "missing"}; browsers refuse it for ${result.host}.`,
        remediation: `Issue a certificate whose subject alternative names include ${result.host}.`,
      });

    if (!certificate.chainVerified)
      issues.push({
        id: TLS_ISSUE_IDS.invalid,
        title: "TLS certificate not trusted",
        severity: "critical",
        category,
        description: `The certificate chain does not verify against the trusted root certificates: ${verifyErrorText(certificate.verifyError)}. Browsers show a full-page warning.`,
        remediation:
          "Install a certificate from a trusted CA and serve the full chain (leaf plus intermediates). Let's Encrypt with automatic renewal is free.",
      });

    if (keyIsWeak(certificate.keyType, certificate.keyBits))
      issues.push({
        id: TLS_ISSUE_IDS.weakKey,
        title: `Weak certificate key (${certificate.keyType}${certificate.keyBits ? ` ${certificate.keyBits} bits` : ""})`,
        severity: "high",
        category,
        description: `The certificate's key is below today's minimum (RSA ${MIN_RSA_BITS} bits, EC ${MIN_EC_BITS} bits, no DSA); CAs no longer issue such certificates and browsers may refuse them.`,
        remediation: "Issue a new certificate with an RSA 2048-bit (or larger) or an ECDSA P-256 key.",
      });

    if (certificate.signatureAlgorithm && /md5|sha1With|sha1$|-SHA1$/i.test(certificate.signatureAlgorithm))
      issues.push({
        id: TLS_ISSUE_IDS.weakSignature,
        title: "Certificate signed with a broken hash",
        severity: "high",
        category,
        description: `The certificate is signed with ${certificate.signatureAlgorithm}; SHA-1 and MD5 signatures can be forged and browsers reject them.`,
        remediation: "Reissue the certificate; every current CA signs with SHA-256 or better.",
      });
  }

  // Only a certificate without findings earns the "valid" note (protocol findings are separate).
  const certificateFine = certificate !== null && issues.length === 0;
  const accepted = TLS_VERSIONS.filter((version) => result.protocols[version] === true);
  for (const version of ["TLS 1.0", "TLS 1.1"] as const) {
    if (result.protocols[version] === true)
      issues.push({
        id: protocolIssueId(version),
        title: `${version} accepted`,
        severity: "high",
        category,
        description: `The server completes a handshake with ${version}, deprecated since 2021 (RFC 8996): it lacks modern cipher suites and is open to downgrade attacks. Every current browser speaks TLS 1.2 or 1.3.`,
        remediation: "Turn off TLS 1.0 and 1.1 in the server or load balancer; allow TLS 1.2 and 1.3 only.",
      });
  }
  if (accepted.length > 0 && !accepted.includes("TLS 1.2") && !accepted.includes("TLS 1.3"))
    issues.push({
      id: TLS_ISSUE_IDS.noModernProtocol,
      title: "Neither TLS 1.2 nor TLS 1.3 accepted",
      severity: "critical",
      category,
      description: `The server accepts only ${list(accepted)}; current browsers refuse to connect.`,
      remediation: "Enable TLS 1.2 and 1.3.",
    });
  else if (result.protocols["TLS 1.3"] === false)
    issues.push({
      id: TLS_ISSUE_IDS.noTls13,
      title: "TLS 1.3 not supported",
      severity: "low",
      category,
      description: "TLS 1.3 connects faster (one round trip less) and drops old cipher suites.",
      remediation: "Enable TLS 1.3 in the server or load balancer (OpenSSL 1.1.1 or later).",
    });

  const untested = TLS_VERSIONS.filter((version) => result.protocols[version] === null);
  if (untested.length > 0)
    issues.push({
      id: TLS_ISSUE_IDS.untested,
      title: `Could not test ${list(untested)}`,
      severity: "info",
      category,
      description: untested
        .map((version) => `${version}: ${result.protocolNotes[version] ?? "not tested"}`)
        .join(" "),
    });

  if (certificate && certificateFine)
    issues.push({
      id: TLS_ISSUE_IDS.valid,
      title: `TLS certificate valid for ${certificate.daysLeft} more days`,
      severity: "info",
      category,
      description: `The certificate is trusted, issued by ${certificate.issuer}, valid until ${certificate.validTo}, key ${certificate.keyType}${certificate.keyBits ? ` ${certificate.keyBits} bits` : ""}; the server accepts ${list(accepted)}.`,
    });
  return issues;
}

/**
 * A security audit with the TLS check's findings in its issues. They replace the Observatory extras'
 * certificate issues (read from the one handshake of the page fetch), which they cover in more detail;
 * when the TLS check could not run, those stay. Score, grade and tests are untouched.
 */
export function withTlsFindings(audit: AuditResult, check: TlsCheckResult): AuditResult {
  if (!check.certificate) return audit;
  const replaced = new Set<string>([
    TLS_ISSUE_IDS.invalid,
    TLS_ISSUE_IDS.expired,
    TLS_ISSUE_IDS.expiring,
    TLS_ISSUE_IDS.valid,
  ]);
  return {
    ...audit,
    issues: [...audit.issues.filter((issue) => !replaced.has(issue.id)), ...check.issues],
  };
}
