import { useLocation } from "react-router";
import { BackOfficeNav } from "#app/components/back-office/back-office-nav.tsx";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Pagination } from "#app/components/back-office/pagination.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { leadDashboardAction, loadLeadDashboard } from "#app/features/leads/lead-dashboard.server.ts";
import { BulkActions } from "#app/features/leads/ui/bulk-actions.tsx";
import { LeadFilters } from "#app/features/leads/ui/lead-filters.tsx";
import { LeadListRange } from "#app/features/leads/ui/lead-list-range.tsx";
import { listHref } from "#app/features/leads/ui/lead-list-url.ts";
import { LeadStatusViews } from "#app/features/leads/ui/lead-status-views.tsx";
import { LeadTable } from "#app/features/leads/ui/lead-table.tsx";
import { LeadViewSwitch } from "#app/features/leads/ui/lead-view-switch.tsx";
import { LeadsHeading } from "#app/features/leads/ui/leads-heading.tsx";
import { ShortcutsDialog, useListShortcuts } from "#app/features/leads/ui/list-shortcuts.tsx";
import { NoticeBanner } from "#app/features/leads/ui/notice-banner.tsx";
import { SavedViewsBar } from "#app/features/leads/ui/saved-views-bar.tsx";
import { SpamRetentionNote } from "#app/features/leads/ui/spam-retention-note.tsx";
import { SummaryStrip } from "#app/features/leads/ui/summary-strip.tsx";
import { usePopoverDetails } from "#app/features/leads/ui/use-popover-details.ts";
import { useTickedLeads } from "#app/features/leads/ui/use-ticked-leads.ts";
import { adminUser, requirePermission } from "#app/lib/admin-guard.server.ts";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { Route } from "./+types/dashboard";

// SPEC section 2 /admin/dashboard, grown into the sales team's workspace (issue 10) and opening on the
// work (issue 23): a one-line summary, then the list (search, status views with counts, filters
// behind "Filters", the team's saved views), bulk actions on ticked rows, keyboard shortcuts; the
// back office's cards below it. The view lives in the URL; every control works without JavaScript.

// The navigation calls it Leads (issue 35): the tab says so; the h1 keeps the SPEC's "Admin Dashboard".
export const meta: Route.MetaFunction = () => adminMeta("Leads");

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
    savedViews,
    spamRetentionDays,
    userId,
  } = loaderData;
  const { pathname, search } = useLocation();
  const formAction = pathname + search;
  const { ticked, setTicked, toggle } = useTickedLeads();
  const { activeId, helpOpen, setHelpOpen } = useListShortcuts({
    leadIds: leads.map((lead) => lead.id),
    ticked,
    onToggle: toggle,
  });
  const hydrated = useHydrated();
  usePopoverDetails();

  return (
    <div className="mx-auto flex max-w-screen-2xl flex-col gap-4 px-4 py-5 sm:px-6">
      {/* The heading and the one-line summary share a line; who is signed in and Logout are in the shell. */}
      <div className="flex flex-wrap items-center gap-x-6 gap-y-2">
        <h1 className="text-2xl font-bold tracking-tight">Admin Dashboard</h1>
        <div className="min-w-0 flex-1 basis-72">{summary ? <SummaryStrip summary={summary} /> : null}</div>
      </div>

      {actionData?.message ? (
        <Banner tone="error">{actionData.message}</Banner>
      ) : (
        <NoticeBanner notice={notice} />
      )}

      <section aria-labelledby="leads-heading" className="flex flex-col gap-3">
        <LeadsHeading
          view={view}
          total={total}
          layoutSwitch={<LeadViewSwitch current="list" view={view} />}
        />
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          <LeadFilters view={view} staff={staff} pageSize={pageSize} />
          <SavedViewsBar views={savedViews} action={formAction} />
        </div>
        <div className="flex min-w-0 flex-wrap items-center justify-between gap-2">
          <LeadStatusViews
            view={view}
            counts={summary ? { byStatus: summary.listedByStatus, heldSpam: summary.heldSpam } : null}
          />
          {hydrated ? (
            <button
              type="button"
              onClick={() => setHelpOpen(true)}
              className="text-sm font-semibold text-ink-muted hover:text-brand max-md:hidden"
            >
              Keyboard shortcuts <kbd className="rounded border border-line px-1 font-mono">?</kbd>
            </button>
          ) : null}
        </div>
        {view.spam === "only" ? <SpamRetentionNote days={spamRetentionDays} /> : null}

        {loadError ? (
          <Banner tone="error">Unable to connect to lead management API</Banner>
        ) : total === 0 ? (
          <p className="rounded-xl border border-line bg-white px-6 py-12 text-center text-ink-muted">
            No demo requests found
          </p>
        ) : (
          <>
            <div className="flex flex-wrap items-center justify-between gap-2 max-md:contents">
              <BulkActions
                action={formAction}
                staff={staff}
                selectedCount={ticked.length}
                onClear={() => setTicked([])}
              />
              {/* On a phone the range and page size go below the cards (the row's box dissolves into
                  the section's column and this moves last), out of the way of the work. */}
              <div className="max-md:order-last">
                <LeadListRange
                  action={formAction}
                  page={page}
                  pageSize={pageSize}
                  shown={leads.length}
                  total={total}
                />
              </div>
            </div>
            <LeadTable
              leads={leads}
              view={view}
              action={formAction}
              staff={staff}
              activeId={activeId}
              ticked={ticked}
              onTick={setTicked}
              onToggle={toggle}
              list={{ from: listHref(DASHBOARD_PATH, view, page), offset: (page - 1) * pageSize }}
              meId={userId}
            />
            <Pagination
              page={page}
              pageCount={pageCount}
              hrefFor={(n) => listHref(DASHBOARD_PATH, view, n)}
            />
          </>
        )}
      </section>

      {/* The rest of the back office, below the work (the app shell's navigation lists it too). */}
      <BackOfficeNav />
      <ShortcutsDialog open={helpOpen} onOpenChange={setHelpOpen} />
    </div>
  );
}
