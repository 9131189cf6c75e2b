import type { ReactNode } from "react";
import {
  isSafeImageDataUrl,
  LAB_METRIC_KEYS,
  LAB_METRIC_NAMES,
  type LabRating,
  type LabResult,
  MAX_FRAME_CHARS,
  MAX_SCREENSHOT_CHARS,
  scoreBand,
} from "../lab/lab-types.ts";
import { formatBytes, formatMs } from "./audit-format.ts";

// A lab check's result as PageSpeed Insights lays it out: the score in a gauge with PSI's colours,
// the six metrics with their ratings, the LCP element, opportunities and diagnostics, bytes and
// requests by type, the final screenshot and filmstrip, and what the traffic guard refused.
// Every text comes from an untrusted page: React escapes it; images are only base64 data URLs.

/** PSI's colours, darkened where text sits on them so it keeps AA contrast. */
const BAND_COLOUR: Record<LabRating, { stroke: string; text: string; fill: string }> = {
  good: { stroke: "#0cce6b", text: "#008a46", fill: "#e6f9ee" },
  "needs-improvement": { stroke: "#ffa400", text: "#b25200", fill: "#fff3e0" },
  poor: { stroke: "#ff4e42", text: "#c7221f", fill: "#ffeceb" },
};

export const RATING_TEXT: Record<LabRating, string> = {
  good: "Good",
  "needs-improvement": "Needs improvement",
  poor: "Poor",
};

/** PSI's shapes beside the colour: circle good, square average, triangle poor (not colour alone). */
function RatingIcon({ rating }: { rating: LabRating }) {
  const colour = BAND_COLOUR[rating].stroke;
  return (
    <svg viewBox="0 0 12 12" className="size-3 shrink-0" aria-hidden="true">
      {rating === "good" ? (
        <circle cx="6" cy="6" r="6" fill={colour} />
      ) : rating === "needs-improvement" ? (
        <rect x="1" y="1" width="10" height="10" fill={colour} />
      ) : (
        <polygon points="6,0 12,12 0,12" fill={colour} />
      )}
    </svg>
  );
}

export function ScoreGauge({ score, size = 120 }: { score: number; size?: number }) {
  const band = scoreBand(score);
  const colour = BAND_COLOUR[band];
  const radius = 52;
  const circumference = 2 * Math.PI * radius;
  const ring = {
    cx: "60",
    cy: "60",
    r: radius,
    fill: "none",
    stroke: colour.stroke,
    strokeWidth: "8",
  } as const;
  return (
    <div
      className="relative inline-flex shrink-0 items-center justify-center"
      style={{ width: size, height: size }}
      data-testid="lab-score"
      data-band={band}
      role="img"
      aria-label={`Performance score ${score} out of 100 (${RATING_TEXT[band]})`}
    >
      <svg viewBox="0 0 120 120" className="absolute inset-0 -rotate-90" aria-hidden="true">
        <circle cx="60" cy="60" r={radius} fill={colour.fill} stroke="none" />
        {/* The track, then the arc of the score over it. */}
        <circle {...ring} strokeOpacity="0.2" />
        <circle
          {...ring}
          strokeLinecap="round"
          strokeDasharray={`${(circumference * Math.max(0, Math.min(100, score))) / 100} ${circumference}`}
        />
      </svg>
      <span
        className="relative font-bold tabular-nums"
        style={{ color: colour.text, fontSize: Math.round(size * 0.3) }}
        aria-hidden="true"
      >
        {score}
      </span>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mt-6">
      <h3 className="font-semibold">{title}</h3>
      <div className="mt-2">{children}</div>
    </div>
  );
}

function savingsText(ms: number, bytes: number): string {
  const parts = [
    ms > 0 ? `${formatMs(ms)}` : "",
    bytes > 0 ? formatBytes(bytes).replace(/ \(.*\)$/, "") : "",
  ];
  return parts.filter(Boolean).join(", ") || "—";
}

