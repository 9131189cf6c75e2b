import type { PerformanceResult } from "../audit-types.ts";
import { formatBytes, formatHttpVersion, formatMs, yesNo } from "./audit-format.ts";
import { FactItem as Item } from "./fact-item.tsx";

function compressionText(result: PerformanceResult): string {
  if (!result.hasCompression) return "No";
  return result.compression && result.compression !== "identity" ? `Yes (${result.compression})` : "Yes";
}

/**
 * The last performance check (SPEC sections 3 and 8): load time, status, size, compression and
 * server, then the network details; 'Error: …' and the details when the check failed.
 */
export function PerformanceCard({
  result,
  checkedAt,
}: {
  result: PerformanceResult;
  /** When a stored check ran (shown for the last check kept from an earlier visit). */
  checkedAt?: string;
}) {
  const { timings } = result;
  return (
    <section
      aria-labelledby="performance-heading"
      className="rounded-xl border border-line bg-white p-6 shadow-sm"
      data-testid="performance-card"
    >
      <h2 id="performance-heading" className="text-xl font-semibold">
        Performance results
      </h2>
      <p className="mt-1 text-sm break-all text-ink-muted">
        {result.url}
        {checkedAt ? <span className="break-normal"> — checked {checkedAt}</span> : null}
      </p>

      {result.error ? (
        <div className="mt-4 rounded-lg border border-danger bg-red-50 px-4 py-3 text-danger">
          <p className="font-semibold break-words">Error: {result.error}</p>
          {result.details ? <p className="mt-1 leading-6 break-words">{result.details}</p> : null}
        </div>
      ) : (
        <>
          <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-3">
            <Item label="Load time">{formatMs(result.loadTime)}</Item>
            <Item label="Status">{result.status}</Item>
            <Item label="Content length">{formatBytes(result.contentLength)}</Item>
            <Item label="Compression">{compressionText(result)}</Item>
            <Item label="Server type">{result.serverType || "Not disclosed"}</Item>
            {result.transferredBytes !== undefined ? (
              <Item label="Transferred">{formatBytes(result.transferredBytes)}</Item>
            ) : null}
          </dl>

          <h3 className="mt-6 font-semibold">Network details</h3>
          <dl className="mt-3 grid grid-cols-2 gap-3 lg:grid-cols-3">
            <Item label="DNS lookup">{timings ? formatMs(timings.dnsMs) : "—"}</Item>
            <Item label="Connect">{timings ? formatMs(timings.connectMs) : "—"}</Item>
            <Item label="TLS handshake">{timings ? formatMs(timings.tlsMs) : "—"}</Item>
            <Item label="Time to first byte">{timings ? formatMs(timings.ttfbMs) : "—"}</Item>
            <Item label="Download">{timings ? formatMs(timings.downloadMs) : "—"}</Item>
            <Item label="HTTP version">{formatHttpVersion(result.httpVersion)}</Item>
            <Item label="HTTP/2 offered">{yesNo(result.http2Offered)}</Item>
            <Item label="Redirects">{result.redirects ? result.redirects.length : "—"}</Item>
            <Item label="Cache-Control">
              {result.cacheControl === undefined ? "—" : result.cacheControl || "Not set"}
            </Item>
          </dl>
          {result.redirects && result.redirects.length > 0 ? (
            <>
              <h3 className="mt-6 font-semibold">Redirect chain</h3>
              <ol className="mt-2 grid list-decimal gap-1 pl-6 text-sm">
                {result.redirects.map((hop, index) => (
                  // The same address can appear twice in a chain; the position tells the hops apart.
                  // biome-ignore lint/suspicious/noArrayIndexKey: hops have no identity beyond their place
                  <li key={index} className="break-all">
                    {hop.status} {hop.url}
                  </li>
                ))}
              </ol>
            </>
          ) : null}
          {result.runs && result.runs.length > 1 ? (
            <p className="mt-4 text-sm text-ink-muted">
              Load time is the median of {result.runs.length} runs: {result.runs.map(formatMs).join(", ")}.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
