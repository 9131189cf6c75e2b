import { createHmac } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { isPostgres } from "#app/db/migration-helpers.ts";
import type { Database } from "#app/db/schema.ts";
import { metrics } from "#app/lib/metrics.server.ts";
import { enqueue, LEAD_NOTIFICATION, type LeadNotificationPayload } from "#app/lib/outbox/outbox.server.ts";
import type { RateLimiter } from "#app/lib/rate-limit.server.ts";
import { type ActiveApiKey, touchApiKey } from "./api-keys.server.ts";
import { erasedOnWithWebhooks } from "./lead-erasure.server.ts";
import { recordLeadEvent } from "./lead-events.server.ts";
import { insertLead, type WithLead } from "./lead-repository.server.ts";
import { type FieldErrors, HONEYPOT_FIELD, parseLeadSubmission } from "./lead-schema.ts";
import { spamVerdict, type TokenFinding } from "./spam-verdict.ts";
import { checkTimeToken, MIN_FILL_MS } from "./time-token.server.ts";

/** What the transport (JSON API or form action) knows about a submission besides its fields. */
export type SubmissionContext = {
  clientAddress: string;
  timeToken: string | undefined;
  sourcePage: string | null;
  /** "form" when a page of the site sent it, "api" otherwise; an API key's name replaces either. */
  source?: "form" | "api";
  /** The verified key of `Authorization: Bearer` (lead-http.server.ts answers 401 for a bad one). */
  apiKey?: ActiveApiKey;
  /** The request's headers and protocol, for the lead's attribution (never stored). */
  headers?: { get(name: string): string | null };
  protocol?: string;
  now?: Date;
};

export type SubmissionResult =
  /** `queued`: the lead's notification or webhook deliveries wait in the outbox. */
  | { kind: "stored"; id: number; spam: boolean; queued: boolean }
  | { kind: "invalid"; errors: FieldErrors }
  | { kind: "rate-limited"; retryAfterSeconds: number }
  /** Through an API key, for a person who was erased on request: refused (409), nothing stored. */
  | { kind: "erased" };

/**
 * Called inside the transaction that changes a lead, so what it queues (webhook deliveries) is
 * committed with the change or not at all. Wired in services.server.ts. It resolves to how many
 * outbox messages it queued (a number), or anything else when it queued none.
 */
export type LeadChangeHook = (trx: Transaction<Database>, change: LeadChange) => Promise<unknown>;
export type LeadChange = {
  type: "lead.created" | "lead.updated" | "lead.spam_changed" | "lead.deleted";
  leadId: number;
  occurredAt: Date;
  /** The webhooks (id, events), when already read in this transaction (a new lead's first statement). */
  webhooks?: { id: number; events: string }[];
  /** The lead got an owner (issue 35's notifications): who, and who gave it (null: the product). */
  assigned?: { ownerId: number; by: { id: number; username: string } | null };
};

/**
 * Attribution (issue 12), wired in services.server.ts to features/analytics: `begin` is asked before
 * the lead's transaction (it may read the day's salt) and answers the statement that writes the
 * lead's attribution row, which insertLead runs with the lead's insert (on PostgreSQL inside it: one
 * round trip, issue 32 point 17); `stored`
 * is told once the lead is committed. Looking the visit up happens later, off the submission.
 */
export type LeadAttributionHook = {
  begin(
    visit: { clientAddress: string; headers: { get(name: string): string | null }; protocol: string },
    submittedAt: Date,
  ): Promise<{ statement: WithLead }>;
  stored(): void;
};

export type LeadServiceOptions = {
  db: Kysely<Database>;
  secret: string;
  /** Per client address (LEAD_RATE_LIMIT per LEAD_RATE_WINDOW_SECONDS). */
  rateLimiter: RateLimiter;
  /** Per API key (API_KEY_RATE_LIMIT per minute); absent: keys are not limited. */
  apiKeyRateLimiter?: RateLimiter;
  /** Queue an email to sales for each lead not held as spam (SMTP configured). */
  notify: boolean;
  /** The time trap's threshold; defaults to MIN_FILL_MS. */
  minFillMs?: number;
  /** False only under `react-router dev`, where no server.ts sets the page cookie the trap checks. */
  timeTrap?: boolean;
  onLeadChange?: LeadChangeHook;
  attribution?: LeadAttributionHook;
};

/**
 * The one way a lead gets in, shared by POST /api/demo-request and the no-JavaScript form actions.
 * Validation first (no database work for bad input), then one transaction: the rate limit (per
 * address, or per API key), the spam verdict, the lead, its notification. The caller answers only
 * after this resolves, so a success answer means the lead is committed. A held lead gets the same
 * answer as any other: nothing tells a bot it was caught.
 */
