import { Link, useLocation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { Pagination } from "#app/components/back-office/pagination.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { loadMeetingsPage, meetingsPageAction } from "#app/features/meetings/meetings-page.server.ts";
import {
  MeetingFilters,
  MeetingList,
  MeetingWhenSwitch,
  meetingsHref,
} from "#app/features/meetings/ui/meeting-list.tsx";
import { adminUser, requirePermission } from "#app/lib/admin-guard.server.ts";
import { countOf } from "#app/lib/count-words.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/meetings";

// Issue 34, the staff side of meetings: upcoming and past, per host and status, each with its lead;
// once a meeting has started, "Held" or "No-show" records its outcome (on the lead's timeline too).
// Plain links and forms: it works without JavaScript.

export const meta: Route.MetaFunction = () => adminMeta("Meetings");

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadMeetingsPage(request, context, adminUser(context));
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  return meetingsPageAction(request, context, requirePermission(context, "leads.write"));
}

export default function Meetings({ loaderData, actionData }: Route.ComponentProps) {
  const { view, hosts, meetings, total, page, pageCount, notice, error } = loaderData;
  const { search } = useLocation();
  const filtered = Boolean(view.host || view.status);
  const actionError = actionData && "error" in actionData ? actionData.error : null;
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title="Meetings"
        description={
          <>
            Demos and investor calls prospects booked, each with its lead. Times are UK time. Once a meeting
            has started, record whether it was held or the attendee did not come; the lead's timeline shows
            it.
          </>
        }
      />
      {actionError ? <Banner tone="error">{actionError}</Banner> : null}
      {notice && !actionError ? <Banner tone="success">{notice}</Banner> : null}
      {error ? <Banner tone="error">{error}</Banner> : null}

      <div className="flex flex-wrap items-end justify-between gap-4">
        <MeetingWhenSwitch view={view} />
        <MeetingFilters view={view} hosts={hosts} />
      </div>

      {meetings.length === 0 ? (
        <div className="rounded-xl border border-line bg-white px-6 py-12 text-center">
          <p className="font-semibold">
            {filtered
              ? `No ${view.when} meetings match these filters.`
              : view.when === "upcoming"
                ? "No upcoming meetings."
                : "No past meetings yet."}
          </p>
          <p className="mx-auto mt-1 max-w-prose text-ink-muted">
            {filtered ? (
              <Link
                to={meetingsHref({ when: view.when, host: "", status: "" })}
                className="font-semibold text-brand underline underline-offset-2"
              >
                Show every {view.when} meeting
              </Link>
            ) : (
              <>
                Prospects book a time from the thank-you panel after a request, on /book/demo and
                /book/investor, or through the API; their meetings appear here with their leads.
              </>
            )}
          </p>
        </div>
      ) : (
        <>
          <p className="text-sm text-ink-muted" aria-live="polite">
            {countOf(total, view.when === "upcoming" ? "upcoming meeting" : "past meeting")}
          </p>
          <MeetingList meetings={meetings} back={search} />
        </>
      )}
      <Pagination page={page} pageCount={pageCount} hrefFor={(n) => meetingsHref(view, n)} />
    </div>
  );
}
