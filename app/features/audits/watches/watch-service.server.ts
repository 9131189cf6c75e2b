import { isIP } from "node:net";
import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { metadataRefusalFor } from "#app/lib/safe-fetch/cloud-metadata.server.ts";
import {
  AUDIT_TARGET_TEXT,
  classifyAddress,
  parseTargetUrl,
  refusalMessage,
  urlHost,
} from "../target-policy.server.ts";
import {
  CreateWatchSchema,
  fieldErrors,
  isEmailAddress,
  MAX_WATCHES,
  UpdateWatchSchema,
  WATCH_MESSAGES,
} from "./watch-schema.ts";
import { countWatches, insertWatch, updateWatch, type WatchRecord } from "./watch-store.server.ts";
import { WATCH_CHECK_LABELS, type WatchCheck } from "./watch-types.ts";

// Adding and changing a watch, for the page's forms and the JSON API alike: the shape (zod), then
// the audits' target policy for the address and this server's checks.

export type WatchRefusal = {
  ok: false;
  status: number;
  message: string;
  errors: Record<string, string>;
};
export type WatchSaved = { ok: true; watch: WatchRecord };

export type WatchRules = { allowPrivate: boolean; checks: readonly WatchCheck[] };

const refuse = (status: number, errors: Record<string, string>, message?: string): WatchRefusal => ({
  ok: false,
  status,
  message: message ?? Object.values(errors)[0] ?? "Check the fields.",
  errors,
});

/**
 * The address under the audits' policy. Cloud metadata is refused always; an address that is itself
 * private (an IP literal, localhost) is refused now, unless AUDIT_ALLOW_PRIVATE_TARGETS; a name is resolved, and checked, at every run
 * by the checks' own guarded fetch (DNS may change).
 */
function checkUrl(raw: string, allowPrivate: boolean): { ok: true; url: string } | WatchRefusal {
  const target = parseTargetUrl(raw);
  if (!target.ok) return refuse(400, { url: target.details });
  // Cloud metadata, by name or in any spelling of its address, whatever AUDIT_ALLOW_PRIVATE_TARGETS
  // says (a name that resolves there later is refused by each run's own guarded fetch).
  const metadata = metadataRefusalFor(urlHost(target.url), undefined, AUDIT_TARGET_TEXT.privateSwitch);
  if (metadata) return refuse(400, { url: metadata });
  if (!allowPrivate) {
    const host = urlHost(target.url);
    const literal = isIP(host)
      ? host
      : /^localhost\.?$/i.test(host) || /\.localhost\.?$/i.test(host)
        ? "127.0.0.1"
        : null;
    const verdict = literal ? classifyAddress(literal) : { blocked: false as const };
    if (literal && verdict.blocked) return refuse(400, { url: refusalMessage(literal, verdict, host) });
  }
  return { ok: true, url: target.url.href };
}

function checkOffered(checks: WatchCheck[], rules: WatchRules): WatchRefusal | null {
  const missing = checks.filter((check) => !rules.checks.includes(check));
  if (missing.length === 0) return null;
  const offered = rules.checks.map((check) => WATCH_CHECK_LABELS[check].toLowerCase()).join(", ");
  return refuse(400, {
    checks: `This server does not offer the ${missing.map((check) => WATCH_CHECK_LABELS[check].toLowerCase()).join(" or ")}; choose from: ${offered}.`,
  });
}

export async function createWatch(
  db: Kysely<Database>,
  input: unknown,
  actor: string,
  rules: WatchRules,
): Promise<WatchSaved | WatchRefusal> {
  const parsed = CreateWatchSchema.safeParse(input);
  if (!parsed.success) return refuse(400, fieldErrors(parsed.error));
  const { checks, every } = parsed.data;
  const url = checkUrl(parsed.data.url, rules.allowPrivate);
  if (!url.ok) return url;
  const unoffered = checkOffered(checks, rules);
  if (unoffered) return unoffered;
  // Alerts go to the addresses given, else to the creator when their user name is an address.
  const recipients =
    parsed.data.recipients && parsed.data.recipients.length > 0
      ? parsed.data.recipients
      : isEmailAddress(actor.toLowerCase())
        ? [actor.toLowerCase()]
        : [];
  if (recipients.length === 0) return refuse(400, { recipients: WATCH_MESSAGES.recipientsRequired });
  if ((await countWatches(db)) >= MAX_WATCHES)
    return refuse(409, {}, `The most watches allowed (${MAX_WATCHES}) exist; delete one to add another.`);
  return {
    ok: true,
    watch: await insertWatch(db, { url: url.url, checks, every, recipients, createdBy: actor }),
  };
}

export async function changeWatch(
  db: Kysely<Database>,
  id: number,
  input: unknown,
  rules: WatchRules,
): Promise<WatchSaved | WatchRefusal | undefined> {
  const parsed = UpdateWatchSchema.safeParse(input);
  if (!parsed.success) return refuse(400, fieldErrors(parsed.error));
  const { checks, every, paused, recipients } = parsed.data;
  let url: string | undefined;
  if (parsed.data.url !== undefined) {
    const checked = checkUrl(parsed.data.url, rules.allowPrivate);
    if (!checked.ok) return checked;
    url = checked.url;
  }
  if (checks) {
    const unoffered = checkOffered(checks, rules);
    if (unoffered) return unoffered;
  }
  if (recipients && recipients.length === 0)
    return refuse(400, { recipients: WATCH_MESSAGES.recipientsRequired });
  const watch = await updateWatch(db, id, { url, checks, every, paused, recipients });
  return watch ? { ok: true, watch } : undefined;
}
