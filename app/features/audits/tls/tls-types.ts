import type { AuditIssue } from "../audit-types.ts";

// The TLS check's result (issue 25 "TLS"), as the API answers it and the audit page shows it. Shared
// by server and browser, so types only.

export const TLS_VERSIONS = ["TLS 1.0", "TLS 1.1", "TLS 1.2", "TLS 1.3"] as const;
export type TlsVersion = (typeof TLS_VERSIONS)[number];

/** The server's leaf certificate and how it fares against the host name and the trusted roots. */
export type TlsCertificateFacts = {
  /** The subject's distinguished name, e.g. "CN=www.example.com". */
  subject: string;
  /** The subjectAltName entries as OpenSSL prints them, e.g. "DNS:www.example.com", "IP Address:127.0.0.1". */
  altNames: string[];
  /** Whether the host name (or IP address) is covered by the alternative names, as browsers match. */
  matchesHost: boolean;
  issuer: string;
  /** ISO dates. */
  validFrom: string;
  validTo: string;
  /** Whole days until validTo, negative once it has expired. */
  daysLeft: number;
  /** "RSA", "EC", "Ed25519", "RSA-PSS", ... */
  keyType: string;
  /** RSA modulus length, or the curve's size for EC keys; null when unknown. */
  keyBits: number | null;
  /** The EC curve, e.g. "prime256v1". */
  curve?: string;
  /** e.g. "sha256WithRSAEncryption". */
  signatureAlgorithm: string | null;
  fingerprint256: string;
  /** The chain the server sent leads to a trusted root (system roots by default). */
  chainVerified: boolean;
  /** Why it did not: OpenSSL's code (e.g. "SELF_SIGNED_CERT_IN_CHAIN") or a sentence. */
  verifyError: string | null;
  /** Certificates in the chain as the handshake assembled it (the server's, completed from the trusted store), the leaf first. */
  chainLength: number;
};

/**
 * Whether the server completed a handshake limited to that version: true accepted, false refused,
 * null not tested (this runtime's OpenSSL could not offer it, or no answer in time), with the reason.
 */
export type TlsProtocolSupport = Record<TlsVersion, boolean | null>;

export type TlsCheckResult = {
  url: string;
  host: string;
  port: number;
  /** The checked address that was connected to. */
  address: string | null;
  /** ISO time the check ran. */
  checkedAt: string;
  certificate: TlsCertificateFacts | null;
  protocols: TlsProtocolSupport;
  /** Why a protocol is null (keyed by version). */
  protocolNotes: Partial<Record<TlsVersion, string>>;
  /** What the newest accepted version negotiated. */
  negotiated: { protocol: string; cipher: string } | null;
  /** Findings with their severities, as the security audit's issues. */
  issues: AuditIssue[];
  /** Set when the check could not run (refused target, no TLS, timed out). */
  error?: string;
  details?: string;
};
