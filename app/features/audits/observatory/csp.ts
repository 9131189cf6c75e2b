// Content Security Policy test: parses the policies sent in headers and <meta http-equiv> tags
// and grades the effective policy the way the reference does (mdn/mdn-http-observatory
// src/analyzer/tests/csp.js and cspParser.js): the first of its checks that fails decides the
// result, the others still raise issues.

import type { AuditIssue, ScanInput } from "../audit-types.ts";
import { CATEGORY, headerValues, type ObservatoryContext, type TestOutcome, verdict } from "./context.ts";
import type { ObservatoryResult } from "./score.ts";

export type CspDirectives = Map<string, Set<string>>;
export type ParsedCsp = { directives: CspDirectives; duplicateReporting: boolean };

export class CspParseError extends Error {}

// The shortest useful policy is "img-src" minus one character; anything shorter is malformed.
const MINIMUM_POLICY_LENGTH = "img-src".length - 1;
/** Browsers ignore these in a <meta> policy (HTML spec, CSP3 §"frame-ancestors"). */
const DIRECTIVES_IGNORED_IN_META = new Set(["frame-ancestors", "report-uri", "sandbox"]);
/** Repeating these is tolerated (reported, not an error); any other repeat makes the policy invalid. */
const REPEATABLE_DIRECTIVES = new Set(["report-uri", "report-to"]);

/** Sources that allow script or plugins from practically anywhere. */
export const DANGEROUSLY_BROAD = new Set([
  "ftp:",
  "http:",
  "https:",
  "*",
  "http://*",
  "http://*.*",
  "https://*",
  "https://*.*",
]);
const UNSAFE_INLINE = new Set(["'unsafe-inline'", "data:"]);
const isBroadOrInline = (source: string) => DANGEROUSLY_BROAD.has(source) || UNSAFE_INLINE.has(source);
const NONCE_OR_HASH = ["'sha256-", "'sha384-", "'sha512-", "'nonce-"];
const hasNonceOrHash = (sources: Iterable<string>) =>
  [...sources].some((source) => NONCE_OR_HASH.some((prefix) => source.startsWith(prefix)));
const isInsecureScheme = (source: string) => source.startsWith("http:") || source.startsWith("ftp:");

/** Splits header values into policies: commas separate policies and cannot occur inside one. */
export function splitPolicies(values: readonly string[]): string[] {
  return values.flatMap((value) => value.split(",").map((policy) => policy.trim()));
}

function parsePolicy(raw: string, fromMeta: boolean): ParsedCsp {
  const policy = raw.replace(/[\r\n]/g, "").trim();
  if (policy.length < MINIMUM_POLICY_LENGTH) throw new CspParseError(`Invalid policy: "${policy}"`);
  const directives: CspDirectives = new Map();
  let duplicateReporting = false;
  for (const entry of policy.split(";")) {
    const [name, ...values] = entry.trim().split(/\s+/).filter(Boolean);
    if (!name) continue;
    const directive = name.toLowerCase();
    if (directives.has(directive)) {
      // Browsers use the first occurrence; the reference calls the policy invalid so people notice.
      if (!REPEATABLE_DIRECTIVES.has(directive)) throw new CspParseError(`Duplicate directive ${directive}`);
      duplicateReporting = true;
      continue;
    }
    const sources = values.map((value) => value.toLowerCase());
    directives.set(directive, new Set(sources.length > 0 ? sources : ["'none'"]));
  }
  if (fromMeta) for (const directive of DIRECTIVES_IGNORED_IN_META) directives.delete(directive);
  return { directives, duplicateReporting };
}

/**
 * Parses one or more policies into the effective one. Every policy is enforced, so a later policy
 * can only narrow what an earlier one allows: its sources are intersected with the earlier
 * directive (or with default-src for a fetch directive the earlier policy left to the default).
 */
