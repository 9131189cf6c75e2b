import { isRouteErrorResponse, Link, useLocation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { leadDetailAction, loadLeadDetail } from "#app/features/leads/lead-detail.server.ts";
import { DeleteLeadConfirmation } from "#app/features/leads/ui/delete-lead.tsx";
import { LeadActionsMenu } from "#app/features/leads/ui/lead-actions-menu.tsx";
import { LeadAttributionCard } from "#app/features/leads/ui/lead-attribution-card.tsx";
import { type ComposerError, LeadComposer } from "#app/features/leads/ui/lead-composer.tsx";
import { LeadDetailsCard } from "#app/features/leads/ui/lead-details-card.tsx";
import type { DetailsErrors, DetailsValues } from "#app/features/leads/ui/lead-details-edit.tsx";
import { LeadHeader } from "#app/features/leads/ui/lead-header.tsx";
import { LeadRecordNav } from "#app/features/leads/ui/lead-record-nav.tsx";
import { LeadTimelineList } from "#app/features/leads/ui/lead-timeline-list.tsx";
import { LeadWorkCard } from "#app/features/leads/ui/lead-work-card.tsx";
import { NoticeBanner } from "#app/features/leads/ui/notice-banner.tsx";
import { OtherSubmissions } from "#app/features/leads/ui/other-submissions.tsx";
import { usePopoverDetails } from "#app/features/leads/ui/use-popover-details.ts";
import { adminUser, requirePermission } from "#app/lib/admin-guard.server.ts";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/lead-detail";

// One lead, as sales work it: where it is and what comes next first (status, owner, next step, spam
// verdict), then who the person is (and what else they sent; the legal record collapsed), notes, and
// a timeline of everything that happened to it, each with who and when. Every control is a form
// that works without JavaScript.

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminMeta(loaderData ? `Lead: ${loaderData.lead.fullName}` : "Lead not found");

export async function loader({ request, context, params }: Route.LoaderArgs) {
  return loadLeadDetail(request, context, params.id, adminUser(context));
}

export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  return leadDetailAction(request, context, params.id, requirePermission(context, "leads.write"));
}

/** The page's own URL with `param` set (or removed, for null), its list state kept. */
function withParam(pathname: string, search: string, param: string, value: string | null): string {
  const params = new URLSearchParams(search);
  for (const oneOff of ["notice", "edit", "confirm-delete", "index"]) params.delete(oneOff);
  if (value !== null) params.set(param, value);
  const query = params.toString();
  return query ? `${pathname}?${query}` : pathname;
}

export default function LeadDetail({ loaderData, actionData }: Route.ComponentProps) {
  const {
    lead,
    owner,
    staff,
    nextStep,
    timeline,
    otherSubmissions,
    confirmDelete,
    editing,
    notice,
    list,
    me,
    zone,
    today,
  } = loaderData;
  const { pathname, search } = useLocation();
  const error = actionData && typeof actionData === "object" ? actionData : undefined;
  const here = withParam(pathname, search, "", null);
  const editHref = withParam(pathname, search, "edit", "details");
  const detailsError = error && "field" in error && error.field === "details" ? error : undefined;
  usePopoverDetails();

  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-6 sm:px-6">
      <div className="grid gap-4">
        <LeadRecordNav place={list} />
        <LeadHeader
          lead={lead}
          owner={owner}
          actions={
            <LeadActionsMenu
              lead={lead}
              editHref={editHref}
              confirmDeleteHref={withParam(pathname, search, "confirm-delete", "1")}
              afterDelete={list.back}
            />
          }
        />
      </div>

      {/* The composer says its own refusals beside its fields. */}
      {error?.message && !("field" in error && (error.field === "composer" || error.field === "note")) ? (
        <Banner tone="error">{error.message}</Banner>
      ) : (
        <NoticeBanner notice={error ? null : notice} />
      )}
      {confirmDelete ? <DeleteLeadConfirmation lead={lead} action={here} cancelHref={here} /> : null}

      {/* The work first: the status, owner and next step lead the page's order (the top on a phone),
          and sit in the right-hand column on a wide screen, one stack with the person's other
          submissions and where the lead came from, so the narrow column holds the reference cards
          and the wide one the record and its feed, with no empty stretch beside them. On a phone:
          the work, the details, the composer and feed, then the reference cards. */}
      <div className="flex flex-col gap-6 lg:grid lg:grid-cols-3 lg:items-start">
        <div className="max-lg:contents lg:col-start-3 lg:row-start-1 lg:grid lg:gap-6">
          <div className="max-lg:order-1">
            <LeadWorkCard
              lead={lead}
              staff={staff}
              action={here}
              nextStep={nextStep}
              nextStepError={
                error && "field" in error && error.field === "next-step" ? error.message : undefined
              }
            />
          </div>
          <div className="max-lg:order-5">
            <OtherSubmissions email={lead.email} others={otherSubmissions} />
          </div>
          <div className="max-lg:order-6">
            <LeadAttributionCard attribution={lead.attribution} />
          </div>
        </div>

        <div className="max-lg:contents lg:col-span-2 lg:col-start-1 lg:row-start-1 lg:grid lg:gap-6">
          <div className="max-lg:order-2">
            <LeadDetailsCard
              lead={lead}
              action={here}
              editHref={editHref}
              cancelHref={here}
              serverEditing={editing || Boolean(detailsError)}
              serverErrors={
                detailsError && "errors" in detailsError ? (detailsError.errors as DetailsErrors) : undefined
              }
              serverValues={
                detailsError && "values" in detailsError ? (detailsError.values as DetailsValues) : undefined
              }
            />
          </div>
          <div className="grid gap-6 max-lg:order-3">
            {/* One composer (note, call, e-mail, task) directly above the one feed (issue 35). */}
            <LeadComposer
              action={here}
              initialKind={loaderData.composer}
              staff={staff}
              me={me}
              zoneLabel={zone}
              today={today}
              error={
                error && "composer" in error
                  ? (error.composer as ComposerError)
                  : error && "field" in error && error.field === "note"
                    ? {
                        kind: "note",
                        message: error.message,
                        values: { body: "body" in error ? String(error.body) : "" },
                      }
                    : null
              }
              sent={
                notice === "note" || notice === "call" || notice === "email" || notice === "task"
                  ? notice
                  : null
              }
            />
            <LeadTimelineList timeline={timeline} zone={zone} />
          </div>
        </div>
      </div>
    </div>
  );
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound && !isRouteErrorResponse(error)) console.error(error);
  return (
    <div className="mx-auto max-w-2xl px-4 py-16 text-center">
      <h1 className="text-3xl font-bold tracking-tight">
        {notFound ? "Lead not found" : "Something went wrong"}
      </h1>
      <p className="mt-4 text-ink-muted">
        {notFound
          ? "There is no lead with this number. It may have been erased."
          : "The lead could not be shown. Please try again in a moment."}
      </p>
      <Link to={DASHBOARD_PATH} className="mt-8 inline-block font-semibold text-brand underline">
        Go to the leads
      </Link>
    </div>
  );
}
