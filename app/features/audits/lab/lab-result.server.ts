import {
  type BlockedRequest,
  isSafeImageDataUrl,
  type LabDevice,
  type LabDiagnostic,
  type LabFrame,
  type LabMetric,
  type LabMetricKey,
  type LabOpportunity,
  type LabRating,
  type LabResourceRow,
  type LabResult,
  MAX_FRAME_CHARS,
  MAX_FRAMES,
  MAX_SCREENSHOT_CHARS,
} from "./lab-types.ts";

// Reads a Lighthouse result (LHR) into the lab check's result. Runs in the lab child process (the
// LHR is several MB); only the small LabResult crosses to the server. Every field is read as
// untrusted: a hostile page shapes selectors, snippets and titles, so they are strings, cut short.

type LhAudit = {
  id?: string;
  title?: string;
  score?: number | null;
  scoreDisplayMode?: string;
  displayValue?: string;
  numericValue?: number;
  metricSavings?: Record<string, number | undefined>;
  details?: Record<string, unknown>;
};
type LhCategory = { score: number | null; auditRefs: { id: string; weight: number; group?: string }[] };
export type Lhr = {
  lighthouseVersion?: string;
  requestedUrl?: string;
  finalDisplayedUrl?: string;
  fetchTime?: string;
  runWarnings?: string[];
  runtimeError?: { code: string; message: string };
  categories: Record<string, LhCategory | undefined>;
  audits: Record<string, LhAudit | undefined>;
};

const METRIC_AUDITS: Record<LabMetricKey, string> = {
  fcp: "first-contentful-paint",
  lcp: "largest-contentful-paint",
  tbt: "total-blocking-time",
  cls: "cumulative-layout-shift",
  speedIndex: "speed-index",
  // The observed response time of the main document (Lighthouse's "server response time").
  ttfb: "server-response-time",
};

/** web.dev's TTFB thresholds: Lighthouse gives this audit no graded score of its own. */
const TTFB_GOOD_MS = 800;
const TTFB_POOR_MS = 1800;

