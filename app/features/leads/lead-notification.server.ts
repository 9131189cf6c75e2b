import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { MailTransport } from "#app/lib/mailer.server.ts";
import { LEAD_NOTIFICATION, type LeadNotificationPayload } from "#app/lib/outbox/outbox.server.ts";
import {
  describeSendError,
  MAX_ATTEMPTS,
  type OutboxMessage,
  type OutboxSend,
  PermanentSendError,
} from "#app/lib/outbox/outbox-worker.server.ts";
import { composeLeadEmail, type LeadEmailSettings } from "./lead-email.ts";
import { recordLeadEvent } from "./lead-events.server.ts";
import { findLead } from "./lead-repository.server.ts";

export type OutboxSenderOptions = {
  db: Kysely<Database>;
  transport: Pick<MailTransport, "sendMail">;
  mail: LeadEmailSettings;
  /** The outbox's attempt limit, to tell a last failure from one that will be retried. */
  maxAttempts?: number;
};

/**
 * Turns an outbox row into an email. The row holds only the lead id, so the email shows the lead as
 * it is when sent (and a lead erased in the meantime is not emailed at all).
 */
export function createOutboxSender({
  db,
  transport,
  mail,
  maxAttempts = MAX_ATTEMPTS,
}: OutboxSenderOptions): OutboxSend {
  return async (message: OutboxMessage) => {
    if (message.kind !== LEAD_NOTIFICATION) throw new PermanentSendError(`unknown kind "${message.kind}"`);
    const leadId = Number((message.payload as Partial<LeadNotificationPayload> | null)?.leadId);
    if (!Number.isInteger(leadId)) throw new PermanentSendError("payload has no lead id");
    const lead = await findLead(db, leadId);
    if (!lead) throw new PermanentSendError(`lead ${leadId} no longer exists`);
    try {
      await transport.sendMail(composeLeadEmail(lead, mail, message.id));
    } catch (error) {
      // The lead's timeline says the email has not gone out yet (or never will), and why.
      await recordLeadEvent(db, {
        leadId,
        type: "notification_failed",
        actor: null,
        detail: {
          attempt: message.attempts,
          error: describeSendError(error),
          final: error instanceof PermanentSendError || message.attempts >= maxAttempts,
        },
        now: new Date(),
      }).catch(() => {});
      throw error;
    }
    await recordLeadEvent(db, { leadId, type: "notification_sent", actor: null, now: new Date() });
  };
}
