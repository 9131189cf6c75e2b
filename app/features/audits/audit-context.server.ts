import type { RouterContextProvider } from "react-router";
import type { AppDatabase } from "#app/db/database.server.ts";
import type { Env } from "#app/env.server.ts";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { AuditSlots } from "./audit-slots.server.ts";

/** What the website audits need (issue 23). */
export type AuditServices = {
  database: AppDatabase;
  env: Pick<Env, "AUDIT_ALLOW_PRIVATE_TARGETS" | "PUBLIC_URL" | "CHROMIUM_PATH">;
  /** Bounds the audits running and waiting at once. */
  auditSlots: AuditSlots;
};

export const auditServicesKey = createServiceKey<AuditServices>("audit services");

export const auditServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, auditServicesKey);
