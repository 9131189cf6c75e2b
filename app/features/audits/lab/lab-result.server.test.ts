import { describe, expect, it } from "vitest";
import { type Lhr, labResultFromLhr, ratingOfScore, ratingOfTtfb } from "./lab-result.server.ts";
import { isSafeImageDataUrl, scoreBand } from "./lab-types.ts";

// How a Lighthouse result becomes what the card shows: ratings by Lighthouse's scores (as PageSpeed
// Insights colours them), findings sorted by savings, and nothing from the page's own output that is
// unsafe to put in an <img>.

const JPEG = "data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==";
const run = { url: "https://example.com/", device: "mobile" as const, blocked: [], blockedCount: 0 };

function lhr(overrides: Partial<Lhr> = {}): Lhr {
  const metric = (score: number, numericValue: number, displayValue: string) => ({
    score,
    numericValue,
    displayValue,
    scoreDisplayMode: "numeric",
  });
  return {
    lighthouseVersion: "13.5.0",
    finalDisplayedUrl: "https://example.com/home",
    fetchTime: "2026-11-27T16:00:00.000Z",
    categories: {
      performance: {
        score: 0.734,
        auditRefs: [
          { id: "render-blocking-insight", weight: 0, group: "insights" },
          { id: "image-delivery-insight", weight: 0, group: "insights" },
          { id: "dom-size-insight", weight: 0, group: "insights" },
          { id: "unused-javascript", weight: 0, group: "diagnostics" },
          { id: "bootup-time", weight: 0, group: "diagnostics" },
          { id: "viewport-insight", weight: 0, group: "insights" },
        ],
      },
    },
    audits: {
      "first-contentful-paint": metric(0.95, 900, "0.9 s"),
      "largest-contentful-paint": metric(0.6, 3100, "3.1 s"),
      "total-blocking-time": metric(0.2, 900, "900 ms"),
      "cumulative-layout-shift": metric(1, 0.01, "0.01"),
      "speed-index": metric(0.5, 4000, "4.0 s"),
      "server-response-time": { score: 1, numericValue: 1200, displayValue: "Root document took 1,200 ms" },
      "render-blocking-insight": {
        title: "Render blocking requests",
        score: 0,
        scoreDisplayMode: "metricSavings",
        metricSavings: { FCP: 300, LCP: 450 },
      },
      "image-delivery-insight": {
        title: "Improve image delivery",
        score: 0.5,
        scoreDisplayMode: "metricSavings",
        metricSavings: { LCP: 0 },
        details: { overallSavingsBytes: 120_000 },
      },
      "dom-size-insight": {
        title: "Optimize DOM size",
        score: 0,
        scoreDisplayMode: "numeric",
        displayValue: "",
      },
      "unused-javascript": { title: "Reduce unused JavaScript", score: 1, scoreDisplayMode: "metricSavings" },
      "bootup-time": {
        title: "Reduce JavaScript execution time",
        score: 0.3,
        scoreDisplayMode: "numeric",
        displayValue: "2.1 s",
      },
      "viewport-insight": { title: "Viewport", score: null, scoreDisplayMode: "notApplicable" },
      "lcp-breakdown-insight": {
        details: { items: [{ type: "node", selector: "main > h1", snippet: '<h1 class="hero">' }] },
      },
      "resource-summary": {
        details: {
          items: [
            { resourceType: "document", label: "Document", requestCount: 1, transferSize: 2_000 },
            { resourceType: "total", label: "Total", requestCount: 5, transferSize: 90_000 },
            { resourceType: "script", label: "Script", requestCount: 4, transferSize: 88_000 },
            { resourceType: "font", label: "Font", requestCount: 0, transferSize: 0 },
          ],
        },
      },
      "final-screenshot": { details: { data: JPEG } },
      "screenshot-thumbnails": {
        details: {
          items: [
            { timing: 300, data: JPEG },
            { timing: 600, data: "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=" },
            { timing: 900, data: `javascript:alert(1)//${JPEG}` },
          ],
        },
      },
    },
    ...overrides,
  };
}

