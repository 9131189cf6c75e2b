import type { RouterContextProvider } from "react-router";
import type { AppDatabase } from "#app/db/database.server.ts";
import type { Env } from "#app/env.server.ts";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";

/** What the webhook pages and API need (issue 23). */
export type WebhookServices = {
  database: AppDatabase;
  env: Pick<Env, "WEBHOOK_ALLOW_PRIVATE_TARGETS">;
  /** Wakes this instance's outbox worker after a commit that queued deliveries. Never blocks. */
  notifyOutbox(): void;
};

export const webhookServicesKey = createServiceKey<WebhookServices>("webhook services");

export const webhookServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, webhookServicesKey);
