// The shapes the website audits pass between their parts (issue 5): the safe fetcher produces
// FetchedResponse/FetchChain, the Observatory-style analysers read a ScanInput and produce an
// AuditResult, the performance check produces a PerformanceResult. Shared by server and browser
// (the admin page renders stored results), so types only.

/** One HTTP response as fetched from a checked address (one hop of a redirect chain). */
export type FetchedResponse = {
  url: string;
  status: number;
  /** Raw header pairs in order, names lower-cased; repeated headers (Set-Cookie) stay separate. */
  headers: [string, string][];
  /** The decoded body as text, cut at the fetcher's size limit (empty for redirects and HEAD). */
  body: string;
  bodyTruncated: boolean;
  /** "1.1" or "2" (HTTP/2 when the server chose h2 by ALPN). */
  httpVersion: string;
  /** The address actually connected to (after the SSRF checks). */
  remoteAddress: string;
  tls?: TlsDetails;
  timings: Timings;
  /** Bytes on the wire for the body (compressed) and after decoding. */
  transferredBytes: number;
  decodedBytes: number;
  /** Content-Encoding of the response: "br", "gzip", "zstd", "deflate" or "identity". */
  encoding: string;
};

export type TlsDetails = {
  protocol: string | null;
  cipher: string | null;
  alpnProtocol: string | null;
  /** Whether the certificate chain was trusted and matched the host name. */
  authorized: boolean;
  authorizationError: string | null;
  subject: string | null;
  issuer: string | null;
  validFrom: string | null;
  validTo: string | null;
  daysRemaining: number | null;
};

/** Milliseconds; null when the phase did not happen (no DNS for an IP literal, no TLS over HTTP). */
export type Timings = {
  dnsMs: number | null;
  connectMs: number | null;
  tlsMs: number | null;
  ttfbMs: number;
  downloadMs: number;
  totalMs: number;
};

/** The hops of a fetch that followed redirects one at a time; the last one is the final response. */
export type FetchChain = { hops: FetchedResponse[]; final: FetchedResponse };

export type FetchFailure = { error: string; details: string };

/** Everything the Observatory-style analysers look at, fetched beforehand by the audit runner. */
export type ScanInput = {
  /** The URL the user asked for, normalised. */
  url: string;
  /** Fetch of http://host/… (for redirection to HTTPS), or why it failed. */
  http: FetchChain | FetchFailure;
  /** Fetch of https://host/…, or why it failed (the main response when it worked). */
  https: FetchChain | FetchFailure;
  /** GET of the final URL with `Origin: https://<random>.example` (origin reflection). */
  corsGet?: FetchedResponse | FetchFailure;
  /** OPTIONS preflight of the final URL from a foreign origin. */
  corsPreflight?: FetchedResponse | FetchFailure;
  /** GET /.well-known/security.txt on the final origin. */
  securityTxt?: FetchedResponse | FetchFailure;
  /** GET /robots.txt on the final origin: more Set-Cookie headers to judge, as the reference gathers. */
  robotsTxt?: FetchChain | FetchFailure;
};

export type Severity = "critical" | "high" | "medium" | "low" | "info";

/** SPEC section 3: an audit issue. */
export type AuditIssue = {
  id: string;
  title: string;
  severity: Severity;
  category: string;
  description: string;
  remediation?: string;
};

/** One Observatory test's verdict (e.g. csp → "csp-implemented-with-unsafe-inline", -20). */
export type TestResult = {
  name: string;
  result: string;
  scoreModifier: number;
  pass: boolean;
  description: string;
};

export type Grade = "A+" | "A" | "A-" | "B+" | "B" | "B-" | "C+" | "C" | "C-" | "D+" | "D" | "D-" | "F";

/** SPEC section 3's audit record, plus the Observatory details. */
export type AuditResult = {
  url: string;
  /** 0-100: the Observatory score capped at 100. */
  score: number;
  /** The Observatory score before capping (may exceed 100 with extra credit). */
  uncappedScore: number;
  grade: Grade;
  /** The HTTP Observatory scoring algorithm version the score follows (see observatory/score.ts). */
  algorithmVersion: number;
  tests: TestResult[];
  issues: AuditIssue[];
};

/** SPEC section 3's performance check result, plus the network details (issue 5). */
export type PerformanceResult = {
  url: string;
  /** Median total time of 3 runs, in ms. */
  loadTime: number;
  status: number;
  /** Decoded body size in bytes. */
  contentLength: number;
  hasCompression: boolean;
  serverType: string;
  error?: string;
  details?: string;
  compression?: string;
  transferredBytes?: number;
  httpVersion?: string;
  http2Offered?: boolean;
  redirects?: { url: string; status: number }[];
  timings?: Timings;
  cacheControl?: string | null;
  runs?: number[];
};
