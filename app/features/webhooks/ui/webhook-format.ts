import type { DeliveryStatus } from "../webhook-types.ts";

// How the delivery log shows times and statuses, on the server and in the browser alike.

// NOTE: an explicit zone, so the server's render and the browser's agree whatever their clocks say.
const timeFormat = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  timeZone: "Europe/London",
});

/** "21 Nov 2026, 10:05:07" (UK time): seconds matter when reading a retry schedule. */
export function formatDeliveryTime(iso: string | null): string | null {
  if (!iso) return null;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return timeFormat.format(date).replace(/[\u202f\u00a0]/g, " ");
}

/** Dark text on a pale tint, above the 4.5:1 WCAG AA asks of small text. */
export const DELIVERY_STATUS: Record<DeliveryStatus, { label: string; className: string }> = {
  queued: { label: "Queued", className: "bg-blue-100 text-blue-900" },
  retrying: { label: "Retrying", className: "bg-yellow-100 text-yellow-900" },
  delivered: { label: "Delivered", className: "bg-green-100 text-green-900" },
  failed: { label: "Failed", className: "bg-red-100 text-red-900" },
};
