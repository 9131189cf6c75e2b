import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { MailTransport } from "#app/lib/mailer.server.ts";
import {
  type OutboxMessage,
  type OutboxSend,
  PermanentSendError,
} from "#app/lib/outbox/outbox-worker.server.ts";
import { linesAsHtml } from "#app/lib/plain-email.ts";
import type { LeadLabels, NotificationEmailPayload } from "./notification-store.server.ts";

// A notification by e-mail (issue 35): for the kinds a person chose on /admin/account (a lead
// assigned to them, a task of theirs due). The outbox row names the notification; the e-mail says
// what it says when it goes out, to the address the person has then, and nothing once they turned
// the choice off, lost the address, or the notification is gone (its lead erased).

export type NotificationEmailSettings = { from: string; publicUrl?: string };

export function composeNotificationEmail(
  notification: { id: number; title: string; link: string },
  lead: string | null,
  to: string,
  settings: NotificationEmailSettings,
  outboxId: number,
) {
  const subject = lead ? `${notification.title}: ${lead}` : notification.title;
  const page = settings.publicUrl ? `${settings.publicUrl.replace(/\/+$/, "")}${notification.link}` : null;
  const lines = [
    notification.title,
    ...(lead ? ["", lead] : []),
    "",
    ...(page ? [`Open it: ${page}`, ""] : []),
    "You get this because you chose it on your account page in the back office; turn it off there.",
  ];
  return {
    from: settings.from,
    to,
    // One line: a name with a line break never reaches the header.
    subject: subject.replace(/[\r\n]+/g, " ").slice(0, 200),
    text: lines.join("\n"),
    html: linesAsHtml(lines),
    messageId: `<notification-${notification.id}-${outboxId}@clausebridge>`,
  };
}

export function createNotificationEmailSender({
  db,
  transport,
  settings,
  leadLabels,
}: {
  db: Kysely<Database>;
  transport: Pick<MailTransport, "sendMail">;
  settings: NotificationEmailSettings;
  leadLabels: LeadLabels;
}): OutboxSend {
  return async (message: OutboxMessage) => {
    const payload = message.payload as Partial<NotificationEmailPayload> | null;
    const id = Number(payload?.notificationId);
    if (!Number.isInteger(id)) throw new PermanentSendError("payload has no notification");
    const row = await db
      .selectFrom("notifications")
      .innerJoin("users", "users.id", "notifications.userId")
      .select([
        "notifications.id",
        "notifications.kind",
        "notifications.title",
        "notifications.link",
        "notifications.leadId",
        "users.email",
        "users.disabled",
        "users.emailOnAssignment",
        "users.emailOnTaskDue",
      ])
      .where("notifications.id", "=", id)
      .executeTakeFirst();
    if (!row) throw new PermanentSendError(`notification ${id} no longer exists`);
    const chosen = row.kind === "lead.assigned" ? row.emailOnAssignment : row.emailOnTaskDue;
    if (!row.email || Number(row.disabled) === 1 || Number(chosen) !== 1)
      throw new PermanentSendError("the person no longer gets this by e-mail");
    const lead =
      row.leadId === null ? null : ((await leadLabels([Number(row.leadId)])).get(Number(row.leadId)) ?? null);
    await transport.sendMail(
      composeNotificationEmail({ ...row, id: Number(row.id) }, lead, row.email, settings, message.id),
    );
  };
}