export function parseCsp(
  policies: readonly string[],
  options: { fromMeta?: readonly boolean[] } = {},
): ParsedCsp {
  const effective: CspDirectives = new Map();
  let duplicateReporting = false;
  policies.forEach((raw, index) => {
    const parsed = parsePolicy(raw, options.fromMeta?.[index] ?? false);
    duplicateReporting ||= parsed.duplicateReporting;
    for (const [directive, sources] of parsed.directives) {
      const earlier =
        index === 0
          ? undefined
          : (effective.get(directive) ??
            (directive.endsWith("-src") ? effective.get("default-src") : undefined));
      if (!earlier) {
        effective.set(directive, new Set(sources));
        continue;
      }
      const both = [...sources].filter((source) => earlier.has(source));
      effective.set(directive, new Set(both.length > 0 ? both : ["'none'"]));
    }
  });
  return { directives: effective, duplicateReporting };
}

/** The header-only frame-ancestors sources (a <meta> frame-ancestors is ignored by browsers). */
export function headerFrameAncestors(context: ObservatoryContext): Set<string> | null {
  try {
    return (
      parseCsp(splitPolicies(headerValues(context.response, "content-security-policy"))).directives.get(
        "frame-ancestors",
      ) ?? null
    );
  } catch {
    return null;
  }
}

export type CspAnalysis = {
  result: ObservatoryResult;
  directives: CspDirectives | null;
  flags: {
    strictDynamicWithoutNonce: boolean;
    unsafeInlineScript: boolean;
    dataScript: boolean;
    broadScript: boolean;
    noScriptRestriction: boolean;
    broadObject: boolean;
    insecureSchemeActive: boolean;
    unsafeEval: boolean;
    insecureSchemePassive: boolean;
    unsafeStyle: boolean;
    defaultNone: boolean;
    insecureBaseUri: boolean;
    insecureFormAction: boolean;
  } | null;
  error?: string;
};

const PASSING: ReadonlySet<ObservatoryResult> = new Set([
  "csp-implemented-with-no-unsafe",
  "csp-implemented-with-no-unsafe-default-src-none",
  "csp-implemented-with-unsafe-inline-in-style-src-only",
  "csp-implemented-with-insecure-scheme-in-passive-content-only",
  "csp-implemented-but-duplicate-directives",
]);

