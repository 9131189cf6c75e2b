import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { recordAccess } from "#app/lib/access-log.server.ts";
import { metrics } from "#app/lib/metrics.server.ts";
import type { CsvTable } from "./import/csv-parse.ts";
import type { ImportMapping } from "./import/import-mapping.ts";
import { undoImport } from "./import/import-undo.server.ts";
import {
  type CommitOptions,
  commitImport,
  type ImportPlan,
  planImport,
} from "./import/lead-import.server.ts";
import { findLeadListItem, isAssignable, type LeadListItem, UnknownOwnerError } from "./lead-admin.server.ts";
import { erasedOnWithWebhooks } from "./lead-erasure.server.ts";
import { type Actor, recordLeadEvent } from "./lead-events.server.ts";
import { insertLead } from "./lead-repository.server.ts";
import type { LeadChangeHook } from "./lead-service.server.ts";
import { staffSourceValue } from "./lead-sources.ts";
import type { ManualLead } from "./manual-lead-schema.ts";
import type { SpamVerdict } from "./spam-verdict.ts";

// Leads staff add by hand (issue 23): a call, an event, a referral. They enter the same pipeline as a
// website lead — the same table and counts, an owner, a timeline, the `lead.created` webhooks — but
// without a spam verdict: a person on staff vouches for them. No sales email either: the one who
// added it knows, and the owner it names sees it in "My leads".

/** What a lead added by staff carries instead of a verdict: no signals, never held. */
export const STAFF_VERDICT: SpamVerdict = { level: "clean", score: 0, summary: null, signals: [] };

export type AddLeadOptions = {
  db: Kysely<Database>;
  secret: string;
  onLeadChange?: LeadChangeHook;
  /** Called after the commit when webhook deliveries were queued (wakes the outbox). */
  onQueued?: () => void;
};

/**
 * Stores a lead staff added, in one transaction with its timeline (who added it, from which source,
 * its owner), its webhooks and the access log entry. Answers the lead as the staff list shows it.
 * Throws UnknownOwnerError for an owner who is not an enabled staff member.
 */
export async function addLeadByHand(
  { db, secret, onLeadChange, onQueued }: AddLeadOptions,
  lead: ManualLead,
  actor: Actor,
  clientAddress: string | null,
  now = new Date(),
): Promise<LeadListItem> {
  const { submission, source, ownerId } = lead;
  if (ownerId !== null && !(await isAssignable(db, ownerId))) throw new UnknownOwnerError();
  let queued = false;
  const id = await db.transaction().execute(async (trx) => {
    const { erasedAt, webhooks } = await erasedOnWithWebhooks(trx, secret, submission.email);
    const leadId = await insertLead(trx, submission, {
      sourcePage: null,
      source: staffSourceValue(source),
      apiKeyId: null,
      verdict: STAFF_VERDICT,
      now,
      ownerId,
      addedBy: actor,
    });
    await recordLeadEvent(trx, { leadId, type: "added_by_staff", actor, detail: { source }, now });
    if (ownerId !== null) {
      const owner = await trx
        .selectFrom("users")
        .select("username")
        .where("id", "=", ownerId)
        .executeTakeFirst();
      await recordLeadEvent(trx, {
        leadId,
        type: "owner_changed",
        actor,
        detail: { from: null, to: owner?.username ?? null },
        now,
      });
    }
    // A person erased on request whom staff spoke to again: kept (new consent), and marked so.
    if (erasedAt)
      await recordLeadEvent(trx, {
        leadId,
        type: "returned_after_erasure",
        actor: null,
        detail: { erasedAt },
        now,
      });
    const deliveries = await onLeadChange?.(trx, { type: "lead.created", leadId, occurredAt: now, webhooks });
    queued = typeof deliveries === "number" && deliveries > 0;
    await recordAccess(trx, { action: "lead_added", actor, leadId, detail: { source }, clientAddress }, now);
    return leadId;
  });
  if (queued) onQueued?.();
  metrics.leadsStored.inc({ type: submission.requestType, via: "staff" });
  const stored = await findLeadListItem(db, id);
  if (!stored) throw new Error(`lead ${id} vanished after it was added`);
  return stored;
}

/**
 * The intake as the routes use it, wired in services.server.ts: webhooks queued with each change,
 * and the outbox and the summary strip told after each commit.
 */
export function createLeadIntake(options: AddLeadOptions) {
  const { db, onLeadChange, onQueued } = options;
  return {
    add: (lead: ManualLead, actor: Actor, clientAddress: string | null) =>
      addLeadByHand(options, lead, actor, clientAddress),
    plan: (table: Pick<CsvTable, "rows">, mapping: ImportMapping) =>
      planImport(db, options.secret, table, mapping),
    async commit(plan: ImportPlan, commit: Omit<CommitOptions, "onLeadChange">) {
      if (commit.ownerId !== null && !(await isAssignable(db, commit.ownerId))) throw new UnknownOwnerError();
      const result = await commitImport(db, plan, { ...commit, onLeadChange });
      onQueued?.();
      return result;
    },
    async undo(importId: number, undo: { actor: Actor; clientAddress: string | null }) {
      const result = await undoImport(db, importId, { ...undo, onLeadChange });
      onQueued?.();
      return result;
    },
  };
}

export type LeadIntake = ReturnType<typeof createLeadIntake>;
