import { breaksTextRule } from "#app/lib/text-rules.ts";

export const MAX_EMAIL_LENGTH = 254;

/** The email as a search: trimmed, bounded, with an @. Null when it cannot be an address. */
export function parsePersonEmail(raw: unknown): string | null {
  if (typeof raw !== "string") return null;
  const email = raw.trim();
  if (email.length < 3 || email.length > MAX_EMAIL_LENGTH || !email.includes("@")) return null;
  if (breaksTextRule(email, "one-line")) return null;
  return email;
}
