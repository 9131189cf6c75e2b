import { data, Form, Link, redirect, useLocation } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { DataTable } from "#app/components/ui/data-table.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { adminUser } from "#app/features/admin-ui/admin-guard.server.ts";
import { adminMeta } from "#app/features/admin-ui/admin-meta.ts";
import { DASHBOARD_PATH } from "#app/features/admin-ui/admin-paths.ts";
import { formatLeadDate, LEAD_STATUS_OPTIONS, statusLabel } from "#app/features/admin-ui/lead-format.ts";
import {
  changeStatusFromForm,
  parseLeadId,
  readNotice,
  withNotice,
} from "#app/features/admin-ui/lead-forms.server.ts";
import { LeadStatusControl } from "#app/features/admin-ui/lead-status-control.tsx";
import { LogoutButton } from "#app/features/admin-ui/logout-button.tsx";
import { Banner, NoticeBanner } from "#app/features/admin-ui/notice-banner.tsx";
import { Pagination } from "#app/features/admin-ui/pagination.tsx";
import { StatusBadge } from "#app/features/admin-ui/status-badge.tsx";
import { assertSameOrigin } from "#app/features/auth/guard.server.ts";
import { listLeads } from "#app/features/leads/lead-admin.server.ts";
import { parseListQuery } from "#app/features/leads/lead-admin-http.server.ts";
import type { LeadStatus } from "#app/features/leads/lead-repository.server.ts";
import { readForm } from "#app/lib/http.server.ts";
import { getServices } from "#app/services.server.ts";
import type { Route } from "./+types/dashboard";

// SPEC section 2 /admin/dashboard: the leads, ten a page, filtered, searched and paged by the
// database in one request; the status change works with and without JavaScript.

export const meta: Route.MetaFunction = () => adminMeta("Admin Dashboard");

/** SPEC section 9. */
const PAGE_SIZE = 10;

type Filter = { status?: LeadStatus; q?: string; spam?: "exclude" | "only" | "include" };

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = adminUser(context);
  const url = new URL(request.url);
  const parsed = parseListQuery(url, { pageSize: PAGE_SIZE });
  // A hand-edited query (page=abc, status=bogus): start again from the unfiltered first page.
  if (!parsed.ok) throw redirect(DASHBOARD_PATH);
  const { status, q, spam, page } = parsed.query;
  const filter: Filter = { status, q: q || undefined, spam };
  const base = { username: user.username, filter, page, pageSize: PAGE_SIZE, notice: readNotice(url) };

  let result: Awaited<ReturnType<typeof listLeads>>;
  try {
    const { database } = await getServices(context);
    result = await listLeads(database.db, { ...filter, page, pageSize: PAGE_SIZE });
  } catch (error) {
    console.error("Admin dashboard: loading leads failed", error);
    return data({ ...base, loadError: true, total: 0, pageCount: 0, leads: [] }, { status: 503 });
  }
  const pageCount = Math.ceil(result.total / PAGE_SIZE);
  // Past the end (the last lead of a page was just erased, an old bookmark): show the last page.
  if (result.total > 0 && page > pageCount) throw redirect(dashboardHref(filter, pageCount));
  return {
    ...base,
    loadError: false,
    total: result.total,
    pageCount,
    leads: result.leads.map((lead) => ({
      id: lead.id,
      fullName: lead.fullName,
      company: lead.company,
      email: lead.email,
      phone: lead.phone,
      status: lead.status,
      isSpam: lead.isSpam,
      // Formatted here so the browser hydrates exactly the server's text.
      created: formatLeadDate(lead.createdAt),
    })),
  };
}

/** The status form without JavaScript: `intent=status`, `id`, `status`; redirects back with a notice. */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = adminUser(context);
  const form = await readForm(request);
  if (form.get("intent") !== "status") return data({ message: "Unknown action." }, { status: 400 });
  const { database } = await getServices(context);
  const outcome = await changeStatusFromForm(database.db, parseLeadId(form.get("id")), form, user);
  if (!outcome.ok) return data({ message: outcome.message }, { status: outcome.status });
  const url = new URL(request.url);
  throw redirect(withNotice(url.pathname + url.search, "updated"));
}

function filterParams(filter: Filter): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.status) params.set("status", filter.status);
  if (filter.spam && filter.spam !== "exclude") params.set("spam", filter.spam);
  if (filter.q) params.set("q", filter.q);
  return params;
}

