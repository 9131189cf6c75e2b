import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { MailTransport } from "#app/lib/mailer.server.ts";
import {
  type OutboxMessage,
  type OutboxSend,
  PermanentSendError,
} from "#app/lib/outbox/outbox-worker.server.ts";
import { linesAsHtml } from "#app/lib/plain-email.ts";
import { ALERT_CONDITION_LABELS, type AlertCondition } from "./watch-alerts.ts";
import { findWatch } from "./watch-store.server.ts";

// The alert email (issue 25): queued in the outbox in the alert's own transaction (services.server.ts
// wires the sink), sent by the outbox worker. The row names the alert, not its text: the email says
// what the alert says when it goes out, and a watch deleted meanwhile is not emailed about.

export const WATCH_ALERT_EMAIL = "watch-alert-email";
export type WatchAlertEmailPayload = { alertId: number; type: "opened" | "resolved" };

export type WatchAlertEmailSettings = { from: string; publicUrl?: string };

export function composeAlertEmail(
  alert: { id: number; watchId: number; condition: string; message: string; resolvedMessage: string | null },
  watch: { url: string; recipients: string[] },
  type: "opened" | "resolved",
  settings: WatchAlertEmailSettings,
  outboxId: number,
) {
  const label = ALERT_CONDITION_LABELS[alert.condition as AlertCondition] ?? alert.condition;
  const host = new URL(watch.url).host;
  const subject = type === "opened" ? `Alert: ${label} (${host})` : `Resolved: ${label} (${host})`;
  const said = type === "opened" ? alert.message : (alert.resolvedMessage ?? alert.message);
  const page = settings.publicUrl
    ? `${settings.publicUrl.replace(/\/+$/, "")}/admin/watches/${alert.watchId}`
    : null;
  const lines = [
    type === "opened" ? `A watched site got worse: ${watch.url}` : `Resolved for ${watch.url}`,
    "",
    said,
    "",
    ...(page ? [`See its runs: ${page}`, ""] : []),
  ];
  return {
    from: settings.from,
    to: watch.recipients.join(", "),
    subject,
    text: lines.join("\n"),
    html: linesAsHtml(lines),
    // One id per outbox row: a retried send is the same message to the receiving server.
    messageId: `<watch-alert-${alert.id}-${type}-${outboxId}@clausebridge>`,
  };
}

export function createAlertEmailSender({
  db,
  transport,
  settings,
}: {
  db: Kysely<Database>;
  transport: Pick<MailTransport, "sendMail">;
  settings: WatchAlertEmailSettings;
}): OutboxSend {
  return async (message: OutboxMessage) => {
    const payload = message.payload as Partial<WatchAlertEmailPayload> | null;
    const alertId = Number(payload?.alertId);
    const type = payload?.type;
    if (!Number.isInteger(alertId) || (type !== "opened" && type !== "resolved"))
      throw new PermanentSendError("payload has no alert");
    const alert = await db.selectFrom("watchAlerts").selectAll().where("id", "=", alertId).executeTakeFirst();
    if (!alert) throw new PermanentSendError(`alert ${alertId} no longer exists`);
    const watch = await findWatch(db, Number(alert.watchId));
    if (!watch || watch.recipients.length === 0) throw new PermanentSendError("the watch has no recipients");
    await transport.sendMail(
      composeAlertEmail(
        { ...alert, id: Number(alert.id), watchId: Number(alert.watchId) },
        watch,
        type,
        settings,
        message.id,
      ),
    );
  };
}
