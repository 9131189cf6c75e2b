import { loadAnalyticsReport } from "#app/features/analytics/analytics-http.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import { requireApiPermission } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/analytics";

// Issue 12: GET /api/admin/analytics?from=YYYY-MM-DD&to=YYYY-MM-DD (UTC days, both inclusive; or
// period=today|7d|30d|12m; neither: the last 30 days) — the /admin/analytics report as JSON.
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiPermission(request, context, "analytics.read");
  const loaded = await loadAnalyticsReport(request, context);
  if (!loaded.ok) return Response.json({ message: loaded.message }, { status: 400 });
  return Response.json(loaded.report);
}

export const action = () => methodNotAllowed("GET");
