import { cn } from "#app/lib/cn.ts";
import type { WebhookDelivery } from "../webhook-types.ts";
import { DELIVERY_STATUS } from "./webhook-format.ts";

/** A delivery as the page shows it: times already formatted by the server. */
export type DeliveryRow = Omit<WebhookDelivery, "createdAt" | "lastAttemptAt" | "nextAttemptAt"> & {
  when: string;
  lastAttempt: string | null;
  nextAttempt: string | null;
};

/** The latest deliveries of one webhook, newest first: one card per delivery, at any width. */
export function DeliveryLog({ deliveries, headingId }: { deliveries: DeliveryRow[]; headingId: string }) {
  if (deliveries.length === 0) {
    return (
      <p className="text-sm text-ink-muted">No deliveries yet. Send a test event to try the endpoint.</p>
    );
  }
  return (
    <ol aria-labelledby={headingId} className="grid gap-2">
      {deliveries.map((delivery) => {
        const status = DELIVERY_STATUS[delivery.status];
        return (
          <li
            key={delivery.id}
            data-testid="webhook-delivery"
            className="grid gap-1 rounded-lg border border-line bg-surface-muted/40 px-3 py-2 text-sm"
          >
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className={cn("rounded px-2 py-0.5 text-xs font-semibold", status.className)}>
                {status.label}
              </span>
              <code className="font-semibold">{delivery.event}</code>
              {delivery.test ? (
                <span className="rounded border border-line px-1.5 text-xs font-semibold text-ink-muted">
                  Test
                </span>
              ) : null}
              <span className="text-ink-muted">{delivery.when}</span>
            </div>
            <p className="text-ink-muted">
              {delivery.attempts === 1 ? "1 attempt" : `${delivery.attempts} attempts`}
              {delivery.responseStatus !== null ? ` · HTTP ${delivery.responseStatus}` : ""}
              {delivery.lastAttempt ? ` · last ${delivery.lastAttempt}` : ""}
              {delivery.nextAttempt ? ` · next attempt ${delivery.nextAttempt}` : ""}
            </p>
            {delivery.lastError && delivery.status !== "delivered" ? (
              <p className="break-words text-danger">{delivery.lastError}</p>
            ) : null}
            {delivery.responseBody ? (
              <details className="text-ink-muted">
                <summary className="cursor-pointer">Response body</summary>
                <pre className="mt-1 max-h-40 overflow-auto rounded border border-line bg-white p-2 text-xs whitespace-pre-wrap break-words">
                  {delivery.responseBody}
                </pre>
              </details>
            ) : null}
          </li>
        );
      })}
    </ol>
  );
}
