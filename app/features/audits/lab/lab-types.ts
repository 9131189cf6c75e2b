// The lab check's result (issue 25): what Lighthouse's performance category says of a page loaded in
// headless Chromium, as PageSpeed Insights shows it. Browser-safe: the card, the API and the
// watches read these types.

export const LAB_DEVICES = ["mobile", "desktop"] as const;
export type LabDevice = (typeof LAB_DEVICES)[number];

export type LabRating = "good" | "needs-improvement" | "poor";

export type LabMetric = {
  /** Milliseconds, except CLS (unitless). */
  value: number;
  /** Lighthouse's own text ("1.2 s", "0.05"). */
  displayValue: string;
  rating: LabRating;
};

export const LAB_METRIC_KEYS = ["fcp", "lcp", "tbt", "cls", "speedIndex", "ttfb"] as const;
export type LabMetricKey = (typeof LAB_METRIC_KEYS)[number];

export const LAB_METRIC_NAMES: Record<LabMetricKey, string> = {
  fcp: "First Contentful Paint",
  lcp: "Largest Contentful Paint",
  tbt: "Total Blocking Time",
  cls: "Cumulative Layout Shift",
  speedIndex: "Speed Index",
  ttfb: "Time to First Byte",
};

export type LabOpportunity = { id: string; title: string; savingsMs: number; savingsBytes: number };
export type LabDiagnostic = { id: string; title: string; displayValue: string };
export type LabResourceRow = { type: string; label: string; requests: number; bytes: number };
export type LabFrame = { timingMs: number; data: string };
/** A request the browser made that the traffic guard refused (loopback, metadata, private…). */
export type BlockedRequest = { url: string; reason: string };

export type LabProxyStats = {
  connections: number;
  upstreamSockets: number;
  bytes: number;
  waits: {
    requests: { count: number; p50: number; p95: number };
    tunnels: { count: number; p50: number; p95: number };
  };
};

export type LabResult = {
  url: string;
  finalUrl: string;
  device: LabDevice;
  fetchedAt: string;
  lighthouseVersion: string;
  /** Performance score 0-100; 0 with `error` set when the page could not be measured. */
  score: number;
  metrics: Record<LabMetricKey, LabMetric>;
  lcpElement: { selector: string; snippet: string } | null;
  /** Largest estimated savings first. */
  opportunities: LabOpportunity[];
  diagnostics: LabDiagnostic[];
  /** Bytes transferred and requests by resource type; "total" first. */
  resources: LabResourceRow[];
  /** data:image/jpeg;base64 of the page when loaded, or null when too large to keep. */
  finalScreenshot: string | null;
  filmstrip: LabFrame[];
  blocked: BlockedRequest[];
  /** How many requests were refused in all (`blocked` lists the first 100). */
  blockedCount: number;
  /**
   * What the traffic guard did for the run (absent in results stored before it was kept): requests
   * and tunnels it let through or refused, TCP connections it opened to targets, and its waits
   * (request arrival to the target's response headers; CONNECT to its 200), in ms.
   */
  proxy?: LabProxyStats;
  /** Lighthouse's warnings about the run (redirects, slow CPU…). */
  warnings: string[];
  error?: string;
  details?: string;
};

/** Only JPEG or PNG data URLs of plain base64 are ever put in an <img>. */
const IMAGE_DATA_URL = /^data:image\/(?:jpeg|png|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/** Largest image kept or shown: the final screenshot (~40-120 KB) and each filmstrip frame (~5-20 KB). */
export const MAX_SCREENSHOT_CHARS = 300_000;
export const MAX_FRAME_CHARS = 60_000;
export const MAX_FRAMES = 10;

/** Whether `data` is a base64 image data URL of at most `maxChars` characters, safe for <img src>. */
export function isSafeImageDataUrl(data: unknown, maxChars: number): data is string {
  return typeof data === "string" && data.length <= maxChars && IMAGE_DATA_URL.test(data);
}

/** PageSpeed Insights' colours for the score: 0-49 red, 50-89 orange, 90-100 green. */
export function scoreBand(score: number): LabRating {
  if (score >= 90) return "good";
  if (score >= 50) return "needs-improvement";
  return "poor";
}
