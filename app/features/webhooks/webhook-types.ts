import type { WebhookEventType } from "./webhook-schema.ts";

// The shapes the webhook pages and the JSON API show (types only, shared by server and browser).

/** A webhook as staff and the API see it: never with its secret. */
export type Webhook = {
  id: number;
  url: string;
  events: WebhookEventType[];
  createdAt: string;
  createdBy: string;
  secretRotatedAt: string | null;
};

export type DeliveryStatus = "queued" | "retrying" | "delivered" | "failed";

/** A line of the delivery log. Never the body: it holds a copy of the lead. */
export type WebhookDelivery = {
  id: number;
  eventId: string;
  event: string;
  test: boolean;
  status: DeliveryStatus;
  attempts: number;
  lastError: string | null;
  responseStatus: number | null;
  responseBody: string | null;
  createdAt: string;
  lastAttemptAt: string | null;
  /** When the next attempt is due (status "queued" or "retrying"). */
  nextAttemptAt: string | null;
};
