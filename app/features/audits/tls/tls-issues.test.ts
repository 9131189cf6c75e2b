import { describe, expect, it } from "vitest";
import type { AuditIssue, AuditResult } from "../audit-types.ts";
import { tlsIssues, verifyErrorText, withTlsFindings } from "./tls-issues.ts";
import type { TlsCertificateFacts, TlsCheckResult } from "./tls-types.ts";

// The findings' severities at their edges, and how they join a security audit without moving its
// score or grade.

const NOW = "2026-06-01T12:00:00.000Z";

function check(
  certificate: Partial<TlsCertificateFacts> | null,
  extra: Partial<TlsCheckResult> = {},
): TlsCheckResult {
  return {
    url: "https://www.example.com/",
    host: "www.example.com",
    port: 443,
    address: "93.184.215.14",
    checkedAt: NOW,
    certificate: certificate && {
      subject: "CN=www.example.com",
      altNames: ["DNS:www.example.com"],
      matchesHost: true,
      issuer: "CN=R11, O=Let's Encrypt, C=US",
      validFrom: "2026-04-01T00:00:00.000Z",
      validTo: "2026-08-01T00:00:00.000Z",
      daysLeft: 60,
      keyType: "EC",
      keyBits: 256,
      signatureAlgorithm: "sha256WithRSAEncryption",
      fingerprint256: "AA",
      chainVerified: true,
      verifyError: null,
      chainLength: 2,
      ...certificate,
    },
    protocols: { "TLS 1.0": false, "TLS 1.1": false, "TLS 1.2": true, "TLS 1.3": true },
    protocolNotes: {},
    negotiated: { protocol: "TLSv1.3", cipher: "TLS_AES_128_GCM_SHA256" },
    issues: [],
    ...extra,
  };
}

const ids = (issues: AuditIssue[]) => issues.map((issue) => `${issue.id}:${issue.severity}`);

describe("tlsIssues", () => {
  it("has only the 'valid' note for a sound set-up", () => {
    expect(ids(tlsIssues(check({})))).toEqual(["tls-certificate-valid:info"]);
  });

  it("rates expiry: 14 days or fewer high, up to 30 medium", () => {
    expect(ids(tlsIssues(check({ daysLeft: 0 })))).toEqual(["tls-certificate-expiring:high"]);
    expect(ids(tlsIssues(check({ daysLeft: 14 })))).toEqual(["tls-certificate-expiring:high"]);
    expect(ids(tlsIssues(check({ daysLeft: 15 })))).toEqual(["tls-certificate-expiring:medium"]);
    expect(ids(tlsIssues(check({ daysLeft: 30 })))).toEqual(["tls-certificate-expiring:medium"]);
    expect(ids(tlsIssues(check({ daysLeft: 31 })))).toEqual(["tls-certificate-valid:info"]);
  });

  it("rates expired, not yet valid, mismatched and untrusted critical", () => {
    expect(ids(tlsIssues(check({ daysLeft: -3, validTo: "2026-05-29T00:00:00.000Z" })))).toEqual([
      "tls-certificate-expired:critical",
    ]);
    expect(ids(tlsIssues(check({ validFrom: "2026-07-01T00:00:00.000Z" })))).toEqual([
      "tls-certificate-not-yet-valid:critical",
    ]);
    expect(ids(tlsIssues(check({ matchesHost: false })))).toEqual(["tls-certificate-host-mismatch:critical"]);
    const untrusted = tlsIssues(check({ chainVerified: false, verifyError: "SELF_SIGNED_CERT_IN_CHAIN" }));
    expect(ids(untrusted)).toEqual(["tls-certificate-invalid:critical"]);
    expect(untrusted[0]?.description).toContain("self-signed certificate that is not a trusted root");
  });

  it("rates weak keys and SHA-1 signatures high", () => {
    expect(ids(tlsIssues(check({ keyType: "RSA", keyBits: 1024 })))).toEqual(["tls-weak-key:high"]);
    expect(ids(tlsIssues(check({ keyType: "RSA", keyBits: 2048 })))).toEqual(["tls-certificate-valid:info"]);
    expect(ids(tlsIssues(check({ keyType: "EC", keyBits: 224 })))).toEqual(["tls-weak-key:high"]);
    expect(ids(tlsIssues(check({ signatureAlgorithm: "sha1WithRSAEncryption" })))).toEqual([
      "tls-weak-signature:high",
    ]);
  });

  it("rates TLS 1.0/1.1 high, a missing TLS 1.3 low, and says which versions it could not test", () => {
    const old = check(
      {},
      { protocols: { "TLS 1.0": true, "TLS 1.1": true, "TLS 1.2": true, "TLS 1.3": false } },
    );
    expect(ids(tlsIssues(old))).toEqual([
      "tls-protocol-1-0-accepted:high",
      "tls-protocol-1-1-accepted:high",
      "tls-no-tls13:low",
      "tls-certificate-valid:info",
    ]);
    const untested = check(
      {},
      {
        protocols: { "TLS 1.0": null, "TLS 1.1": false, "TLS 1.2": true, "TLS 1.3": true },
        protocolNotes: { "TLS 1.0": "this server's OpenSSL cannot offer TLS 1.0." },
      },
    );
    const issues = tlsIssues(untested);
    expect(ids(issues)).toEqual(["tls-protocols-untested:info", "tls-certificate-valid:info"]);
    expect(issues[0]?.description).toBe("TLS 1.0: this server's OpenSSL cannot offer TLS 1.0.");
  });

  it("words OpenSSL's codes, keeping unknown ones as they are", () => {
    expect(verifyErrorText("DEPTH_ZERO_SELF_SIGNED_CERT")).toBe(
      "the certificate is self-signed (DEPTH_ZERO_SELF_SIGNED_CERT)",
    );
    expect(verifyErrorText("SOMETHING_NEW")).toBe("SOMETHING_NEW");
  });
});

describe("withTlsFindings", () => {
  const audit: AuditResult = {
    url: "https://www.example.com/",
    score: 85,
    uncappedScore: 85,
    grade: "B+",
    algorithmVersion: 5,
    tests: [],
    issues: [
      { id: "csp-not-implemented", title: "No CSP", severity: "high", category: "CSP", description: "…" },
      {
        id: "tls-certificate-expiring",
        title: "old",
        severity: "high",
        category: "Transport security",
        description: "…",
      },
    ],
  };

  it("adds the findings in place of the page fetch's certificate notes, score and grade unchanged", () => {
    const tls = check(
      { daysLeft: 5 },
      { protocols: { "TLS 1.0": true, "TLS 1.1": false, "TLS 1.2": true, "TLS 1.3": true } },
    );
    tls.issues = tlsIssues(tls);
    const merged = withTlsFindings(audit, tls);
    expect(ids(merged.issues)).toEqual([
      "csp-not-implemented:high",
      "tls-certificate-expiring:high",
      "tls-protocol-1-0-accepted:high",
    ]);
    expect(merged.issues[1]?.title).toBe("TLS certificate expires in 5 days");
    expect({ score: merged.score, grade: merged.grade, tests: merged.tests }).toEqual({
      score: 85,
      grade: "B+",
      tests: [],
    });
  });

  it("keeps the audit as it was when the TLS check could not run", () => {
    const failed = check(null, { error: "Connection failed", details: "…" });
    expect(withTlsFindings(audit, failed)).toBe(audit);
  });
});
