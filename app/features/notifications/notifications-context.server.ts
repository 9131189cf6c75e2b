import type { RouterContextProvider } from "react-router";
import type { AppDatabase } from "#app/db/database.server.ts";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { LeadLabels } from "./notification-store.server.ts";

/** What the bell, /admin/notifications and /api/admin/notifications need (issue 35). */
export type NotificationsServices = {
  database: AppDatabase;
  /** The leads' names as the list shows them (from features/leads, through the composition root). */
  leadLabels: LeadLabels;
};

export const notificationsServicesKey = createServiceKey<NotificationsServices>("notifications services");

export const notificationsServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, notificationsServicesKey);
