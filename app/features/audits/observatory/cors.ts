// Cross-origin resource sharing test. The reference (src/analyzer/tests/cors.js) sends only an
// OPTIONS preflight with a foreign Origin and looks at Access-Control-Allow-Origin on that one
// response. Servers that reflect the Origin with credentials often do it on the GET as well, or
// only there (many frameworks answer OPTIONS without CORS headers), so this test looks at both
// probes and keeps the worst: a reflected origin with credentials allowed lets any site read the
// page as the signed-in visitor.

import type { AuditIssue, FetchedResponse, ScanInput } from "../audit-types.ts";
import {
  CATEGORY,
  failureText,
  firstHeader,
  isFailure,
  type ObservatoryContext,
  quoted,
  type TestOutcome,
  verdict,
} from "./context.ts";
import type { ObservatoryResult } from "./score.ts";

type CorsProbe = {
  result: ObservatoryResult;
  allowOrigin: string | null;
  reflected: boolean;
  credentials: boolean;
};

/**
 * Whether Access-Control-Allow-Origin names the probe's own Origin. When the caller does not pass
 * the Origin it sent, any origin under the reserved `.example` TLD (RFC 2606) counts: the probes
 * use `https://<random>.example`, which no real site would allow deliberately.
 */
function isProbeOrigin(allowOrigin: string, probeOrigin: string | undefined): boolean {
  if (probeOrigin) return allowOrigin.toLowerCase() === probeOrigin.trim().toLowerCase();
  try {
    return new URL(allowOrigin).hostname.endsWith(".example");
  } catch {
    return false;
  }
}

export function classifyCors(response: FetchedResponse, probeOrigin?: string): CorsProbe {
  const raw = firstHeader(response, "access-control-allow-origin");
  const credentials =
    (firstHeader(response, "access-control-allow-credentials") ?? "").trim().toLowerCase() === "true";
  if (!raw)
    return {
      result: "cross-origin-resource-sharing-not-implemented",
      allowOrigin: null,
      reflected: false,
      credentials,
    };
  const allowOrigin = raw.slice(0, 256).trim();
  if (allowOrigin === "*")
    // Browsers refuse credentials with "*", so this is public access whatever the credentials header says.
    return {
      result: "cross-origin-resource-sharing-implemented-with-public-access",
      allowOrigin,
      reflected: false,
      credentials,
    };
  const reflected = isProbeOrigin(allowOrigin, probeOrigin);
  return {
    result:
      reflected && credentials
        ? "cross-origin-resource-sharing-implemented-with-universal-access"
        : "cross-origin-resource-sharing-implemented-with-restricted-access",
    allowOrigin,
    reflected,
    credentials,
  };
}

// Worst last; all but universal access score 0, the order only picks what to report.
const BEST_TO_WORST: ObservatoryResult[] = [
  "cross-origin-resource-sharing-not-implemented",
  "cross-origin-resource-sharing-implemented-with-public-access",
  "cross-origin-resource-sharing-implemented-with-restricted-access",
  "cross-origin-resource-sharing-implemented-with-universal-access",
];

const DESCRIPTIONS: Partial<Record<ObservatoryResult, string>> = {
  "cross-origin-resource-sharing-not-implemented":
    "Content is not visible via cross-origin resource sharing.",
  "cross-origin-resource-sharing-implemented-with-public-access":
    "Public content is visible cross-origin (Access-Control-Allow-Origin: *).",
  "cross-origin-resource-sharing-implemented-with-restricted-access":
    "Content is visible cross-origin, restricted to specific origins.",
  "cross-origin-resource-sharing-implemented-with-universal-access":
    "Any origin is allowed (the Origin is reflected) and credentials can be sent: other sites can read the page as the signed-in visitor.",
};

const PROBE_NAMES = ["preflight (OPTIONS)", "GET"] as const;

export function corsTest(input: ScanInput, context: ObservatoryContext): TestOutcome {
  const sent = [input.corsPreflight, input.corsGet];
  // Probes that did not complete (timed out, reset): their answer is unknown, not "no CORS".
  const failed = sent.flatMap((probe, index) =>
    isFailure(probe) ? [`the ${PROBE_NAMES[index]} probe (${failureText(probe)})`] : [],
  );
  const probes = sent
    .filter((probe): probe is FetchedResponse => probe !== undefined && !isFailure(probe))
    .map((probe) => classifyCors(probe, context.corsOrigin));
  let worst: CorsProbe = {
    result: "cross-origin-resource-sharing-not-implemented",
    allowOrigin: null,
    reflected: false,
    credentials: false,
  };
  for (const probe of probes)
    if (BEST_TO_WORST.indexOf(probe.result) > BEST_TO_WORST.indexOf(worst.result)) worst = probe;
  const universal = worst.result === "cross-origin-resource-sharing-implemented-with-universal-access";

  const issues: AuditIssue[] = [];
  if (universal)
    issues.push({
      id: "cors-origin-reflected-with-credentials",
      title: "Any website can read this site as the signed-in user",
      severity: "critical",
      category: CATEGORY.cors,
      description:
        "The server copies any request's Origin into Access-Control-Allow-Origin and sends Access-Control-Allow-Credentials: true, so a page on any other site can make credentialed requests and read the responses (account data, CSRF tokens).",
      remediation:
        "Compare the Origin against an explicit allow-list before echoing it (and add `Vary: Origin`); for public data send `Access-Control-Allow-Origin: *` without Access-Control-Allow-Credentials; otherwise send no CORS headers.",
    });
  else if (probes.some((probe) => probe.reflected))
    issues.push({
      id: "cors-origin-reflected",
      title: "Origin reflected in Access-Control-Allow-Origin",
      severity: "low",
      category: CATEGORY.cors,
      description:
        "The server allows any Origin by echoing it back. Without credentials this equals `*`, but it becomes critical the day Access-Control-Allow-Credentials is added.",
      remediation:
        "Use an explicit allow-list of origins, or `Access-Control-Allow-Origin: *` if the content is public.",
    });
  const unchecked = failed.length > 0 && failed.length === sent.filter(Boolean).length;
  if (failed.length > 0 && !universal)
    issues.push({
      id: "cors-unchecked",
      title: unchecked ? "CORS could not be checked" : "CORS only partly checked",
      severity: "info",
      category: CATEGORY.cors,
      description: `${quoted(failed.join("; "))} did not complete, so whether other sites can read this page ${unchecked ? "is unknown" : "was judged from the other probe alone"}.`,
      remediation:
        "Run the audit again; if it keeps failing, check that the page answers OPTIONS and GET requests quickly.",
    });
  return {
    test: verdict(
      "cross-origin-resource-sharing",
      worst.result,
      !universal,
      unchecked
        ? "Could not be checked: the CORS probes did not complete."
        : (DESCRIPTIONS[worst.result] ?? worst.result),
    ),
    issues,
  };
}
