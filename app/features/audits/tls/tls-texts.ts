import { plural } from "#app/lib/plural.ts";
import type { TlsCheckResult } from "./tls-types.ts";

// The TLS check's words on the audit page, for the page, its no-JavaScript fallback and the tests.

export const TLS_TEXT = {
  heading: "TLS check",
  urlLabel: "HTTPS address",
  checkTls: "Check TLS",
  checkingTls: "Checking TLS...",
  complete: "TLS Check Complete",
  failed: "TLS Check Failed",
  urlRequired: "Please enter an https:// address to check.",
} as const;

export const TLS_CHECK_API = "/api/admin/tls-check";

/** "Certificate: 5 days left, trusted. 2 findings (1 critical)." — the toast and the no-JavaScript banner. */
export function tlsSummaryText(result: TlsCheckResult): string {
  if (result.error) return result.details ?? result.error;
  const certificate = result.certificate;
  const problems = result.issues.filter((issue) => issue.severity !== "info");
  const critical = problems.filter((issue) => issue.severity === "critical").length;
  const parts = [
    certificate
      ? `Certificate: ${daysLeftText(certificate.daysLeft)}, ${certificate.chainVerified ? "trusted" : "not trusted"}.`
      : "",
    problems.length === 0
      ? "No findings."
      : `${problems.length} finding${problems.length === 1 ? "" : "s"}${critical ? ` (${critical} critical)` : ""}.`,
  ];
  return parts.filter(Boolean).join(" ");
}

export function daysLeftText(days: number): string {
  if (days < 0) return `expired ${-days} day${days === -1 ? "" : "s"} ago`;
  return `${plural(days, "day")} left`;
}

export function keyText(certificate: { keyType: string; keyBits: number | null; curve?: string }): string {
  const bits = certificate.keyBits ? ` ${certificate.keyBits} bits` : "";
  return `${certificate.keyType}${bits}${certificate.curve ? ` (${certificate.curve})` : ""}`;
}

export function protocolText(accepted: boolean | null): string {
  if (accepted === null) return "Not tested";
  return accepted ? "Accepted" : "Not accepted";
}