export function analyseCsp(context: ObservatoryContext): CspAnalysis {
  const headerPolicies = splitPolicies(headerValues(context.response, "content-security-policy"));
  const metaPolicies = context.isHtml && context.html ? splitPolicies(context.html.metaCsp) : [];

  let parsed: ParsedCsp;
  try {
    parsed = parseCsp([...headerPolicies, ...metaPolicies], {
      fromMeta: [...headerPolicies.map(() => false), ...metaPolicies.map(() => true)],
    });
  } catch (error) {
    return { result: "csp-header-invalid", directives: null, flags: null, error: (error as Error).message };
  }
  const csp = parsed.directives;
  if (csp.size === 0) {
    // Report-Only is only honoured as a header, never in <meta>.
    const reportOnly = headerValues(context.response, "content-security-policy-report-only").length > 0;
    return {
      result: reportOnly ? "csp-not-implemented-but-reporting-enabled" : "csp-not-implemented",
      directives: null,
      flags: null,
    };
  }

  const fallback = (directive: string) => new Set(csp.get(directive) ?? csp.get("default-src") ?? ["*"]);
  const scriptSrc = fallback("script-src");
  const objectSrc = fallback("object-src");
  const styleSrc = fallback("style-src");
  const noScriptRestriction = !csp.has("script-src") && !csp.has("default-src");

  // A nonce or hash makes browsers ignore 'unsafe-inline' (it is kept only for old browsers).
  const unsafeInlineScript = scriptSrc.has("'unsafe-inline'") && !hasNonceOrHash(scriptSrc);
  if (hasNonceOrHash(scriptSrc)) scriptSrc.delete("'unsafe-inline'");
  if (hasNonceOrHash(styleSrc)) styleSrc.delete("'unsafe-inline'");

  // 'strict-dynamic' with a nonce or hash makes browsers ignore host and scheme sources, 'self'
  // and 'unsafe-inline'; without one it blocks every script, which the reference calls invalid.
  let strictDynamicWithoutNonce = false;
  if (scriptSrc.has("'strict-dynamic'")) {
    if (hasNonceOrHash(scriptSrc)) {
      for (const source of [...scriptSrc]) {
        const ignored = [...DANGEROUSLY_BROAD].some((broad) => source.startsWith(broad));
        if (ignored || source === "'self'" || source === "'unsafe-inline'") scriptSrc.delete(source);
      }
    } else {
      strictDynamicWithoutNonce = true;
    }
  }

  const passiveDirectives = ["img-src", "media-src"];
  const activeSources = [
    ...[...csp]
      .filter(([name]) => !passiveDirectives.includes(name) && name !== "script-src")
      .flatMap(([, s]) => [...s]),
    ...scriptSrc,
  ];
  const passiveSources = passiveDirectives.flatMap((name) => [
    ...(csp.get(name) ?? csp.get("default-src") ?? []),
  ]);
  const secure = context.url.protocol === "https:";
  const defaultSrc = csp.get("default-src");

  const flags = {
    strictDynamicWithoutNonce,
    unsafeInlineScript,
    dataScript: scriptSrc.has("data:"),
    broadScript: [...scriptSrc].some((source) => DANGEROUSLY_BROAD.has(source)),
    noScriptRestriction,
    broadObject: [...objectSrc].some((source) => DANGEROUSLY_BROAD.has(source)),
    insecureSchemeActive: secure && activeSources.some(isInsecureScheme),
    unsafeEval: scriptSrc.has("'unsafe-eval'") || styleSrc.has("'unsafe-eval'"),
    insecureSchemePassive: secure && passiveSources.some(isInsecureScheme),
    unsafeStyle: [...styleSrc].some(isBroadOrInline),
    defaultNone: defaultSrc?.size === 1 && defaultSrc.has("'none'"),
    insecureBaseUri: [...(csp.get("base-uri") ?? ["*"])].some(isBroadOrInline),
    insecureFormAction: [...(csp.get("form-action") ?? ["*"])].some((source) =>
      DANGEROUSLY_BROAD.has(source),
    ),
  };

  // Order matters: the first failing check is the verdict, as in the reference.
  let result: ObservatoryResult;
  if (flags.strictDynamicWithoutNonce) result = "csp-header-invalid";
  else if ([...scriptSrc].some(isBroadOrInline) || flags.broadObject)
    result = "csp-implemented-with-unsafe-inline";
  else if (flags.insecureSchemeActive) result = "csp-implemented-with-insecure-scheme";
  else if (flags.unsafeEval) result = "csp-implemented-with-unsafe-eval";
  else if (flags.insecureSchemePassive)
    result = "csp-implemented-with-insecure-scheme-in-passive-content-only";
  else if (flags.unsafeStyle) result = "csp-implemented-with-unsafe-inline-in-style-src-only";
  else if (flags.defaultNone) result = "csp-implemented-with-no-unsafe-default-src-none";
  else result = "csp-implemented-with-no-unsafe";
  if (PASSING.has(result) && parsed.duplicateReporting) result = "csp-implemented-but-duplicate-directives";

  return { result, directives: csp, flags };
}