const text = (value: unknown, max = 200): string => {
  if (typeof value !== "string") return "";
  const flat = value.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const finite = (value: unknown): number => (typeof value === "number" && Number.isFinite(value) ? value : 0);

/** As PageSpeed Insights colours a lab metric: by the audit's score (>= 0.9 good, >= 0.5 needs improvement). */
export function ratingOfScore(score: number | null | undefined): LabRating {
  if (typeof score !== "number") return "poor";
  if (score >= 0.9) return "good";
  if (score >= 0.5) return "needs-improvement";
  return "poor";
}

export function ratingOfTtfb(ms: number): LabRating {
  if (ms <= TTFB_GOOD_MS) return "good";
  if (ms <= TTFB_POOR_MS) return "needs-improvement";
  return "poor";
}

function metric(lhr: Lhr, key: LabMetricKey): LabMetric {
  const audit = lhr.audits[METRIC_AUDITS[key]];
  const value = finite(audit?.numericValue);
  const rating = key === "ttfb" ? ratingOfTtfb(value) : ratingOfScore(audit?.score);
  const displayValue =
    key === "ttfb" ? `${Math.round(value).toLocaleString("en-GB")} ms` : text(audit?.displayValue, 40);
  return { value, displayValue, rating };
}

function lcpElement(lhr: Lhr): LabResult["lcpElement"] {
  const items = (lhr.audits["lcp-breakdown-insight"]?.details?.items ?? []) as Record<string, unknown>[];
  const node = Array.isArray(items) ? items.find((item) => item?.type === "node") : undefined;
  if (!node) return null;
  return { selector: text(node.selector, 300), snippet: text(node.snippet, 300) };
}

function savingsOf(audit: LhAudit): { ms: number; bytes: number } {
  const details = audit.details ?? {};
  const metricMs = Math.max(finite(audit.metricSavings?.LCP), finite(audit.metricSavings?.FCP));
  return {
    ms: Math.round(Math.max(finite(details.overallSavingsMs), metricMs)),
    bytes: Math.round(finite(details.overallSavingsBytes)),
  };
}

const NOT_SHOWN = new Set(["manual", "notApplicable", "informative", "error", "hidden"]);

/** Insights and diagnostics that fail Lighthouse's 0.9 bar: with savings, opportunities; else diagnostics. */
function findings(lhr: Lhr): { opportunities: LabOpportunity[]; diagnostics: LabDiagnostic[] } {
  const opportunities: LabOpportunity[] = [];
  const diagnostics: LabDiagnostic[] = [];
  for (const ref of lhr.categories.performance?.auditRefs ?? []) {
    if (ref.group !== "insights" && ref.group !== "diagnostics") continue;
    const audit = lhr.audits[ref.id];
    if (!audit || NOT_SHOWN.has(audit.scoreDisplayMode ?? "")) continue;
    if (typeof audit.score !== "number" || audit.score >= 0.9) continue;
    const savings = savingsOf(audit);
    const title = text(audit.title, 160);
    if (savings.ms > 0 || savings.bytes > 0)
      opportunities.push({ id: ref.id, title, savingsMs: savings.ms, savingsBytes: savings.bytes });
    else diagnostics.push({ id: ref.id, title, displayValue: text(audit.displayValue, 120) });
  }
  opportunities.sort((a, b) => b.savingsMs - a.savingsMs || b.savingsBytes - a.savingsBytes);
  return { opportunities: opportunities.slice(0, 10), diagnostics: diagnostics.slice(0, 10) };
}

function resources(lhr: Lhr): LabResourceRow[] {
  const items = lhr.audits["resource-summary"]?.details?.items;
  if (!Array.isArray(items)) return [];
  const rows = items.slice(0, 20).map((item: Record<string, unknown>) => ({
    type: text(item.resourceType, 40),
    label: text(item.label, 40),
    requests: finite(item.requestCount),
    bytes: finite(item.transferSize),
  }));
  // Types the page did not request are left out (PSI lists them as zeros).
  return rows
    .filter((row) => row.type === "total" || row.requests > 0)
    .sort((a, b) => (a.type === "total" ? -1 : b.type === "total" ? 1 : b.bytes - a.bytes));
}

function screenshots(lhr: Lhr): { finalScreenshot: string | null; filmstrip: LabFrame[] } {
  const final = lhr.audits["final-screenshot"]?.details?.data;
  const frames = lhr.audits["screenshot-thumbnails"]?.details?.items;
  const filmstrip = (Array.isArray(frames) ? frames : [])
    .filter((frame: Record<string, unknown>) => isSafeImageDataUrl(frame?.data, MAX_FRAME_CHARS))
    .slice(0, MAX_FRAMES)
    .map((frame: Record<string, unknown>) => ({
      timingMs: Math.round(finite(frame.timing)),
      data: frame.data as string,
    }));
  return {
    finalScreenshot: isSafeImageDataUrl(final, MAX_SCREENSHOT_CHARS) ? final : null,
    filmstrip,
  };
}

export function emptyMetrics(): Record<LabMetricKey, LabMetric> {
  const none = (): LabMetric => ({ value: 0, displayValue: "–", rating: "poor" });
  return { fcp: none(), lcp: none(), tbt: none(), cls: none(), speedIndex: none(), ttfb: none() };
}

/** What a run that measured nothing shows: a zero score, no metrics, no findings, no pictures. */
export function nothingMeasured() {
  return {
    score: 0,
    metrics: emptyMetrics(),
    lcpElement: null,
    opportunities: [],
    diagnostics: [],
    resources: [],
    finalScreenshot: null,
    filmstrip: [],
  } satisfies Partial<LabResult>;
}

export type RunContext = {
  url: string;
  device: LabDevice;
  blocked: BlockedRequest[];
  blockedCount: number;
};

/** A measured page; when Lighthouse itself reports a runtime error (page not loaded), `error` is set. */
export function labResultFromLhr(lhr: Lhr, run: RunContext): LabResult {
  const base = {
    url: run.url,
    finalUrl: text(lhr.finalDisplayedUrl, 2000) || run.url,
    device: run.device,
    fetchedAt: text(lhr.fetchTime, 40) || new Date().toISOString(),
    lighthouseVersion: text(lhr.lighthouseVersion, 20),
    blocked: run.blocked,
    blockedCount: run.blockedCount,
    warnings: (lhr.runWarnings ?? []).slice(0, 10).map((warning) => text(warning, 300)),
  };
  const score = lhr.categories.performance?.score;
  if (lhr.runtimeError || typeof score !== "number") {
    return {
      ...base,
      ...nothingMeasured(),
      error: "The page could not be loaded",
      details: text(lhr.runtimeError?.message, 500) || "Lighthouse could not measure the page.",
    };
  }
  const metrics = Object.fromEntries(
    (Object.keys(METRIC_AUDITS) as LabMetricKey[]).map((key) => [key, metric(lhr, key)]),
  ) as Record<LabMetricKey, LabMetric>;
  return {
    ...base,
    score: Math.round(score * 100),
    metrics,
    lcpElement: lcpElement(lhr),
    ...findings(lhr),
    resources: resources(lhr),
    ...screenshots(lhr),
  };
}
