import {
  checkTargetUrl as checkUrl,
  parseTargetUrl as parseUrl,
  refusalMessage as refusal,
  type TargetPolicyText,
  type TargetUrlResult,
} from "#app/lib/safe-fetch/target-policy.server.ts";

// The shared SSRF policy (app/lib/safe-fetch) in the audits' own words: their refusals name
// AUDIT_ALLOW_PRIVATE_TARGETS, the webhooks' name theirs.

export {
  type AddressVerdict,
  type AllowPrivate,
  classifyAddress,
  isAllowedPrivate,
  MAX_URL_LENGTH,
  type TargetUrlResult,
  urlHost,
} from "#app/lib/safe-fetch/target-policy.server.ts";

export const AUDIT_TARGET_TEXT: TargetPolicyText = {
  schemeVerb: "audited",
  privateSwitch: "AUDIT_ALLOW_PRIVATE_TARGETS",
  howToAllow:
    "Audits only reach public websites; set AUDIT_ALLOW_PRIVATE_TARGETS=true for an intranet deployment.",
};

export function parseTargetUrl(input: string): TargetUrlResult {
  return parseUrl(input, AUDIT_TARGET_TEXT);
}

export function checkTargetUrl(url: URL): TargetUrlResult {
  return checkUrl(url, AUDIT_TARGET_TEXT);
}

export function refusalMessage(address: string, verdict: { kind: string; range: string }, hostname?: string) {
  return refusal(address, verdict, hostname, AUDIT_TARGET_TEXT.howToAllow);
}