const DESCRIPTIONS: Partial<Record<ObservatoryResult, string>> = {
  "csp-implemented-with-no-unsafe-default-src-none":
    "Content Security Policy implemented with default-src 'none' and no unsafe sources.",
  "csp-implemented-with-no-unsafe":
    "Content Security Policy implemented without 'unsafe-inline' or 'unsafe-eval'.",
  "csp-implemented-with-unsafe-inline-in-style-src-only":
    "Content Security Policy implemented, with unsafe sources in style-src only.",
  "csp-implemented-with-insecure-scheme-in-passive-content-only":
    "Content Security Policy implemented, but images or media may load over HTTP.",
  "csp-implemented-with-unsafe-eval": "Content Security Policy implemented, but allows 'unsafe-eval'.",
  "csp-implemented-with-unsafe-inline":
    "Content Security Policy implemented unsafely: inline or data: scripts, overly broad sources, or no restriction on script-src/object-src.",
  "csp-implemented-with-insecure-scheme":
    "Content Security Policy implemented, but allows resources over HTTP.",
  "csp-implemented-but-duplicate-directives":
    "Content Security Policy implemented, but repeats report-uri/report-to.",
  "csp-header-invalid": "Content Security Policy cannot be parsed or cannot work as written.",
  "csp-not-implemented": "Content Security Policy not implemented.",
  "csp-not-implemented-but-reporting-enabled":
    "Only Content-Security-Policy-Report-Only is sent: nothing is enforced.",
};

const EXAMPLE_POLICY =
  "Content-Security-Policy: default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

