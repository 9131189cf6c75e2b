import type { ReactNode } from "react";
import { data, isRouteErrorResponse, Link, redirect, useLocation } from "react-router";
import { adminUser } from "#app/features/admin-ui/admin-guard.server.ts";
import { adminMeta } from "#app/features/admin-ui/admin-meta.ts";
import { DASHBOARD_PATH } from "#app/features/admin-ui/admin-paths.ts";
import {
  CONFIRM_DELETE_PARAM,
  DeleteLeadButton,
  DeleteLeadConfirmation,
} from "#app/features/admin-ui/delete-lead.tsx";
import { formatLeadDate } from "#app/features/admin-ui/lead-format.ts";
import {
  changeStatusFromForm,
  deleteFromForm,
  parseLeadId,
  readNotice,
  withNotice,
} from "#app/features/admin-ui/lead-forms.server.ts";
import { LeadStatusControl } from "#app/features/admin-ui/lead-status-control.tsx";
import { LogoutButton } from "#app/features/admin-ui/logout-button.tsx";
import { Banner, NoticeBanner } from "#app/features/admin-ui/notice-banner.tsx";
import { StatusBadge } from "#app/features/admin-ui/status-badge.tsx";
import { assertSameOrigin } from "#app/features/auth/guard.server.ts";
import { leadHistory } from "#app/features/leads/lead-admin.server.ts";
import { findLead } from "#app/features/leads/lead-repository.server.ts";
import { readForm } from "#app/lib/http.server.ts";
import { getServices } from "#app/services.server.ts";
import type { Route } from "./+types/lead-detail";

// One lead: everything it holds, its status history, the status control and erasure.

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminMeta(loaderData ? `Lead: ${loaderData.lead.fullName}` : "Lead not found");

const notFound = () => data("Lead not found", { status: 404 });

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const id = parseLeadId(params.id);
  if (id === null) throw notFound();
  const { database } = await getServices(context);
  const [lead, history] = await Promise.all([findLead(database.db, id), leadHistory(database.db, id)]);
  if (!lead) throw notFound();
  const url = new URL(request.url);
  return {
    lead: { ...lead, created: formatLeadDate(lead.createdAt), updated: formatLeadDate(lead.updatedAt) },
    history: history.map((change) => ({ ...change, when: formatLeadDate(change.changedAt) })),
    confirmDelete: url.searchParams.has(CONFIRM_DELETE_PARAM),
    notice: readNotice(url),
  };
}

/** Without JavaScript: `intent=status` (with `status`) or `intent=delete` (after the confirmation step). */
export async function action({ request, context, params }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = adminUser(context);
  const id = parseLeadId(params.id);
  const form = await readForm(request);
  const { database } = await getServices(context);
  const intent = form.get("intent");
  if (intent === "delete") {
    const outcome = await deleteFromForm(database.db, id);
    if (!outcome.ok) throw data(outcome.message, { status: outcome.status });
    throw redirect(withNotice(DASHBOARD_PATH, "deleted"));
  }
  if (intent !== "status") return data({ message: "Unknown action." }, { status: 400 });
  const outcome = await changeStatusFromForm(database.db, id, form, user);
  if (!outcome.ok) {
    if (outcome.status === 404) throw data(outcome.message, { status: 404 });
    return data({ message: outcome.message }, { status: outcome.status });
  }
  throw redirect(withNotice(new URL(request.url).pathname, "updated"));
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-t border-line py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="font-semibold">{label}</dt>
      <dd className="break-words sm:col-span-2">{children}</dd>
    </div>
  );
}

const none = <span className="text-ink-muted">—</span>;

const INVESTOR_LABELS = { angel: "Angel", vc: "VC", introducer: "Introducer", other: "Other" } as const;