export function LabResultView({ result, checkedAt }: { result: LabResult; checkedAt?: string }) {
  const screenshot = isSafeImageDataUrl(result.finalScreenshot, MAX_SCREENSHOT_CHARS)
    ? result.finalScreenshot
    : null;
  const frames = result.filmstrip.filter((frame) => isSafeImageDataUrl(frame.data, MAX_FRAME_CHARS));
  const deviceText = result.device === "desktop" ? "Desktop" : "Mobile";
  return (
    <div data-testid="lab-result">
      <p className="text-sm break-all text-ink-muted">
        {result.finalUrl || result.url}
        <span className="break-normal">
          {" "}
          — {deviceText}
          {checkedAt ? `, checked ${checkedAt}` : ""}
          {result.lighthouseVersion ? `, Lighthouse ${result.lighthouseVersion}` : ""}
        </span>
      </p>

      {result.error ? (
        <div className="mt-4 rounded-lg border border-danger bg-red-50 px-4 py-3 text-danger" role="alert">
          <p className="font-semibold break-words">Error: {result.error}</p>
          {result.details ? <p className="mt-1 leading-6 break-words">{result.details}</p> : null}
        </div>
      ) : (
        <>
          <div className="mt-4 flex flex-col gap-6 sm:flex-row sm:items-center">
            <div className="flex flex-col items-center gap-2">
              <ScoreGauge score={result.score} />
              <p className="font-semibold">Performance</p>
            </div>
            <p className="max-w-prose text-sm leading-6 text-ink-muted">
              Values are estimated by Lighthouse in a lab ({deviceText.toLowerCase()}
              {result.device === "mobile" ? ", simulated slow 4G and a slower CPU" : ", a fast connection"})
              and may vary. The score is calculated directly from these metrics. 0–49 poor, 50–89 needs
              improvement, 90–100 good.
            </p>
          </div>

          <Section title="Metrics">
            <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {LAB_METRIC_KEYS.map((key) => {
                const metric = result.metrics[key];
                return (
                  <div key={key} className="min-w-0 rounded-lg border border-line p-3" data-metric={key}>
                    <dt className="flex items-center gap-2 text-sm font-semibold text-ink-muted">
                      <RatingIcon rating={metric.rating} />
                      {LAB_METRIC_NAMES[key]}
                    </dt>
                    <dd className="mt-1 flex flex-wrap items-baseline gap-x-2">
                      <span className="text-2xl font-bold" style={{ color: BAND_COLOUR[metric.rating].text }}>
                        {metric.displayValue}
                      </span>
                      <span className="text-sm text-ink-muted">{RATING_TEXT[metric.rating]}</span>
                    </dd>
                  </div>
                );
              })}
            </dl>
          </Section>

          {result.lcpElement ? (
            <Section title="Largest Contentful Paint element">
              <p className="text-sm break-all">
                <code className="rounded bg-slate-100 px-1.5 py-0.5">{result.lcpElement.selector}</code>
              </p>
              {result.lcpElement.snippet ? (
                <pre className="mt-2 overflow-x-auto rounded bg-slate-100 p-2 text-xs whitespace-pre-wrap break-all">
                  {result.lcpElement.snippet}
                </pre>
              ) : null}
            </Section>
          ) : null}

          <Section title="Opportunities">
            {result.opportunities.length === 0 ? (
              <p className="text-sm text-ink-muted">None: Lighthouse estimates no savings.</p>
            ) : (
              <ul className="divide-y divide-line rounded-lg border border-line">
                {result.opportunities.slice(0, 6).map((item) => (
                  <li key={item.id} className="flex flex-wrap justify-between gap-2 px-3 py-2">
                    <span className="min-w-0 break-words">{item.title}</span>
                    <span className="font-semibold whitespace-nowrap text-[#b25200]">
                      Est. savings {savingsText(item.savingsMs, item.savingsBytes)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Section>

          {result.diagnostics.length > 0 ? (
            <Section title="Diagnostics">
              <ul className="divide-y divide-line rounded-lg border border-line">
                {result.diagnostics.slice(0, 8).map((item) => (
                  <li key={item.id} className="flex flex-wrap justify-between gap-2 px-3 py-2">
                    <span className="min-w-0 break-words">{item.title}</span>
                    {item.displayValue ? <span className="text-ink-muted">{item.displayValue}</span> : null}
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}

          {result.resources.length > 0 ? (
            <Section title="Requests and bytes by type">
              <div className="overflow-x-auto">
                <table className="w-full text-left text-sm">
                  <thead>
                    <tr className="border-b border-line text-ink-muted">
                      <th className="py-1.5 pr-4 font-semibold">Type</th>
                      <th className="py-1.5 pr-4 text-right font-semibold">Requests</th>
                      <th className="py-1.5 text-right font-semibold">Transferred</th>
                    </tr>
                  </thead>
                  <tbody>
                    {result.resources.map((row) => (
                      <tr
                        key={row.type}
                        className={
                          row.type === "total"
                            ? "border-b border-line font-semibold"
                            : "border-b border-line/60"
                        }
                      >
                        <td className="py-1.5 pr-4">{row.label || row.type}</td>
                        <td className="py-1.5 pr-4 text-right tabular-nums">{row.requests}</td>
                        <td className="py-1.5 text-right tabular-nums">
                          {formatBytes(row.bytes).replace(/ \(.*\)$/, "")}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </Section>
          ) : null}

          {frames.length > 0 ? (
            <Section title="Filmstrip">
              <ol className="flex gap-2 overflow-x-auto pb-2" aria-label="How the page loaded">
                {frames.map((frame) => (
                  <li key={frame.timingMs} className="flex shrink-0 flex-col items-center gap-1">
                    <img
                      src={frame.data}
                      alt={`The page at ${formatMs(frame.timingMs)}`}
                      className="h-24 w-auto rounded border border-line bg-white"
                      loading="lazy"
                    />
                    <span className="text-xs text-ink-muted tabular-nums">{formatMs(frame.timingMs)}</span>
                  </li>
                ))}
              </ol>
            </Section>
          ) : null}

          {screenshot ? (
            <Section title="Final screenshot">
              <img
                src={screenshot}
                alt="The page when it finished loading"
                className="max-h-96 w-auto max-w-full rounded border border-line"
                loading="lazy"
              />
            </Section>
          ) : null}

          {result.warnings.length > 0 ? (
            <Section title="Lighthouse warnings">
              <ul className="list-disc pl-6 text-sm">
                {result.warnings.map((warning) => (
                  <li key={warning} className="break-words">
                    {warning}
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}
        </>
      )}

      <Section title={`Blocked requests (${result.blockedCount})`}>
        {result.blocked.length === 0 ? (
          <p className="text-sm text-ink-muted">
            None: the page asked for no loopback, private or cloud metadata address.
          </p>
        ) : (
          <ul
            className="divide-y divide-line rounded-lg border border-line text-sm"
            data-testid="lab-blocked"
          >
            {result.blocked.map((entry, index) => (
              // The same URL can be refused twice (an image and a fetch); the position tells them apart.
              // biome-ignore lint/suspicious/noArrayIndexKey: entries have no identity beyond their place
              <li key={index} className="px-3 py-2">
                <p className="font-mono break-all">{entry.url}</p>
                <p className="text-ink-muted break-words">{entry.reason}</p>
              </li>
            ))}
          </ul>
        )}
      </Section>
    </div>
  );
}
