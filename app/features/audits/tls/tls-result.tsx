import { DataTable } from "#app/components/ui/data-table.tsx";
import { cn } from "#app/lib/cn.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { AuditIssues } from "../ui/audit-details.tsx";
import { yesNo } from "../ui/audit-format.ts";
import { FactItem } from "../ui/fact-item.tsx";
import { verifyErrorText } from "./tls-issues.ts";
import { daysLeftText, keyText, protocolText } from "./tls-texts.ts";
import { TLS_VERSIONS, type TlsCheckResult, type TlsVersion } from "./tls-types.ts";

// One TLS check's result on the audit page: the certificate's facts, the protocol table and the
// findings, or 'Error: …' with the details when the check could not run.

/** Old versions accepted are the finding; a modern one refused is a lesser one. */
function protocolClass(version: TlsVersion, accepted: boolean | null): string {
  if (accepted === null) return "text-ink-muted";
  const old = version === "TLS 1.0" || version === "TLS 1.1";
  return accepted === old ? "text-danger" : "text-success";
}

export function TlsResult({ result }: { result: TlsCheckResult }) {
  const { certificate } = result;
  // The note column only when a version could not be tested (and says why).
  const noted = TLS_VERSIONS.some((version) => result.protocolNotes[version]);
  return (
    <div className="mt-6 border-t border-line pt-6" data-testid="tls-result">
      <p className="text-sm break-all text-ink-muted">
        {result.url}
        <span className="break-normal">
          {result.address ? ` (${result.address})` : ""} — checked {formatDateTime(result.checkedAt)}
        </span>
      </p>

      {result.error ? (
        <div className="mt-4 rounded-lg border border-danger bg-red-50 px-4 py-3 text-danger">
          <p className="font-semibold break-words">Error: {result.error}</p>
          {result.details ? <p className="mt-1 leading-6 break-words">{result.details}</p> : null}
        </div>
      ) : null}

      {certificate ? (
        <>
          <h3 className="mt-4 font-semibold">Certificate</h3>
          <dl className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            <FactItem label="Days left">
              <span
                data-testid="tls-days-left"
                className={certificate.daysLeft <= 14 ? "text-danger" : undefined}
              >
                {daysLeftText(certificate.daysLeft)}
              </span>
            </FactItem>
            <FactItem label="Chain">
              <span
                data-testid="tls-chain"
                className={certificate.chainVerified ? "text-success" : "text-danger"}
              >
                {certificate.chainVerified ? "Trusted" : "Not trusted"}
              </span>
              {certificate.chainVerified ? null : (
                <span className="mt-1 block text-sm font-normal">
                  {verifyErrorText(certificate.verifyError)}
                </span>
              )}
            </FactItem>
            <FactItem label="Matches host">
              <span className={certificate.matchesHost ? "text-success" : "text-danger"}>
                {yesNo(certificate.matchesHost)}
              </span>
              <span className="font-normal"> ({result.host})</span>
            </FactItem>
            <FactItem label="Subject">{certificate.subject || "—"}</FactItem>
            <FactItem label="Issuer">{certificate.issuer || "—"}</FactItem>
            <FactItem label="Alternative names">
              {certificate.altNames.length ? certificate.altNames.join(", ") : "None"}
            </FactItem>
            <FactItem label="Valid from">{formatDateTime(certificate.validFrom)}</FactItem>
            <FactItem label="Valid until">{formatDateTime(certificate.validTo)}</FactItem>
            <FactItem label="Key">{keyText(certificate)}</FactItem>
            <FactItem label="Signature">{certificate.signatureAlgorithm ?? "—"}</FactItem>
            {result.negotiated ? (
              <FactItem label="Negotiated">
                {result.negotiated.protocol}, {result.negotiated.cipher}
              </FactItem>
            ) : null}
          </dl>
        </>
      ) : null}

      {result.error ? null : (
        <>
          <h3 className="mt-6 mb-3 font-semibold">Protocol versions</h3>
          <DataTable
            label="TLS protocol versions table"
            columns={noted ? ["Version", "Server", "Note"] : ["Version", "Server"]}
          >
            {TLS_VERSIONS.map((version) => (
              <tr key={version} className="border-t border-line" data-protocol={version}>
                <th scope="row" className="px-4 py-3 font-semibold whitespace-nowrap">
                  {version}
                </th>
                <td
                  className={cn(
                    "px-4 py-3 font-semibold whitespace-nowrap",
                    protocolClass(version, result.protocols[version]),
                  )}
                >
                  {protocolText(result.protocols[version])}
                </td>
                {noted ? (
                  <td className="min-w-48 px-4 py-3 text-ink-muted">{result.protocolNotes[version] ?? ""}</td>
                ) : null}
              </tr>
            ))}
          </DataTable>

          <h3 className="mt-6 mb-3 font-semibold">Findings ({result.issues.length})</h3>
          <AuditIssues audit={result} headingLevel={4} />
        </>
      )}
    </div>
  );
}
