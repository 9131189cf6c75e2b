// The spam verdict (issue 10): every signal a submission shows adds points, with its reason, and
// only a strong verdict holds a lead out of the list. The thresholds live here and nowhere else;
// README "Spam verdicts" documents them.
//
// - Held as spam: the honeypot was filled in, or a content signal (a link or markup where a name
//   belongs, an address in the name…) came with at least one other signal and the score reached
//   HOLD_SCORE. Held leads stay one click away ("Spam (n)", "Not spam").
// - Marked for review, in the normal list: any other signal. Timing, token and rate signals alone
//   never hold a lead: a person with autofill, a browser that drops cookies or an integration
//   calling the API shows exactly those, and a lost prospect costs more than a spam row.
// - Clean: no signal.

export type SpamSignalName =
  | "honeypot"
  | "link-in-name"
  | "markup-in-name"
  | "email-in-name"
  | "link-in-company"
  | "markup-in-company"
  | "many-links"
  | "token-missing"
  | "token-invalid"
  | "too-fast"
  | "token-expired"
  | "rate"
  | "legacy-time-trap";

export type SpamSignal = { signal: SpamSignalName; points: number; detail: string };

export type SpamVerdict = {
  level: "clean" | "review" | "held";
  score: number;
  signals: SpamSignal[];
  /** One line for the lead's "Spam" row and the CSV. */
  summary: string | null;
};

/** Points per signal. Content signals are the ones a person filling in the form does not produce. */
export const SPAM_POINTS = {
  honeypot: 100,
  "link-in-name": 40,
  "markup-in-name": 40,
  "email-in-name": 30,
  "link-in-company": 30,
  "markup-in-company": 30,
  "many-links": 25,
  "token-missing": 10,
  "token-invalid": 20,
  "too-fast": 15,
  "token-expired": 5,
  rate: 15,
  "legacy-time-trap": 20,
} as const satisfies Record<SpamSignalName, number>;

const CONTENT_SIGNALS: ReadonlySet<SpamSignalName> = new Set([
  "link-in-name",
  "markup-in-name",
  "email-in-name",
  "link-in-company",
  "markup-in-company",
  "many-links",
]);

/** A content signal plus at least one more signal must reach this to hold a lead. */
export const HOLD_SCORE = 50;
/** The message may carry a link or two (a website, a tender); more looks like a link drop. */
export const MAX_MESSAGE_LINKS = 2;
/** The rate signal fires past this share of LEAD_RATE_LIMIT from one address in its window. */
export const RATE_SIGNAL_SHARE = 0.5;

const URL_PATTERN = /\b(?:https?:\/\/|www\.)\S+/gi;
const DOMAIN_PATTERN = /\b[a-z0-9-]+\.(?:com|net|org|info|biz|ru|cn|xyz|top|io|co|uk|de|site|online|shop)\b/i;
// An address somewhere in the text: something before the @ and a dotted domain after it, as the lead
// schema's email check wants. A handle ("@Alex Ward") or "Jane @ Acme" is no address (issue 22).
const EMAIL_IN_TEXT_PATTERN = /[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+/u;
const MARKUP_PATTERN = /<[a-z/!][^>]*>|\[\/?(?:url|link|img|b)\b[^\]]*\]|&(?:[a-z]+|#\d+);/i;

/** What the submission's time token says (time-token.server.ts), or null when the trap is off. */
export type TokenFinding =
  | { kind: "ok" }
  | { kind: "missing" }
  | { kind: "invalid"; detail: string }
  | { kind: "too-fast"; detail: string }
  | { kind: "expired" };

export type VerdictInput = {
  honeypot: unknown;
  fullName: string;
  company: string;
  message: string | null;
  otherDetails: string | null;
  token: TokenFinding | null;
  /** Accepted submissions from this address in the limit's window (this one included), or null. */
  rate: { count: number; limit: number } | null;
};

export function spamVerdict(input: VerdictInput): SpamVerdict {
  const signals: SpamSignal[] = [];
  const add = (signal: SpamSignalName, detail: string) =>
    signals.push({ signal, points: SPAM_POINTS[signal], detail });

  if (input.honeypot !== undefined && input.honeypot !== null && input.honeypot !== "")
    add("honeypot", "honeypot field filled in");

  if (hasLink(input.fullName)) add("link-in-name", "a link in the name");
  if (MARKUP_PATTERN.test(input.fullName)) add("markup-in-name", "markup in the name");
  if (EMAIL_IN_TEXT_PATTERN.test(input.fullName)) add("email-in-name", "an email address in the name");
  if (input.company.match(URL_PATTERN)) add("link-in-company", "a link in the company name");
  if (MARKUP_PATTERN.test(input.company)) add("markup-in-company", "markup in the company name");
  const links = countLinks(input.message) + countLinks(input.otherDetails);
  if (links > MAX_MESSAGE_LINKS) add("many-links", `${links} links in the message`);

  const token = input.token;
  if (token?.kind === "missing") add("token-missing", "no page cookie (sent without visiting the site)");
  if (token?.kind === "invalid") add("token-invalid", token.detail);
  if (token?.kind === "too-fast") add("too-fast", token.detail);
  if (token?.kind === "expired") add("token-expired", "page cookie expired");

  if (input.rate && input.rate.limit > 0 && input.rate.count > input.rate.limit * RATE_SIGNAL_SHARE)
    add("rate", `${input.rate.count} submissions from this address within the rate-limit window`);

  return judge(signals);
}

/** The level and summary for a set of signals (also used for leads stored before the scores). */
export function judge(signals: SpamSignal[]): SpamVerdict {
  const score = signals.reduce((sum, signal) => sum + signal.points, 0);
  const honeypot = signals.some((signal) => signal.signal === "honeypot");
  const content = signals.some((signal) => CONTENT_SIGNALS.has(signal.signal));
  const held = honeypot || (content && signals.length >= 2 && score >= HOLD_SCORE);
  return {
    level: held ? "held" : signals.length > 0 ? "review" : "clean",
    score,
    signals,
    summary: signals.length > 0 ? signals.map((signal) => signal.detail).join("; ") : null,
  };
}

function hasLink(value: string): boolean {
  return countLinks(value) > 0 || DOMAIN_PATTERN.test(value);
}

function countLinks(value: string | null): number {
  return value ? (value.match(URL_PATTERN)?.length ?? 0) : 0;
}

/** The signals stored with a lead (JSON), read back defensively. */
export function parseSignals(raw: string | null): SpamSignal[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value)
      ? value.filter(
          (item): item is SpamSignal =>
            typeof item === "object" &&
            item !== null &&
            typeof (item as SpamSignal).signal === "string" &&
            typeof (item as SpamSignal).points === "number" &&
            typeof (item as SpamSignal).detail === "string",
        )
      : [];
  } catch {
    return [];
  }
}
