import type { RouterContextProvider } from "react-router";
import type { AppDatabase } from "#app/db/database.server.ts";
import type { Env } from "#app/env.server.ts";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { LeadAttribution } from "./lead-attribution.server.ts";

/** What the analytics report needs (issue 23). */
export type AnalyticsServices = {
  database: AppDatabase;
  env: Pick<Env, "ANALYTICS" | "ANALYTICS_RAW_DAYS">;
  leadAttribution: Pick<LeadAttribution, "settleDue">;
};

export const analyticsServicesKey = createServiceKey<AnalyticsServices>("analytics services");

export const analyticsServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, analyticsServicesKey);
