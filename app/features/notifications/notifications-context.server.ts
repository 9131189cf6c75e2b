import type { RouterContextProvider } from "react-router";
import type { AppDatabase } from "#app/db/database.server.ts";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { LeadDetails } from "./notification-store.server.ts";

/** What the bell, /admin/notifications and /api/admin/notifications need (issue 35). */
export type NotificationsServices = {
  database: AppDatabase;
  /**
   * A lead's name and a due task's words as the list shows them to a role that reads leads (from
   * the leads' data, through the composition root).
   */
  leadDetails: LeadDetails;
};

export const notificationsServicesKey = createServiceKey<NotificationsServices>("notifications services");

export const notificationsServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, notificationsServicesKey);
