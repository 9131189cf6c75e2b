import type { RouterContextProvider } from "react-router";
import type { AppDatabase } from "#app/db/database.server.ts";
import type { Env } from "#app/env.server.ts";
import { createServiceKey, servicesOf } from "#app/lib/service-context.server.ts";
import type { LeadAdmin } from "./lead-admin.server.ts";
import type { LeadIntake } from "./lead-intake.server.ts";
import type { LeadService } from "./lead-service.server.ts";
import type { createLeadSummaryCache } from "./lead-summary.server.ts";

/** What the lead forms, the lead workspace, its API and the API keys need (issue 23). */
export type LeadsServices = {
  database: AppDatabase;
  /** Signs the forms' time tokens and keys the erasure suppression list. */
  secret: string;
  env: Pick<Env, "SPAM_RETENTION_DAYS" | "API_KEY_RATE_LIMIT" | "PUBLIC_URL">;
  /** The public forms and the lead API. */
  leads: LeadService;
  /** Staff's changes to leads (status, owner, spam, bulk, erasure), with their history. */
  leadAdmin: LeadAdmin;
  /** Leads staff add by hand or import from a CSV, and the undo of an import. */
  leadIntake: LeadIntake;
  /** The dashboard's summary strip and the shell's counts, cached a few seconds. */
  leadSummary: ReturnType<typeof createLeadSummaryCache>;
  /**
   * Settles the leads' pending attributions (owned by analytics) so staff see final ones: resolves
   * to how many were settled.
   */
  settleAttributions(): Promise<number>;
  /**
   * A short-lived token that lets the person who just sent a request book a meeting without a second
   * form (issue 34; owned by meetings): the thank-you panel's time picker sends it with the time.
   */
  bookingToken(leadId: number): string;
  /**
   * The staff member's time zone (issue 35; owned by meetings: their availability's zone, else the
   * back office's): a task's due time is read and shown in it, and the morning e-mail goes at 07:00 in it.
   */
  timeZonesOf(userIds: readonly number[]): Promise<Map<number, string>>;
};

/** One person's zone through the port. */
export async function timeZoneOf(services: LeadsServices, userId: number): Promise<string> {
  return (await services.timeZonesOf([userId])).get(userId) ?? "UTC";
}

export const leadsServicesKey = createServiceKey<LeadsServices>("lead services");

export const leadsServices = (context: Readonly<RouterContextProvider>) =>
  servicesOf(context, leadsServicesKey);