function cspIssues(analysis: CspAnalysis): AuditIssue[] {
  const category = CATEGORY.csp;
  const issue = (
    id: string,
    severity: AuditIssue["severity"],
    title: string,
    description: string,
    remediation: string,
  ): AuditIssue => ({ id, title, severity, category, description, remediation });

  if (analysis.result === "csp-not-implemented") {
    return [
      issue(
        "csp-missing",
        "high",
        "No Content Security Policy",
        "The page sends no Content-Security-Policy, so any injected script (XSS) runs with the page's full privileges.",
        `Send a policy that lists where scripts may come from, for example \`${EXAMPLE_POLICY}\`. Roll it out with Content-Security-Policy-Report-Only first to find what it would block.`,
      ),
    ];
  }
  if (analysis.result === "csp-not-implemented-but-reporting-enabled") {
    return [
      issue(
        "csp-report-only",
        "high",
        "Content Security Policy only reports, never blocks",
        "Only Content-Security-Policy-Report-Only is sent: violations are reported but injected scripts still run.",
        "Once the reports are clean, send the same policy as Content-Security-Policy (the enforcing header).",
      ),
    ];
  }
  if (!analysis.flags) {
    return [
      issue(
        "csp-invalid",
        "high",
        "Content Security Policy cannot be parsed",
        `The policy is malformed (${analysis.error ?? "parse error"}), so it cannot be relied on.`,
        `Fix the syntax: directives separated by ";", each named once, for example \`${EXAMPLE_POLICY}\`. Check it with https://csp-evaluator.withgoogle.com/.`,
      ),
    ];
  }

  const f = analysis.flags;
  const issues: AuditIssue[] = [];
  if (f.strictDynamicWithoutNonce)
    issues.push(
      issue(
        "csp-strict-dynamic-without-nonce",
        "high",
        "'strict-dynamic' without a nonce or hash",
        "script-src uses 'strict-dynamic' but names no nonce or hash, which blocks every script in supporting browsers; the Observatory grades such a policy as invalid.",
        "Add a per-response nonce (`script-src 'nonce-<random>' 'strict-dynamic'`) and put the same nonce on your <script> tags, or drop 'strict-dynamic'.",
      ),
    );
  if (f.unsafeInlineScript)
    issues.push(
      issue(
        "csp-unsafe-inline",
        "high",
        "script-src allows 'unsafe-inline'",
        "Inline scripts and event handlers are allowed, so the policy does not stop most cross-site scripting.",
        "Move inline scripts to files, or allow them one by one with hashes ('sha256-…') or a per-response nonce, then remove 'unsafe-inline' from script-src.",
      ),
    );
  if (f.dataScript)
    issues.push(
      issue(
        "csp-script-src-data",
        "high",
        "script-src allows data: URLs",
        "An attacker who can inject markup can run script from a data: URL.",
        "Remove data: from script-src (and from default-src if script-src is not set).",
      ),
    );
  if (f.noScriptRestriction)
    issues.push(
      issue(
        "csp-script-src-missing",
        "high",
        "No script-src or default-src",
        "The policy does not restrict scripts at all.",
        "Add `default-src 'self'` (or an explicit `script-src 'self'`) to the policy.",
      ),
    );
  else if (f.broadScript)
    issues.push(
      issue(
        "csp-script-src-too-broad",
        "high",
        "script-src allows scripts from any host",
        "A scheme or wildcard source (*, https:, http:) lets scripts load from anywhere, including attacker-controlled hosts.",
        "List the exact origins scripts come from (for example `script-src 'self' https://cdn.example.com`), or use nonces with 'strict-dynamic'.",
      ),
    );
  if (f.broadObject)
    issues.push(
      issue(
        "csp-object-src-unrestricted",
        "medium",
        "Plugins (object-src) not restricted",
        "Neither object-src nor default-src restricts <object>/<embed>, which can be used to bypass the script policy.",
        "Add `object-src 'none'` to the policy.",
      ),
    );
  if (f.insecureSchemeActive)
    issues.push(
      issue(
        "csp-insecure-scheme",
        "high",
        "Policy allows active content over HTTP",
        "An HTTPS page whose policy allows http: (or ftp:) sources for scripts, styles, frames or connections can be subverted by a network attacker.",
        "Replace every http:// source with its https:// equivalent and consider adding `upgrade-insecure-requests`.",
      ),
    );
  if (f.unsafeEval)
    issues.push(
      issue(
        "csp-unsafe-eval",
        "medium",
        "Policy allows 'unsafe-eval'",
        "eval(), new Function() and string timers are allowed, which turns many injections into code execution.",
        "Remove the code paths that use eval-like functions, then remove 'unsafe-eval' from script-src.",
      ),
    );
  if (f.insecureSchemePassive)
    issues.push(
      issue(
        "csp-insecure-passive-content",
        "low",
        "Policy allows images or media over HTTP",
        "img-src/media-src allow http: sources, so a network attacker can see and replace those resources.",
        "Load images and media over HTTPS and remove http: sources from img-src, media-src and default-src.",
      ),
    );
  if (f.unsafeStyle)
    issues.push(
      issue(
        "csp-unsafe-style",
        "low",
        "style-src allows inline or broad sources",
        "'unsafe-inline', data: or a wildcard in style-src allows injected styles (CSS-based data exfiltration, UI redressing). The Observatory does not deduct points for this.",
        "Move inline styles to stylesheets or allow them with hashes/nonces, then remove 'unsafe-inline' from style-src.",
      ),
    );
  if (f.insecureBaseUri)
    issues.push(
      issue(
        "csp-base-uri-unrestricted",
        "low",
        "base-uri not restricted",
        "An injected <base> tag could redirect the page's relative script URLs to another host.",
        "Add `base-uri 'self'` (or 'none') to the policy.",
      ),
    );
  if (f.insecureFormAction)
    issues.push(
      issue(
        "csp-form-action-unrestricted",
        "low",
        "form-action not restricted",
        "Injected forms may post data (such as passwords) to any host.",
        "Add `form-action 'self'` (plus any other origins your forms post to).",
      ),
    );
  if (analysis.result === "csp-implemented-but-duplicate-directives")
    issues.push(
      issue(
        "csp-duplicate-directives",
        "info",
        "report-uri/report-to repeated",
        "The policy repeats a reporting directive; browsers use only the first.",
        "Keep one report-uri and one report-to directive.",
      ),
    );
  return issues;
}

export function cspTest(
  _input: ScanInput,
  context: ObservatoryContext,
): TestOutcome & { analysis: CspAnalysis } {
  const analysis = analyseCsp(context);
  const test = verdict(
    "content-security-policy",
    analysis.result,
    PASSING.has(analysis.result),
    DESCRIPTIONS[analysis.result] ?? analysis.result,
  );
  return { test, issues: cspIssues(analysis), analysis };
}
