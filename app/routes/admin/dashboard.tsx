import { useEffect, useRef, useState } from "react";
import { data, Form, Link, redirect, useLocation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Pagination } from "#app/components/back-office/pagination.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { adminUser } from "#app/features/auth/admin-guard.server.ts";
import { assertSameOrigin } from "#app/features/auth/guard.server.ts";
import { LogoutButton } from "#app/features/auth/ui/logout-button.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import {
  assignableStaff,
  type BulkAction,
  listLeads,
  UnknownOwnerError,
} from "#app/features/leads/lead-admin.server.ts";
import { parseBulk, parseListQuery } from "#app/features/leads/lead-admin-http.server.ts";
import {
  changeStatusFromForm,
  parseLeadId,
  readNotice,
  withNotice,
} from "#app/features/leads/lead-forms.server.ts";
import { ReturningBadge, SpamLevelBadge, TypeBadge } from "#app/features/leads/ui/lead-badges.tsx";
import { LEAD_STATUS_OPTIONS, statusLabel } from "#app/features/leads/ui/lead-format.ts";
import {
  DEFAULT_PAGE_SIZE,
  type ListView,
  listHref,
  PAGE_SIZES,
  sortToggle,
  viewParams,
} from "#app/features/leads/ui/lead-list-url.ts";
import { LeadStatusControl } from "#app/features/leads/ui/lead-status-control.tsx";
import { NoticeBanner } from "#app/features/leads/ui/notice-banner.tsx";
import { StatusBadge } from "#app/features/leads/ui/status-badge.tsx";
import { SummaryStrip } from "#app/features/leads/ui/summary-strip.tsx";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { getServices } from "#app/services.server.ts";
import type { Route } from "./+types/dashboard";

// SPEC section 2 /admin/dashboard, grown into the sales team's workspace (issue 10): a summary strip,
// the leads filtered, sorted, searched and paged by the database, bulk actions on ticked rows. The
// view lives in the URL; every control works without JavaScript.

export const meta: Route.MetaFunction = () => adminMeta("Admin Dashboard");

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = adminUser(context);
  const url = new URL(request.url);
  const parsed = parseListQuery(url, { pageSize: DEFAULT_PAGE_SIZE, userId: user.id });
  // A hand-edited query (page=abc, status=bogus): start again from the unfiltered first page.
  if (!parsed.ok) throw redirect(DASHBOARD_PATH);
  const query = parsed.query;
  const pageSize = (PAGE_SIZES as readonly number[]).includes(query.pageSize)
    ? query.pageSize
    : DEFAULT_PAGE_SIZE;
  const view: ListView = {
    status: query.status,
    q: query.q || undefined,
    spam: query.spam,
    owner: url.searchParams.get("owner") || undefined,
    type: query.type,
    from: query.from,
    to: query.to,
    sort: query.sort,
    order: query.order,
    pageSize,
  };
  const base = {
    username: user.username,
    userId: user.id,
    view,
    page: query.page,
    pageSize,
    notice: readNotice(url),
  };

  try {
    const { database, leadSummary } = await getServices(context);
    const [result, summary, staff] = await Promise.all([
      listLeads(database.db, { ...query, ids: undefined, pageSize }),
      leadSummary.get(),
      assignableStaff(database.db),
    ]);
    const pageCount = Math.ceil(result.total / pageSize);
    // Past the end (the last lead of a page was just erased, an old bookmark): show the last page.
    if (result.total > 0 && query.page > pageCount) throw redirect(listHref(DASHBOARD_PATH, view, pageCount));
    return {
      ...base,
      loadError: false,
      summary,
      staff,
      total: result.total,
      pageCount,
      leads: result.leads.map((lead) => ({
        id: lead.id,
        fullName: lead.fullName,
        company: lead.company,
        email: lead.email,
        phone: lead.phone,
        type: lead.type,
        status: lead.status,
        ownerName: lead.ownerName,
        ownerDisabled: lead.ownerDisabled,
        returning: lead.returning,
        spamLevel: lead.spamLevel,
        spamReasons: lead.spamReasons,
        // Formatted here so the browser hydrates exactly the server's text; the day and the time
        // go on two lines in the table.
        ...splitDate(formatDateTime(lead.createdAt)),
      })),
    };
  } catch (error) {
    if (error instanceof Response) throw error;
    console.error("Admin dashboard: loading leads failed", error);
    return data(
      { ...base, loadError: true, summary: null, staff: [], total: 0, pageCount: 0, leads: [] },
      { status: 503 },
    );
  }
}

