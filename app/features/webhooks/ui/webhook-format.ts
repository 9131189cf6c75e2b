import { formatDateTime } from "#app/lib/format-date.ts";
import type { DeliveryStatus } from "../webhook-types.ts";

// How the delivery log shows times and statuses, on the server and in the browser alike.

/** "Nov 21, 2026, 10:05:07 AM" (UK time): seconds matter when reading a retry schedule. */
export function formatDeliveryTime(iso: string | null): string | null {
  return iso ? formatDateTime(iso, { seconds: true }) : null;
}

/** Dark text on a pale tint, above the 4.5:1 WCAG AA asks of small text. */
export const DELIVERY_STATUS: Record<DeliveryStatus, { label: string; className: string }> = {
  queued: { label: "Queued", className: "bg-blue-100 text-blue-900" },
  retrying: { label: "Retrying", className: "bg-yellow-100 text-yellow-900" },
  delivered: { label: "Delivered", className: "bg-green-100 text-green-900" },
  failed: { label: "Failed", className: "bg-red-100 text-red-900" },
};