export function createLeadService({
  db,
  secret,
  rateLimiter,
  apiKeyRateLimiter,
  notify,
  minFillMs = MIN_FILL_MS,
  timeTrap = true,
  onLeadChange,
  attribution,
}: LeadServiceOptions) {
  return {
    async submit(body: unknown, context: SubmissionContext): Promise<SubmissionResult> {
      const parsed = parseLeadSubmission(body);
      if (!parsed.success) return { kind: "invalid", errors: parsed.errors };
      const submission = parsed.data;

      const now = context.now ?? new Date();
      const { apiKey } = context;
      const token: TokenFinding | null =
        apiKey || !timeTrap ? null : checkTimeToken(secret, context.timeToken, now.getTime(), minFillMs);
      const limiter = apiKey ? apiKeyRateLimiter : rateLimiter;
      const limitKey = apiKey ? `api-key:${apiKey.id}` : `lead:${clientKey(secret, context.clientAddress)}`;
      const writeAttribution = await attribution?.begin(
        {
          clientAddress: context.clientAddress,
          headers: context.headers ?? new Headers(),
          protocol: context.protocol ?? "http:",
        },
        now,
      );

      // One transaction for the rate-limit count, the lead and its notification: one commit per
      // submission, and the limit's check and count cannot be raced (rate-limit.server.ts).
      const outcome = await db.transaction().execute(async (trx) => {
        // A person erased on request who writes again through the site's own forms gives new
        // consent: stored, and marked as returning after erasure. An integration re-sending them
        // is refused: it is replaying data the person asked to be removed.
        // The webhooks come with it (one statement): the lead's deliveries are queued from them below.
        // Without an API key an erased person's lead is stored, so the rate limit's first statement
        // runs inside this one on PostgreSQL (one round trip fewer, issue 32 point 17); with a key an
        // erased person is refused before any hit is counted, as before. SQLite has no data-modifying
        // `with` (and no round trips): there the hit is its own statement.
        const firstHit =
          !apiKey && isPostgres(trx) ? limiter?.firstHitStatement(limitKey, now.getTime()) : null;
        const { erasedAt, webhooks, alongsideRows } = await erasedOnWithWebhooks(
          trx,
          secret,
          submission.email,
          firstHit ?? undefined,
        );
        if (erasedAt && apiKey) return { allowed: false as const, erased: true as const };
        const decision = !limiter
          ? undefined
          : firstHit
            ? await limiter.hitAfterFirst(limitKey, now.getTime(), trx, alongsideRows > 0)
            : await limiter.hit(limitKey, now.getTime(), trx);
        if (decision && !decision.allowed) return decision;
        const verdict = spamVerdict({
          honeypot: (body as Record<string, unknown>)[HONEYPOT_FIELD],
          fullName: submission.fullName,
          company: submission.company,
          message: submission.message,
          otherDetails: submission.requestType === "investor" ? submission.otherDetails : null,
          token,
          rate: apiKey || !decision ? null : { count: decision.count, limit: rateLimiter.limit },
        });
        const held = verdict.level === "held";
        let queued = false;
        const leadId = await insertLead(
          trx,
          submission,
          {
            sourcePage: context.sourcePage,
            source: apiKey?.name ?? context.source ?? "api",
            apiKeyId: apiKey?.id ?? null,
            verdict,
            now,
          },
          writeAttribution?.statement,
        );
        if (apiKey) await touchApiKey(trx, apiKey.id, now);
        if (erasedAt)
          await recordLeadEvent(trx, {
            leadId,
            type: "returned_after_erasure",
            actor: null,
            detail: { erasedAt },
            now,
          });
        if (held) {
          await recordLeadEvent(trx, {
            leadId,
            type: "spam_held",
            actor: null,
            detail: { score: verdict.score, reasons: verdict.signals.map((signal) => signal.detail) },
            now,
          });
        } else {
          if (notify) {
            await enqueue(trx, LEAD_NOTIFICATION, { leadId } satisfies LeadNotificationPayload, now);
            queued = true;
          }
          const deliveries = await onLeadChange?.(trx, {
            type: "lead.created",
            leadId,
            occurredAt: now,
            webhooks,
          });
          if (typeof deliveries === "number" && deliveries > 0) queued = true;
        }
        return { allowed: true as const, id: leadId, held, queued, level: verdict.level };
      });
      if ("erased" in outcome) return { kind: "erased" };
      if (!outcome.allowed) return { kind: "rate-limited", retryAfterSeconds: outcome.retryAfterSeconds };
      attribution?.stored();
      // Counted once committed: a lead the metrics show is a lead in the database.
      metrics.leadsStored.inc({
        type: submission.requestType,
        via: apiKey ? "api_key" : (context.source ?? "api"),
      });
      metrics.spamVerdicts.inc({ level: outcome.level });
      return { kind: "stored", id: outcome.id, spam: outcome.held, queued: outcome.queued };
    },
  };
}

export type LeadService = ReturnType<typeof createLeadService>;

/** The rate-limit key of a client address: an HMAC, so the table holds no addresses. */
function clientKey(secret: string, address: string): string {
  return createHmac("sha256", secret).update(address).digest("base64url").slice(0, 22);
}