export default function LeadDetail({ loaderData, actionData }: Route.ComponentProps) {
  const { lead, history, confirmDelete, notice } = loaderData;
  const { pathname } = useLocation();
  const investorTypes = (Object.keys(INVESTOR_LABELS) as (keyof typeof INVESTOR_LABELS)[])
    .filter((key) => lead.investorType[key])
    .map((key) => INVESTOR_LABELS[key]);

  return (
    <div className="mx-auto grid max-w-4xl gap-6 px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <Link to={DASHBOARD_PATH} className="font-semibold text-brand underline underline-offset-2">
          ← Back to Dashboard
        </Link>
        <LogoutButton />
      </div>

      <div>
        <p className="text-sm font-semibold tracking-wider text-ink-muted uppercase">
          {lead.requestType === "investor" ? "Investor interest" : "Demo request"} #{lead.id}
        </p>
        <h1 className="mt-1 text-3xl font-bold tracking-tight break-words">{lead.fullName}</h1>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <StatusBadge status={lead.status} />
          {lead.isSpam ? (
            <span className="rounded bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900">Spam</span>
          ) : null}
        </div>
      </div>

      {actionData?.message ? (
        <Banner tone="error">{actionData.message}</Banner>
      ) : (
        <NoticeBanner notice={notice} />
      )}
      {confirmDelete ? <DeleteLeadConfirmation lead={lead} action={pathname} /> : null}

      <section
        aria-labelledby="details-heading"
        className="rounded-xl border border-line bg-white p-6 shadow-sm"
      >
        <h2 id="details-heading" className="text-xl font-semibold">
          Details
        </h2>
        <dl className="mt-4">
          <Detail label="Full name">{lead.fullName}</Detail>
          <Detail label="Company">{lead.company}</Detail>
          <Detail label="Email">
            <a className="text-brand underline underline-offset-2" href={`mailto:${lead.email}`}>
              {lead.email}
            </a>
          </Detail>
          <Detail label="Phone">{lead.phone}</Detail>
          <Detail label="Message">
            {lead.message ? <span className="whitespace-pre-wrap">{lead.message}</span> : none}
          </Detail>
          {lead.requestType === "investor" ? (
            <>
              <Detail label="Investor type">
                {investorTypes.length > 0 ? investorTypes.join(", ") : none}
              </Detail>
              <Detail label="Other details">
                {lead.otherDetails ? <span className="whitespace-pre-wrap">{lead.otherDetails}</span> : none}
              </Detail>
            </>
          ) : null}
          <Detail label="Source page">{lead.sourcePage ?? none}</Detail>
          <Detail label="Privacy notice version">{lead.privacyNoticeVersion}</Detail>
          <Detail label="Spam">
            {lead.isSpam ? `Yes${lead.spamReason ? ` (${lead.spamReason})` : ""}` : "No"}
          </Detail>
          <Detail label="Created">{lead.created}</Detail>
          <Detail label="Updated">{lead.updated}</Detail>
        </dl>
      </section>

      <section
        aria-labelledby="status-heading"
        className="rounded-xl border border-line bg-white p-6 shadow-sm"
      >
        <h2 id="status-heading" className="text-xl font-semibold">
          Status
        </h2>
        <div className="mt-4 max-w-xs">
          <LeadStatusControl lead={lead} action={pathname} />
        </div>
        <h3 className="mt-6 font-semibold">History</h3>
        {history.length === 0 ? (
          <p className="mt-2 text-ink-muted">No status changes yet.</p>
        ) : (
          <ol className="mt-2 grid gap-2">
            {history.map((change) => (
              <li key={change.id} className="flex flex-wrap items-center gap-2 leading-7">
                <StatusBadge status={change.fromStatus} />
                <span aria-hidden="true">→</span>
                <span className="sr-only">to</span>
                <StatusBadge status={change.toStatus} />
                <span>
                  by {change.changedBy} on {change.when}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>

      <section
        aria-labelledby="erase-heading"
        className="rounded-xl border border-line bg-white p-6 shadow-sm"
      >
        <h2 id="erase-heading" className="text-xl font-semibold">
          Erase this lead
        </h2>
        <p className="mt-2 mb-4 leading-6 text-ink-muted">
          For an erasure request: removes the lead and its status history for good.
        </p>
        <DeleteLeadButton lead={lead} />
      </section>
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
        Back to Dashboard
      </Link>
    </div>
  );
}
