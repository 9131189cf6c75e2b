import { useLocation } from "react-router";
import { BackOfficeNav } from "#app/components/back-office/back-office-nav.tsx";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { Pagination } from "#app/components/back-office/pagination.tsx";
import { adminUser, requirePermission } from "#app/features/auth/admin-guard.server.ts";
import { assertSameOrigin } from "#app/features/auth/guard.server.ts";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { leadDashboardAction, loadLeadDashboard } from "#app/features/leads/lead-dashboard.server.ts";
import { BulkActions } from "#app/features/leads/ui/bulk-actions.tsx";
import { LeadFilters } from "#app/features/leads/ui/lead-filters.tsx";
import { LeadListRange } from "#app/features/leads/ui/lead-list-range.tsx";
import { listHref } from "#app/features/leads/ui/lead-list-url.ts";
import { LeadStatusViews } from "#app/features/leads/ui/lead-status-views.tsx";
import { LeadTable } from "#app/features/leads/ui/lead-table.tsx";
import { LeadsHeading } from "#app/features/leads/ui/leads-heading.tsx";
import { NoticeBanner } from "#app/features/leads/ui/notice-banner.tsx";
import { SpamRetentionNote } from "#app/features/leads/ui/spam-retention-note.tsx";
import { SummaryStrip } from "#app/features/leads/ui/summary-strip.tsx";
import { useTickedLeads } from "#app/features/leads/ui/use-ticked-leads.ts";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import type { Route } from "./+types/dashboard";

// SPEC section 2 /admin/dashboard, grown into the sales team's workspace (issue 10): a summary strip,
// the leads filtered, sorted, searched and paged by the database, bulk actions on ticked rows. The
// view lives in the URL; every control works without JavaScript.

export const meta: Route.MetaFunction = () => adminMeta("Admin Dashboard");

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadLeadDashboard(request, context, adminUser(context));
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  return leadDashboardAction(request, context, requirePermission(context, "leads.write"));
}

export default function AdminDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const {
    view,
    page,
    pageSize,
    total,
    pageCount,
    leads,
    loadError,
    notice,
    summary,
    staff,
    spamRetentionDays,
  } = loaderData;
  const { pathname, search } = useLocation();
  const formAction = pathname + search;
  const { ticked, setTicked, toggle } = useTickedLeads();

  return (
    <div className="mx-auto flex max-w-screen-2xl flex-col gap-6 px-4 py-8 sm:px-6">
      <PageHeader title="Admin Dashboard" />

      {actionData?.message ? (
        <Banner tone="error">{actionData.message}</Banner>
      ) : (
        <NoticeBanner notice={notice} />
      )}

      {summary ? (
        <SummaryStrip summary={summary} statusHref={(status) => listHref(DASHBOARD_PATH, { status })} />
      ) : null}

      <BackOfficeNav />

      <section aria-labelledby="leads-heading" className="flex flex-col gap-4">
        <LeadsHeading view={view} total={total} />
        <LeadStatusViews view={view} heldSpam={summary?.heldSpam ?? null} />
        {view.spam === "only" ? <SpamRetentionNote days={spamRetentionDays} /> : null}
        <LeadFilters view={view} staff={staff} pageSize={pageSize} />

        {loadError ? (
          <Banner tone="error">Unable to connect to lead management API</Banner>
        ) : total === 0 ? (
          <p className="rounded-xl border border-line bg-white px-6 py-12 text-center text-ink-muted">
            No demo requests found
          </p>
        ) : (
          <>
            <BulkActions action={formAction} staff={staff} tickedCount={ticked.length} />
            <LeadListRange view={view} page={page} pageSize={pageSize} shown={leads.length} total={total} />
            <LeadTable
              leads={leads}
              view={view}
              action={formAction}
              ticked={ticked}
              onTick={setTicked}
              onToggle={toggle}
            />
            <Pagination
              page={page}
              pageCount={pageCount}
              hrefFor={(n) => listHref(DASHBOARD_PATH, view, n)}
            />
          </>
        )}
      </section>
    </div>
  );
}
