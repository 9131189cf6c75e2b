import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { MailTransport } from "#app/lib/mailer.server.ts";
import type { NotificationEmailPayload } from "#app/lib/outbox/outbox.server.ts";
import {
  type OutboxMessage,
  type OutboxSend,
  PermanentSendError,
} from "#app/lib/outbox/outbox-worker.server.ts";
import { can, isRole, type Permission } from "#app/lib/permissions.ts";
import { linesAsHtml } from "#app/lib/plain-email.ts";
import type { LeadDetails } from "./notification-store.server.ts";

// A notification by e-mail (issue 35): for the kinds a person chose on /admin/account (a lead
// assigned to them, a task of theirs due). The outbox row names the notification; the e-mail says
// what it says when it goes out, to the address the person has then, and nothing once they turned
// the choice off, lost the address, or the notification is gone (its lead erased or anonymised), or
// once their role no longer does the work it is about: both kinds are about a lead, so the lead's
// name (and a due task's words) are only ever added for a role that reads leads, read at sending.

/** What a person's role needs, at sending time, to get each kind by e-mail. */
const EMAIL_NEEDS: Readonly<Record<string, readonly Permission[]>> = {
  "lead.assigned": ["leads.read"],
  "task.due": ["tasks.own", "leads.read"],
};

export type NotificationEmailSettings = { from: string; publicUrl?: string };

export function composeNotificationEmail(
  notification: { id: number; title: string; link: string },
  about: { lead: string | null; detail: string | null },
  to: string,
  settings: NotificationEmailSettings,
  outboxId: number,
) {
  const { lead, detail } = about;
  const subject = lead ? `${notification.title}: ${lead}` : notification.title;
  const page = settings.publicUrl ? `${settings.publicUrl.replace(/\/+$/, "")}${notification.link}` : null;
  const lines = [
    notification.title,
    ...(detail ? ["", detail] : []),
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
  details,
}: {
  db: Kysely<Database>;
  transport: Pick<MailTransport, "sendMail">;
  settings: NotificationEmailSettings;
  details: LeadDetails;
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
        "notifications.subjectId",
        "users.email",
        "users.role",
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
    // The role as it is now: moved to one that does not work leads since it was queued, nothing.
    const role = isRole(row.role) ? row.role : null;
    const needs = EMAIL_NEEDS[row.kind] ?? ["leads.read"];
    if (!needs.every((permission) => can(role, permission)))
      throw new PermanentSendError("the person's role no longer gets this by e-mail");
    // Whatever the kind: a lead's name and a task's words only for a role that reads leads.
    const readsLeads = can(role, "leads.read");
    const leadId = readsLeads && row.leadId !== null ? Number(row.leadId) : null;
    const taskId =
      readsLeads && row.kind === "task.due" && row.subjectId !== null ? Number(row.subjectId) : null;
    const [lead, detail] = await Promise.all([
      leadId === null ? null : details.leadLabels([leadId]).then((labels) => labels.get(leadId) ?? null),
      taskId === null ? null : details.taskTexts([taskId]).then((texts) => texts.get(taskId) ?? null),
    ]);
    await transport.sendMail(
      composeNotificationEmail(
        { ...row, id: Number(row.id) },
        { lead, detail },
        row.email,
        settings,
        message.id,
      ),
    );
  };
}
