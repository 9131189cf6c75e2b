import { createHmac } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { enqueue, LEAD_NOTIFICATION, type LeadNotificationPayload } from "#app/lib/outbox/outbox.server.ts";
import type { RateLimiter } from "#app/lib/rate-limit.server.ts";
import { insertLead } from "./lead-repository.server.ts";
import { type FieldErrors, HONEYPOT_FIELD, parseLeadSubmission } from "./lead-schema.ts";
import { MIN_FILL_MS, timeTokenProblem } from "./time-token.server.ts";

/** What the transport (JSON API or form action) knows about a submission besides its fields. */
export type SubmissionContext = {
  clientAddress: string;
  timeToken: string | undefined;
  sourcePage: string | null;
  now?: Date;
};

export type SubmissionResult =
  | { kind: "stored"; id: number; spam: boolean }
  | { kind: "invalid"; errors: FieldErrors }
  | { kind: "rate-limited"; retryAfterSeconds: number };

export type LeadServiceOptions = {
  db: Kysely<Database>;
  secret: string;
  rateLimiter: RateLimiter;
  /** Queue an email to sales for each genuine lead (SMTP configured). */
  notify: boolean;
  /**
   * Called in the lead's transaction for each lead not held as spam (services.server.ts queues the
   * `lead.created` webhooks there), so the lead and what it sets off commit together.
   */
  onLeadStored?: (trx: Transaction<Database>, lead: { id: number; now: Date }) => Promise<void>;
  /** The time trap's threshold; defaults to MIN_FILL_MS. */
  minFillMs?: number;
  /** False only under `react-router dev`, where no server.ts sets the page cookie the trap checks. */
  timeTrap?: boolean;
};

/**
 * The one way a lead gets in, shared by POST /api/demo-request and the no-JavaScript form actions.
 * Validation first (no database work for bad input), then the per-client rate limit, then the spam
 * checks, then one transaction that stores the lead and queues its notification. The caller answers
 * the visitor only after this resolves, so a success answer means the lead is committed.
 */
export function createLeadService({
  db,
  secret,
  rateLimiter,
  notify,
  onLeadStored,
  minFillMs = MIN_FILL_MS,
  timeTrap = true,
}: LeadServiceOptions) {
  return {
    async submit(body: unknown, context: SubmissionContext): Promise<SubmissionResult> {
      const parsed = parseLeadSubmission(body);
      if (!parsed.success) return { kind: "invalid", errors: parsed.errors };

      const now = context.now ?? new Date();
      const clientKey = `lead:${createHmac("sha256", secret).update(context.clientAddress).digest("base64url").slice(0, 22)}`;
      const spamReason = spamCheck(body, context, secret, now, timeTrap ? minFillMs : null);
      // One transaction for the rate-limit count, the lead and its notification: one commit per
      // submission. A refused submission still commits its count.
      const outcome = await db.transaction().execute(async (trx) => {
        const decision = await rateLimiter.hit(clientKey, now.getTime(), trx);
        if (!decision.allowed) return decision;
        const leadId = await insertLead(trx, parsed.data, {
          sourcePage: context.sourcePage,
          spamReason,
          now,
        });
        if (notify && !spamReason) {
          await enqueue(trx, LEAD_NOTIFICATION, { leadId } satisfies LeadNotificationPayload, now);
        }
        if (onLeadStored && !spamReason) await onLeadStored(trx, { id: leadId, now });
        return { allowed: true as const, id: leadId };
      });
      if (!outcome.allowed) return { kind: "rate-limited", retryAfterSeconds: outcome.retryAfterSeconds };
      const id = outcome.id;
      return { kind: "stored", id, spam: spamReason !== null };
    },
  };
}

export type LeadService = ReturnType<typeof createLeadService>;

/** Why a submission looks automated, or null. Suspicious leads are stored flagged, never dropped. */
function spamCheck(
  body: unknown,
  context: SubmissionContext,
  secret: string,
  now: Date,
  minFillMs: number | null,
): string | null {
  const honeypot = (body as Record<string, unknown>)[HONEYPOT_FIELD];
  if (honeypot !== undefined && honeypot !== null && honeypot !== "") return "honeypot field filled in";
  if (minFillMs === null) return null;
  const problem = timeTokenProblem(secret, context.timeToken, now.getTime(), minFillMs);
  return problem ? `time trap: ${problem}` : null;
}
