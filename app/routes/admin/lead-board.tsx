import { useLocation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { loadLeadBoardPage } from "#app/features/leads/lead-board-page.server.ts";
import { leadDashboardAction } from "#app/features/leads/lead-dashboard.server.ts";
import { LeadBoard } from "#app/features/leads/ui/lead-board.tsx";
import { LeadFilters } from "#app/features/leads/ui/lead-filters.tsx";
import { LeadViewSwitch } from "#app/features/leads/ui/lead-view-switch.tsx";
import { NoticeBanner } from "#app/features/leads/ui/notice-banner.tsx";
import { SavedViewsBar } from "#app/features/leads/ui/saved-views-bar.tsx";
import { usePopoverDetails } from "#app/features/leads/ui/use-popover-details.ts";
import { adminUser, requirePermission } from "#app/lib/admin-guard.server.ts";
import { BOARD_PATH } from "#app/lib/admin-paths.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/lead-board";

// Issue 35: the leads by status, with the list's search, filters and saved views (the same URL
// parameters). Moving a card is the list's status change; the forms post to the dashboard's action,
// which answers with a redirect back here.

export const meta: Route.MetaFunction = () => adminMeta("Leads (board)");

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadLeadBoardPage(request, context, adminUser(context));
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  return leadDashboardAction(request, context, requirePermission(context, "leads.write"));
}

export default function LeadBoardPage({ loaderData, actionData }: Route.ComponentProps) {
  const { view, columns, staff, savedViews, loadError, notice, more } = loaderData;
  const { pathname, search } = useLocation();
  usePopoverDetails();
  const total = columns.reduce((sum, column) => sum + column.count, 0);
  return (
    <div className="mx-auto flex max-w-screen-2xl flex-col gap-4 px-4 py-5 sm:px-6">
      <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <h1 className="text-2xl font-bold tracking-tight">Leads</h1>
        <span className="text-base font-medium text-ink-muted tabular-nums">{total} matching</span>
        <div className="self-center sm:ml-2">
          <LeadViewSwitch current="board" view={view} />
        </div>
      </div>
      {actionData?.message ? (
        <Banner tone="error">{actionData.message}</Banner>
      ) : (
        <NoticeBanner notice={notice} />
      )}
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <LeadFilters view={view} staff={staff} base={BOARD_PATH} />
        <SavedViewsBar views={savedViews} action={pathname + search} base={BOARD_PATH} />
      </div>
      {loadError ? (
        <Banner tone="error">Unable to connect to lead management API</Banner>
      ) : (
        <LeadBoard columns={columns} view={view} action={pathname + search} more={more} />
      )}
    </div>
  );
}