/** "Nov 21, 2026, 10:05 AM" as its day ("Nov 21, 2026,") and its time, for two lines in the table. */
function splitDate(formatted: string): { createdDay: string; createdTime: string } {
  const cut = formatted.lastIndexOf(", ");
  return cut < 0
    ? { createdDay: formatted, createdTime: "" }
    : { createdDay: formatted.slice(0, cut + 1), createdTime: formatted.slice(cut + 2) };
}

/** An address that may wrap after its @ (and, if it must, anywhere) rather than mid-name. */
function EmailText({ email }: { email: string }) {
  const at = email.indexOf("@");
  if (at < 0) return <>{email}</>;
  return (
    <>
      {email.slice(0, at + 1)}
      <wbr />
      {email.slice(at + 1)}
    </>
  );
}

/** `bulk` values as the form's one select sends them: `status:new`, `owner:7`, `owner:none`, `spam:true`. */
function bulkFromForm(form: URLSearchParams) {
  const [action, raw = ""] = (form.get("do") ?? "").split(":");
  const value =
    action === "spam" ? raw === "true" : action === "owner" ? (raw === "none" ? null : Number(raw)) : raw;
  return parseBulk({ ids: form.getAll("ids").map(Number), action, value });
}

/**
 * The forms without JavaScript: `intent=status` (`id`, `status`), `intent=spam` (`id`, `value`), and
 * `intent=bulk` (`ids`, `do`). Each redirects back to the same view with a notice.
 */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = adminUser(context);
  const form = await readForm(request);
  const { leadAdmin } = await getServices(context);
  const url = new URL(request.url);
  const back = url.pathname + url.search;
  switch (form.get("intent")) {
    case "status": {
      const outcome = await changeStatusFromForm(leadAdmin, parseLeadId(form.get("id")), form, user);
      if (!outcome.ok) return data({ message: outcome.message }, { status: outcome.status });
      throw redirect(withNotice(back, "updated"));
    }
    case "spam": {
      const id = parseLeadId(form.get("id"));
      const lead = id === null ? undefined : await leadAdmin.setSpam(id, form.get("value") === "true", user);
      if (!lead) return data({ message: "Lead not found." }, { status: 404 });
      throw redirect(withNotice(back, lead.isSpam ? "spam" : "not-spam"));
    }
    case "bulk": {
      const parsed = bulkFromForm(form);
      if (!parsed.ok) return data({ message: parsed.message }, { status: 400 });
      const { ids, action: kind, value } = parsed.bulk;
      try {
        await leadAdmin.bulk(ids, { action: kind, value } as BulkAction, user);
      } catch (error) {
        if (error instanceof UnknownOwnerError) return data({ message: error.message }, { status: 400 });
        throw error;
      }
      throw redirect(withNotice(back, "bulk"));
    }
    default:
      return data({ message: "Unknown action." }, { status: 400 });
  }
}

/** The views above the table: every lead, one status each, and the spam review with its count. */
function views(heldSpam: number | null): { label: string; view: ListView }[] {
  return [
    { label: "All", view: {} },
    ...LEAD_STATUS_OPTIONS.map((status) => ({ label: statusLabel(status), view: { status } })),
    { label: heldSpam === null ? "Spam" : `Spam (${heldSpam})`, view: { spam: "only" } },
  ];
}