describe("labResultFromLhr", () => {
  it("reads the score, the six metrics with their ratings, the LCP element and the resources", () => {
    const result = labResultFromLhr(lhr(), run);
    expect(result.score).toBe(73);
    expect(result.finalUrl).toBe("https://example.com/home");
    expect(result.lighthouseVersion).toBe("13.5.0");
    expect(result.metrics).toEqual({
      fcp: { value: 900, displayValue: "0.9 s", rating: "good" },
      lcp: { value: 3100, displayValue: "3.1 s", rating: "needs-improvement" },
      tbt: { value: 900, displayValue: "900 ms", rating: "poor" },
      cls: { value: 0.01, displayValue: "0.01", rating: "good" },
      speedIndex: { value: 4000, displayValue: "4.0 s", rating: "needs-improvement" },
      // TTFB by web.dev's thresholds (Lighthouse grades it pass/fail only).
      ttfb: { value: 1200, displayValue: "1,200 ms", rating: "needs-improvement" },
    });
    expect(result.lcpElement).toEqual({ selector: "main > h1", snippet: '<h1 class="hero">' });
    expect(result.resources).toEqual([
      { type: "total", label: "Total", requests: 5, bytes: 90_000 },
      { type: "script", label: "Script", requests: 4, bytes: 88_000 },
      { type: "document", label: "Document", requests: 1, bytes: 2_000 },
    ]);
  });

  it("lists failing insights with savings as opportunities, largest first, the rest as diagnostics", () => {
    const result = labResultFromLhr(lhr(), run);
    expect(result.opportunities).toEqual([
      { id: "render-blocking-insight", title: "Render blocking requests", savingsMs: 450, savingsBytes: 0 },
      { id: "image-delivery-insight", title: "Improve image delivery", savingsMs: 0, savingsBytes: 120_000 },
    ]);
    expect(result.diagnostics).toEqual([
      { id: "dom-size-insight", title: "Optimize DOM size", displayValue: "" },
      { id: "bootup-time", title: "Reduce JavaScript execution time", displayValue: "2.1 s" },
    ]);
  });

  it("keeps only base64 JPEG/PNG/WebP data URLs of bounded size as images", () => {
    const result = labResultFromLhr(lhr(), run);
    expect(result.finalScreenshot).toBe(JPEG);
    expect(result.filmstrip).toEqual([{ timingMs: 300, data: JPEG }]);
    expect(isSafeImageDataUrl(`data:image/jpeg;base64,${"A".repeat(400_000)}`, 300_000)).toBe(false);
    expect(isSafeImageDataUrl('data:image/jpeg;base64,AAAA"onerror="x', 300_000)).toBe(false);
  });

  it("says the page could not be loaded when Lighthouse reports a runtime error", () => {
    const result = labResultFromLhr(
      lhr({
        runtimeError: {
          code: "ERRORED_DOCUMENT_REQUEST",
          message: "Lighthouse was unable to reliably load the page (Status code: 502)",
        },
        categories: { performance: { score: null, auditRefs: [] } },
      }),
      run,
    );
    expect(result.error).toBe("The page could not be loaded");
    expect(result.details).toContain("Status code: 502");
    expect(result.score).toBe(0);
  });
});

describe("ratings", () => {
  it("rates a metric by its Lighthouse score and the score by PageSpeed's bands", () => {
    expect([0.9, 0.89, 0.5, 0.49, null].map(ratingOfScore)).toEqual([
      "good",
      "needs-improvement",
      "needs-improvement",
      "poor",
      "poor",
    ]);
    expect([800, 801, 1800, 1801].map(ratingOfTtfb)).toEqual([
      "good",
      "needs-improvement",
      "needs-improvement",
      "poor",
    ]);
    expect([100, 90, 89, 50, 49, 0].map(scoreBand)).toEqual([
      "good",
      "good",
      "needs-improvement",
      "needs-improvement",
      "poor",
      "poor",
    ]);
  });
});
