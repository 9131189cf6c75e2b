import type { RouterContextProvider } from "react-router";
import { analyticsServices } from "./analytics-context.server.ts";
import { buildAnalyticsReport } from "./analytics-report.server.ts";
import type { AnalyticsReport } from "./analytics-report.ts";
import { parsePeriodQuery, type ReportPeriod } from "./report-period.ts";

// What /admin/analytics and GET /api/admin/analytics share: the period from the URL, validated,
// and the report for it. The callers have already let an admin in (their guards).

export type LoadedReport =
  | {
      ok: true;
      period: ReportPeriod;
      report: AnalyticsReport;
      today: string;
      /** False with ANALYTICS=off: no page views are counted (leads still are). */
      counting: boolean;
    }
  /** `asked`: the dates as sent (cut to 10 characters), for the form to show them again. */
  | { ok: false; message: string; today: string; asked: { from: string; to: string } };

export async function loadAnalyticsReport(
  request: Request,
  context: Readonly<RouterContextProvider>,
  now = new Date(),
): Promise<LoadedReport> {
  const today = now.toISOString().slice(0, 10);
  const params = new URL(request.url).searchParams;
  const parsed = parsePeriodQuery(params, now);
  if (!parsed.ok) {
    const asked = (name: string) => (params.get(name) ?? "").slice(0, 10);
    return { ok: false, message: parsed.message, today, asked: { from: asked("from"), to: asked("to") } };
  }
  const { database, env, leadAttribution } = await analyticsServices(context);
  // Leads whose visit has had time to be written get their channel now; not waited for, as the lead
  // list does not: a lead of the last few seconds shows in the channel "Not linked yet".
  leadAttribution.settleDue().catch((error: Error) => {
    console.error("Settling lead attributions failed:", error.message.split("\n")[0]);
  });
  const report = await buildAnalyticsReport(database.db, {
    from: parsed.period.from,
    to: parsed.period.to,
    rawDays: env.ANALYTICS_RAW_DAYS,
    now,
  });
  return { ok: true, period: parsed.period, report, today, counting: env.ANALYTICS === "on" };
}