const isView = (view: ListView, current: ListView) =>
  view.status === current.status && (view.spam ?? "exclude") === (current.spam ?? "exclude");

const BULK_FORM = "bulk-form";

/** The rest of the back office, one card each above the leads. */
const BACK_OFFICE_PAGES = [
  {
    to: "/admin/audit",
    title: "Website audits",
    text: "Run security and performance checks of the public site and review past results.",
  },
  {
    to: "/admin/api-keys",
    title: "API keys",
    text: "Let a CRM or a partner's form send leads to the API, each under its own name.",
  },
  {
    to: "/admin/staff",
    title: "Staff accounts",
    text: "Add colleagues, reset passwords, disable accounts and see who signed in when.",
  },
  {
    to: "/admin/webhooks",
    title: "Webhooks",
    text: "Send new and changed leads to your CRM or other tools, and see each delivery.",
  },
] as const;

const SORTABLE: Record<string, NonNullable<ListView["sort"]>> = {
  Name: "fullName",
  Company: "company",
  Date: "createdAt",
  Status: "status",
};

const COLUMNS = ["Name", "Company", "Email", "Phone", "Type", "Owner", "Date", "Status", "Actions"] as const;

function SortHeader({ column, view }: { column: (typeof COLUMNS)[number]; view: ListView }) {
  const sort = SORTABLE[column];
  if (!sort) return <>{column}</>;
  const current = (view.sort ?? "createdAt") === sort;
  const order = view.order ?? (sort === "createdAt" ? "desc" : "asc");
  return (
    <Link
      to={listHref(DASHBOARD_PATH, sortToggle(view, sort))}
      className="inline-flex items-center gap-1 hover:underline"
      aria-label={`${column}: sort ${current && order === "asc" ? "descending" : "ascending"}`}
    >
      {column}
      <span aria-hidden="true" className={current ? "text-brand" : "text-ink-muted/50"}>
        {current ? (order === "asc" ? "▲" : "▼") : "↕"}
      </span>
    </Link>
  );
}

function FilterField({ label, id, children }: { label: string; id: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      {children}
    </div>
  );
}

