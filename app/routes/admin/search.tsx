import { data, Form, Link } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { leadsServices } from "#app/features/leads/leads-context.server.ts";
import { parseSearchQuery, searchBackOffice } from "#app/features/leads/search/back-office-search.server.ts";
import { MAX_QUERY_LENGTH, SEARCH_PATH } from "#app/features/leads/search/search-types.ts";
import { StatusBadge } from "#app/features/leads/ui/status-badge.tsx";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import type { Route } from "./+types/search";

// Issue 23: the shell's search as a page, for "See all results" and for browsers without
// JavaScript (the shell's search box is a GET form to here). The same service as GET /api/admin/search.

export const meta: Route.MetaFunction = ({ loaderData }) =>
  adminMeta(loaderData?.query ? `Search: ${loaderData.query}` : "Search");

export async function loader({ request, context }: Route.LoaderArgs) {
  const parsed = parseSearchQuery(new URL(request.url).searchParams.get("q"));
  if (!parsed.ok) return data({ query: "", message: parsed.message, results: null }, { status: 400 });
  if (parsed.query === "") return { query: "", message: null, results: null };
  const { database } = await leadsServices(context);
  const results = await searchBackOffice(database.db, parsed.query);
  return {
    query: parsed.query,
    message: null,
    results: {
      ...results,
      leads: results.leads.map((lead) => ({ ...lead, created: formatDateTime(lead.createdAt) })),
    },
  };
}

export default function SearchPage({ loaderData }: Route.ComponentProps) {
  const { query, message, results } = loaderData;
  const found = results ? results.leads.length + results.people.length + results.companies.length : 0;
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title="Search"
        description="Find a lead by its number, a person by name or email, or a company."
      />
      <Form
        method="get"
        action={SEARCH_PATH}
        role="search"
        aria-label="Search again"
        className="flex flex-wrap items-end gap-3"
      >
        <div className="min-w-0 flex-1 basis-64">
          <label htmlFor="search-page-q" className="mb-1 block text-sm font-semibold">
            Search for
          </label>
          <Input
            id="search-page-q"
            name="q"
            type="search"
            defaultValue={query}
            key={query}
            maxLength={MAX_QUERY_LENGTH}
            placeholder="Name, email, company or lead number"
          />
        </div>
        <Button type="submit">Search</Button>
      </Form>

      {message ? <Banner tone="error">{message}</Banner> : null}

      {results && found === 0 ? (
        <p className="rounded-xl border border-line bg-white px-6 py-12 text-center text-ink-muted">
          {query.length < 2 && !/^#?\d+$/.test(query)
            ? "Type at least two letters, or a lead number."
            : `No leads, people or companies match “${query}”. Check the spelling, or search for part of a name or email.`}
        </p>
      ) : null}

      {results && results.leads.length > 0 ? (
        <ResultGroup
          id="leads-results"
          title="Leads"
          more={`${DASHBOARD_PATH}?${new URLSearchParams({ q: query })}`}
        >
          {results.leads.map((lead) => (
            <li key={lead.id}>
              <Link
                to={lead.href}
                className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 hover:bg-surface-muted"
              >
                <span className="min-w-0 flex-1 basis-48">
                  <span className="block truncate font-semibold text-brand">
                    {lead.fullName || `Lead #${lead.id}`}
                  </span>
                  <span className="block truncate text-sm text-ink-muted">
                    {[lead.company, lead.email].filter(Boolean).join(" · ")}
                  </span>
                </span>
                <StatusBadge status={lead.status} />
                <span className="text-sm text-ink-muted tabular-nums">
                  #{lead.id} · {lead.created}
                </span>
              </Link>
            </li>
          ))}
        </ResultGroup>
      ) : null}

      {results && results.people.length > 0 ? (
        <ResultGroup id="people-results" title="People">
          {results.people.map((person) => (
            <li key={person.email}>
              <Link
                to={person.href}
                className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 hover:bg-surface-muted"
              >
                <span className="min-w-0 flex-1 basis-48">
                  <span className="block truncate font-semibold text-brand">
                    {person.fullName || person.email}
                  </span>
                  <span className="block truncate text-sm text-ink-muted">{person.email}</span>
                </span>
                <span className="text-sm text-ink-muted">
                  {person.leads === 1 ? "1 lead" : `${person.leads} leads`}
                </span>
              </Link>
            </li>
          ))}
        </ResultGroup>
      ) : null}

      {results && results.companies.length > 0 ? (
        <ResultGroup id="companies-results" title="Companies">
          {results.companies.map((company) => (
            <li key={company.href}>
              <Link
                to={company.href}
                className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3 hover:bg-surface-muted"
              >
                <span className="min-w-0 flex-1 basis-48 truncate font-semibold text-brand">
                  {company.company}
                </span>
                <span className="text-sm text-ink-muted">
                  {company.leads === 1 ? "1 lead" : `${company.leads} leads`}
                </span>
              </Link>
            </li>
          ))}
        </ResultGroup>
      ) : null}
    </div>
  );
}

function ResultGroup({
  id,
  title,
  more,
  children,
}: {
  id: string;
  title: string;
  more?: string;
  children: React.ReactNode;
}) {
  return (
    <section
      aria-labelledby={id}
      className="overflow-hidden rounded-xl border border-line bg-white shadow-sm"
    >
      <div className="flex items-center justify-between gap-4 border-b border-line px-4 py-3">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {more ? (
          <Link to={more} className="text-sm font-semibold text-brand underline underline-offset-2">
            All matching leads
          </Link>
        ) : null}
      </div>
      <ul className="divide-y divide-line">{children}</ul>
    </section>
  );
}
