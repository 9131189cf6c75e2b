import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import {
  type Resolver,
  resolveCheckedTarget,
  SafeFetchError,
} from "#app/lib/safe-fetch/safe-connect.server.ts";
import type { AllowPrivate } from "#app/lib/safe-fetch/target-policy.server.ts";
import { WEBHOOK_TARGET_TEXT } from "./webhook-http.server.ts";
import { MAX_WEBHOOKS, parseCreateWebhook, type WebhookFieldErrors } from "./webhook-schema.ts";
import { countWebhooks, insertWebhook } from "./webhook-store.server.ts";
import type { Webhook } from "./webhook-types.ts";

// Creating a webhook, shared by the page's form and POST /api/admin/webhooks.

export type TargetPolicy = { allowPrivate: AllowPrivate; resolve?: Resolver };

/** How long creation waits for DNS; a slow or failing lookup does not refuse the URL (see below). */
const CREATE_DNS_TIMEOUT_MS = 5_000;

export type CreateOutcome =
  | { ok: true; webhook: Webhook & { secret: string } }
  | { ok: false; status: 400 | 409; message: string; errors: WebhookFieldErrors };

/**
 * Checks the fields, then the URL's host against the SSRF policy: an address, or a name resolving
 * to one, that is private, loopback, link-local or metadata is refused now (each delivery checks
 * again, as DNS can change). A name that does not resolve yet is accepted: the receiver may not be
 * deployed, and the delivery log will say so.
 */
export async function createWebhook(
  db: Kysely<Database>,
  input: unknown,
  createdBy: string,
  policy: TargetPolicy,
): Promise<CreateOutcome> {
  const parsed = parseCreateWebhook(input);
  if (!parsed.success) {
    const message = parsed.errors.url ?? parsed.errors.events ?? "Check the fields.";
    return { ok: false, status: 400, message, errors: parsed.errors };
  }
  const refusal = await targetRefusal(new URL(parsed.data.url), policy);
  if (refusal) return { ok: false, status: 400, message: refusal, errors: { url: refusal } };
  if ((await countWebhooks(db)) >= MAX_WEBHOOKS) {
    const message = `There are already ${MAX_WEBHOOKS} webhooks, the most allowed; delete one first.`;
    return { ok: false, status: 409, message, errors: {} };
  }
  const webhook = await insertWebhook(db, { ...parsed.data, createdBy });
  return { ok: true, webhook };
}

async function targetRefusal(url: URL, policy: TargetPolicy): Promise<string | null> {
  try {
    await resolveCheckedTarget(
      url,
      {
        allowPrivate: policy.allowPrivate,
        resolve: policy.resolve,
        howToAllow: WEBHOOK_TARGET_TEXT.howToAllow,
        privateSwitch: WEBHOOK_TARGET_TEXT.privateSwitch,
      },
      AbortSignal.timeout(CREATE_DNS_TIMEOUT_MS),
    );
    return null;
  } catch (error) {
    if (error instanceof SafeFetchError && error.title === "Refused") return error.message;
    return null;
  }
}