export default function AdminDashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { username, view, page, pageSize, total, pageCount, leads, loadError, notice, summary, staff } =
    loaderData;
  const { pathname, search } = useLocation();
  const hydrated = useHydrated();
  const formAction = pathname + search;
  const first = (page - 1) * pageSize + 1;
  const exportQuery = viewParams(view).toString();
  const spamNote =
    view.spam === "only" ? "held spam only" : view.spam === "include" ? "spam included" : "spam not included";
  const [ticked, setTicked] = useState<number[]>([]);
  const allBox = useRef<HTMLInputElement>(null);
  // A new page of leads: nothing ticked on it yet.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the URL changing is the trigger
  useEffect(() => setTicked([]), [search]);
  useEffect(() => {
    if (allBox.current) allBox.current.indeterminate = ticked.length > 0 && ticked.length < leads.length;
  }, [ticked, leads.length]);
  const toggle = (id: number, on: boolean) =>
    setTicked((current) => (on ? [...new Set([...current, id])] : current.filter((other) => other !== id)));

  return (
    <div className="mx-auto flex max-w-screen-2xl flex-col gap-6 px-4 py-8 sm:px-6">
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

      {summary ? (
        <SummaryStrip summary={summary} statusHref={(status) => listHref(DASHBOARD_PATH, { status })} />
      ) : null}

      <nav aria-label="Back office" className="grid gap-4 md:grid-cols-2 xl:grid-cols-4">
        {BACK_OFFICE_PAGES.map((card) => (
          <Link
            key={card.to}
            to={card.to}
            className="group block rounded-xl border border-line bg-white p-6 shadow-sm transition-shadow hover:shadow-md"
          >
            <span className="text-lg font-semibold text-brand group-hover:underline">{card.title}</span>
            <span className="mt-1 block leading-6 text-ink-muted">{card.text}</span>
          </Link>
        ))}
      </nav>

      <section aria-labelledby="leads-heading" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <h2 id="leads-heading" className="text-2xl font-bold tracking-tight">
            Demo Requests
          </h2>
          {total > 0 ? (
            <div className="flex items-center gap-3">
              <span className="text-sm text-ink-muted">CSV: {spamNote}</span>
              <Button asChild variant="outline" size="sm">
                {/* SPEC section 7: opened in a new tab; the server answers with a CSV attachment. */}
                <a
                  href={`/api/admin/leads/export${exportQuery ? `?${exportQuery}` : ""}`}
                  target="_blank"
                  rel="noopener"
                >
                  Export to CSV
                </a>
              </Button>
            </div>
          ) : null}
        </div>

        <nav aria-label="Filter leads by status">
          <ul className="flex flex-wrap gap-2">
            {views(summary?.heldSpam ?? null).map((item) => {
              const active = isView(item.view, view);
              return (
                <li key={item.label}>
                  <Link
                    to={listHref(DASHBOARD_PATH, { ...view, status: item.view.status, spam: item.view.spam })}
                    aria-current={active ? "page" : undefined}
                    className={
                      active
                        ? "inline-flex h-9 items-center rounded-full bg-brand px-4 text-sm font-semibold text-white"
                        : "inline-flex h-9 items-center rounded-full border border-line bg-white px-4 text-sm font-semibold text-brand hover:bg-brand-soft"
                    }
                  >
                    {item.label}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>

        <Form
          method="get"
          action={DASHBOARD_PATH}
          role="search"
          className="grid gap-3 rounded-xl border border-line bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[minmax(14rem,2fr)_repeat(4,minmax(8rem,1fr))_auto]"
        >
          {view.status ? <input type="hidden" name="status" value={view.status} /> : null}
          {view.spam && view.spam !== "exclude" ? (
            <input type="hidden" name="spam" value={view.spam} />
          ) : null}
          {view.sort ? <input type="hidden" name="sort" value={view.sort} /> : null}
          {view.order ? <input type="hidden" name="order" value={view.order} /> : null}
          <FilterField label="Search leads" id="lead-search">
            <Input
              id="lead-search"
              type="search"
              name="q"
              key={view.q ?? ""}
              defaultValue={view.q ?? ""}
              maxLength={100}
              placeholder="Name, email or company"
            />
          </FilterField>
          <FilterField label="Owner" id="filter-owner">
            <NativeSelect
              id="filter-owner"
              name="owner"
              defaultValue={view.owner ?? ""}
              key={`o${view.owner}`}
            >
              <option value="">Anyone</option>
              <option value="me">Mine</option>
              <option value="none">Unassigned</option>
              {staff.map((member) => (
                <option key={member.id} value={member.id}>
                  {member.username}
                  {member.disabled ? " (disabled)" : ""}
                </option>
              ))}
            </NativeSelect>
          </FilterField>
          <FilterField label="Type" id="filter-type">
            <NativeSelect id="filter-type" name="type" defaultValue={view.type ?? ""} key={`t${view.type}`}>
              <option value="">Both</option>
              <option value="demo">Demo request</option>
              <option value="investor">Investor interest</option>
            </NativeSelect>
          </FilterField>
          <FilterField label="From (UTC)" id="filter-from">
            <Input
              id="filter-from"
              type="date"
              name="from"
              defaultValue={view.from ?? ""}
              key={`f${view.from}`}
            />
          </FilterField>
          <FilterField label="To (UTC)" id="filter-to">
            <Input id="filter-to" type="date" name="to" defaultValue={view.to ?? ""} key={`u${view.to}`} />
          </FilterField>
          <div className="flex items-end gap-2">
            <Button type="submit">Search</Button>
            {view.q || view.owner || view.type || view.from || view.to ? (
              <Link
                to={listHref(DASHBOARD_PATH, { status: view.status, spam: view.spam, pageSize })}
                className="inline-flex h-11 items-center px-2 font-semibold text-brand underline"
              >
                Clear
              </Link>
            ) : null}
          </div>
          <input type="hidden" name="pageSize" value={pageSize} />
        </Form>

        {loadError ? (
          <Banner tone="error">Unable to connect to lead management API</Banner>
        ) : total === 0 ? (
          <p className="rounded-xl border border-line bg-white px-6 py-12 text-center text-ink-muted">
            No demo requests found
          </p>
        ) : (
          <>
            <Form
              id={BULK_FORM}
              method="post"
              action={formAction}
              className="flex flex-wrap items-end gap-3 rounded-xl border border-line bg-white p-3 shadow-sm"
            >
              <input type="hidden" name="intent" value="bulk" />
              <p className="min-w-40 text-sm font-semibold" aria-live="polite">
                {hydrated ? `${ticked.length} ticked` : "With the ticked leads:"}
              </p>
              <div className="grid gap-1">
                <label htmlFor="bulk-do" className="sr-only">
                  Action for the ticked leads
                </label>
                <NativeSelect
                  id="bulk-do"
                  name="do"
                  compact
                  className="min-w-56"
                  defaultValue="status:contacted"
                >
                  <optgroup label="Set status">
                    {LEAD_STATUS_OPTIONS.map((status) => (
                      <option key={status} value={`status:${status}`}>
                        Status: {statusLabel(status)}
                      </option>
                    ))}
                  </optgroup>
                  <optgroup label="Assign">
                    {staff
                      .filter((member) => !member.disabled)
                      .map((member) => (
                        <option key={member.id} value={`owner:${member.id}`}>
                          Assign to {member.username}
                        </option>
                      ))}
                    <option value="owner:none">Unassign</option>
                  </optgroup>
                  <optgroup label="Spam">
                    <option value="spam:true">Mark as spam</option>
                    <option value="spam:false">Not spam</option>
                  </optgroup>
                </NativeSelect>
              </div>
              <Button type="submit" size="sm" disabled={hydrated && ticked.length === 0}>
                Apply to ticked
              </Button>
              <Button
                type="submit"
                size="sm"
                variant="outline"
                formMethod="get"
                formAction="/api/admin/leads/export"
                formTarget="_blank"
                disabled={hydrated && ticked.length === 0}
              >
                Export ticked
              </Button>
            </Form>

            <div className="flex flex-wrap items-center justify-between gap-3">
              <p className="text-sm text-ink-muted">
                Showing {first}–{first + leads.length - 1} of {total}
              </p>
              <nav aria-label="Leads per page" className="flex items-center gap-1 text-sm">
                <span className="mr-1 text-ink-muted">Per page:</span>
                {PAGE_SIZES.map((size) => (
                  <Link
                    key={size}
                    to={listHref(DASHBOARD_PATH, { ...view, pageSize: size })}
                    aria-current={size === pageSize ? "page" : undefined}
                    className={
                      size === pageSize
                        ? "rounded-md bg-brand px-2.5 py-1 font-semibold text-white"
                        : "rounded-md px-2.5 py-1 font-semibold text-brand hover:bg-brand-soft"
                    }
                  >
                    {size}
                  </Link>
                ))}
              </nav>
            </div>

            {/* A table from 768 px; below, each row is a card (the same markup, so one set of controls). */}
            <div className="relative rounded-xl border border-line bg-white shadow-sm max-md:border-0 max-md:bg-transparent max-md:shadow-none">
              <table className="w-full text-left text-sm max-md:block">
                <thead className="bg-surface-muted max-md:hidden">
                  <tr>
                    <th scope="col" className="w-10 px-3 py-3">
                      {hydrated ? (
                        <input
                          ref={allBox}
                          type="checkbox"
                          aria-label="Tick every lead on this page"
                          className="size-4 accent-brand"
                          checked={ticked.length > 0 && ticked.length === leads.length}
                          onChange={(event) =>
                            setTicked(event.currentTarget.checked ? leads.map((l) => l.id) : [])
                          }
                        />
                      ) : (
                        <span className="sr-only">Tick</span>
                      )}
                    </th>
                    {COLUMNS.map((column) => (
                      <th key={column} scope="col" className="px-3 py-3 font-semibold whitespace-nowrap">
                        <SortHeader column={column} view={view} />
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody className="max-md:grid max-md:gap-3">
                  {leads.map((lead) => (
                    <tr
                      key={lead.id}
                      className="border-t border-line align-top max-md:grid max-md:grid-cols-[auto_1fr] max-md:gap-x-3 max-md:gap-y-1 max-md:rounded-xl max-md:border max-md:bg-white max-md:p-4 max-md:shadow-sm"
                    >
                      <td className="px-3 py-3 max-md:row-span-2 max-md:p-0 max-md:pt-1">
                        <input
                          type="checkbox"
                          name="ids"
                          value={lead.id}
                          form={BULK_FORM}
                          aria-label={`Tick ${lead.fullName}`}
                          className="size-4 accent-brand"
                          checked={hydrated ? ticked.includes(lead.id) : undefined}
                          onChange={
                            hydrated ? (event) => toggle(lead.id, event.currentTarget.checked) : undefined
                          }
                        />
                      </td>
                      <th scope="row" className="min-w-36 px-3 py-3 font-normal max-md:p-0">
                        <Link
                          to={`/admin/leads/${lead.id}`}
                          className="font-semibold break-words text-brand underline underline-offset-2"
                        >
                          {lead.fullName}
                        </Link>
                        <span className="mt-1 flex flex-wrap gap-1">
                          {lead.returning ? <ReturningBadge /> : null}
                          <SpamLevelBadge level={lead.spamLevel} reasons={lead.spamReasons} />
                        </span>
                      </th>
                      <td className="min-w-32 px-3 py-3 break-words max-md:col-start-2 max-md:p-0">
                        {lead.company}
                      </td>
                      <td className="max-w-56 px-3 py-3 [overflow-wrap:anywhere] max-md:col-start-2 max-md:max-w-none max-md:p-0">
                        <EmailText email={lead.email} />
                      </td>
                      <td className="px-3 py-3 max-md:col-start-2 max-md:p-0 md:whitespace-nowrap">
                        {lead.phone}
                      </td>
                      <td className="px-3 py-3 max-md:col-start-2 max-md:p-0">
                        <TypeBadge type={lead.type} />
                      </td>
                      <td className="px-3 py-3 max-md:col-start-2 max-md:p-0">
                        <span className="md:hidden text-ink-muted">Owner: </span>
                        {lead.ownerName ?? <span className="text-ink-muted">Unassigned</span>}
                        {lead.ownerDisabled ? (
                          <span className="block text-xs text-ink-muted">(disabled)</span>
                        ) : null}
                      </td>
                      <td className="px-3 py-3 whitespace-nowrap max-md:col-start-2 max-md:p-0 max-md:text-ink-muted">
                        {lead.createdDay}
                        <span className="md:block"> {lead.createdTime}</span>
                      </td>
                      <td className="px-3 py-3 max-md:col-start-2 max-md:p-0">
                        <StatusBadge status={lead.status} />
                      </td>
                      <td className="px-3 py-3 max-md:col-span-2 max-md:mt-2 max-md:p-0">
                        <div className="flex flex-wrap items-center gap-2">
                          <LeadStatusControl lead={lead} action={formAction} />
                          {lead.spamLevel === "held" ? (
                            <Form method="post" action={formAction}>
                              <input type="hidden" name="intent" value="spam" />
                              <input type="hidden" name="id" value={lead.id} />
                              <input type="hidden" name="value" value="false" />
                              <Button type="submit" size="sm" variant="outline">
                                Not spam<span className="sr-only">: {lead.fullName}</span>
                              </Button>
                            </Form>
                          ) : null}
                        </div>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
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