function dashboardHref(filter: Filter, page = 1): string {
  const params = filterParams(filter);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${DASHBOARD_PATH}?${query}` : DASHBOARD_PATH;
}

function exportHref(filter: Filter): string {
  const query = filterParams(filter).toString();
  return `/api/admin/leads/export${query ? `?${query}` : ""}`;
}

/** The views above the table: every lead, one status each, and the spam review. */
const VIEWS: { label: string; filter: Filter }[] = [
  { label: "All", filter: {} },
  ...LEAD_STATUS_OPTIONS.map((status) => ({ label: statusLabel(status), filter: { status } })),
  { label: "Spam", filter: { spam: "only" } },
];

const isView = (view: Filter, current: Filter) =>
  view.status === current.status && (view.spam ?? "exclude") === (current.spam ?? "exclude");

const COLUMNS = ["Name", "Company", "Email", "Phone", "Date", "Status", "Actions"] as const;

export default function AdminDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { username, filter, page, pageSize, total, pageCount, leads, loadError, notice } = loaderData;
  const { pathname, search } = useLocation();
  const formAction = pathname + search;
  const first = (page - 1) * pageSize + 1;

  // Flex columns, not grid: a grid track would grow to the table's width and widen the page on phones.
  return (
    <div className="mx-auto flex max-w-7xl flex-col gap-8 px-4 py-8 sm:px-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div>
          <h1 className="text-3xl font-bold tracking-tight">Admin Dashboard</h1>
          <p className="mt-1 text-ink-muted">Signed in as {username}</p>
        </div>
        <LogoutButton />
      </div>

      {actionData?.message ? (
        <Banner tone="error">{actionData.message}</Banner>
      ) : (
        <NoticeBanner notice={notice} />
      )}

      <div className="grid gap-4 md:grid-cols-2">
        <Link
          to="/admin/audit"
          className="group block rounded-xl border border-line bg-white p-6 shadow-sm transition-shadow hover:shadow-md"
        >
          <span className="text-lg font-semibold text-brand group-hover:underline">Website audits</span>
          <span className="mt-1 block leading-6 text-ink-muted">
            Run security and performance checks of the public site and review past results.
          </span>
        </Link>
        <Link
          to="/admin/webhooks"
          className="group block rounded-xl border border-line bg-white p-6 shadow-sm transition-shadow hover:shadow-md"
        >
          <span className="text-lg font-semibold text-brand group-hover:underline">Webhooks</span>
          <span className="mt-1 block leading-6 text-ink-muted">
            Send new and changed leads to your CRM or other tools, and see each delivery.
          </span>
        </Link>
      </div>

      <section aria-labelledby="leads-heading" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h2 id="leads-heading" className="text-2xl font-bold tracking-tight">
            Demo Requests
          </h2>
          {total > 0 ? (
            <Button asChild variant="outline" size="sm">
              {/* A plain link: the server answers with a CSV attachment, not a page. */}
              <a href={exportHref(filter)} download>
                Export to CSV
              </a>
            </Button>
          ) : null}
        </div>

        <nav aria-label="Filter leads by status">
          <ul className="flex flex-wrap gap-2">
            {VIEWS.map((view) => {
              const active = isView(view.filter, filter);
              return (
                <li key={view.label}>
                  <Link
                    to={dashboardHref({ ...view.filter, q: filter.q })}
                    aria-current={active ? "page" : undefined}
                    className={
                      active
                        ? "inline-flex h-9 items-center rounded-full bg-brand px-4 text-sm font-semibold text-white"
                        : "inline-flex h-9 items-center rounded-full border border-line bg-white px-4 text-sm font-semibold text-brand hover:bg-brand-soft"
                    }
                  >
                    {view.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>

        <Form method="get" action={DASHBOARD_PATH} role="search" className="flex flex-wrap items-end gap-3">
          {filter.status ? <input type="hidden" name="status" value={filter.status} /> : null}
          {filter.spam && filter.spam !== "exclude" ? (
            <input type="hidden" name="spam" value={filter.spam} />
          ) : null}
          <div className="grid min-w-0 flex-1 gap-1.5 sm:max-w-sm">
            <label htmlFor="lead-search" className="font-semibold">
              Search leads
            </label>
            <Input
              id="lead-search"
              type="search"
              name="q"
              key={filter.q ?? ""}
              defaultValue={filter.q ?? ""}
              maxLength={100}
              placeholder="Name, email or company"
            />
          </div>
          <Button type="submit">Search</Button>
          {filter.q ? (
            <Link
              to={dashboardHref({ ...filter, q: undefined })}
              className="inline-flex h-11 items-center font-semibold text-brand underline"
            >
              Clear search
            </Link>
          ) : null}
        </Form>

        {loadError ? (
          <Banner tone="error">Unable to connect to lead management API</Banner>
        ) : total === 0 ? (
          <p className="rounded-xl border border-line bg-white px-6 py-12 text-center text-ink-muted">
            No demo requests found
          </p>
        ) : (
          <>
            <p className="text-sm text-ink-muted">
              Showing {first}–{first + leads.length - 1} of {total}
            </p>
            {/* Keyboard users reach the sideways-scrolling table through the links and selects inside. */}
            <DataTable columns={COLUMNS}>
              {leads.map((lead) => (
                <tr key={lead.id} className="border-t border-line align-middle">
                  <th scope="row" className="min-w-40 px-4 py-3 font-normal">
                    <Link
                      to={`/admin/leads/${lead.id}`}
                      className="font-semibold break-words text-brand underline underline-offset-2"
                    >
                      {lead.fullName}
                    </Link>
                    {lead.isSpam ? (
                      <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900">
                        Spam
                      </span>
                    ) : null}
                  </th>
                  <td className="min-w-40 px-4 py-3 break-words">{lead.company}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{lead.email}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{lead.phone}</td>
                  <td className="px-4 py-3 whitespace-nowrap">{lead.created}</td>
                  <td className="px-4 py-3">
                    <StatusBadge status={lead.status} />
                  </td>
                  <td className="px-4 py-3">
                    <LeadStatusControl lead={lead} action={formAction} />
                  </td>
                </tr>
              ))}
            </DataTable>
            <Pagination page={page} pageCount={pageCount} hrefFor={(n) => dashboardHref(filter, n)} />
          </>
        )}
      </section>
    </div>
  );
}
