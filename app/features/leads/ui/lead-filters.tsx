import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { CHANNELS, channelSlug } from "#app/lib/attribution.ts";
import type { StaffMember } from "../lead-admin.server.ts";
import { type ListView, listHref } from "./lead-list-url.ts";

function FilterField({ label, id, children }: { label: string; id: string; children: ReactNode }) {
  return (
    <div className="grid gap-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      {children}
    </div>
  );
}

/** The filters behind the "Filters" control (the search box and the status views are in sight). */
const HIDDEN_FILTERS = ["owner", "type", "from", "to", "channel", "campaign"] as const;

/** How many of the filters behind "Filters" the view uses: the control says so while it is closed. */
export function activeFilterCount(view: ListView): number {
  return HIDDEN_FILTERS.filter((key) => Boolean(view[key])).length;
}

/**
 * One search box in sight and the other filters (owner, type, dates, channel, campaign) behind a
 * "Filters" disclosure that says how many are on. One GET form (it works without JavaScript), keeping
 * the view's status, spam, sort and page size; Clear drops the filters but not the view.
 */
export function LeadFilters({
  view,
  staff,
  pageSize,
  base = DASHBOARD_PATH,
}: {
  view: ListView;
  staff: StaffMember[];
  /** The list's rows per page; the board (issue 35) pages each column itself and has none. */
  pageSize?: number;
  /** The page the filters apply to: the list, or the board (issue 35). */
  base?: string;
}) {
  const active = activeFilterCount(view);
  return (
    <Form
      method="get"
      action={base}
      role="search"
      aria-label="Leads"
      className="relative flex min-w-0 flex-1 basis-80 flex-wrap items-center gap-2"
    >
      {view.status ? <input type="hidden" name="status" value={view.status} /> : null}
      {view.spam && view.spam !== "exclude" ? <input type="hidden" name="spam" value={view.spam} /> : null}
      {view.sort ? <input type="hidden" name="sort" value={view.sort} /> : null}
      {view.order ? <input type="hidden" name="order" value={view.order} /> : null}
      {pageSize ? <input type="hidden" name="pageSize" value={pageSize} /> : null}
      <label htmlFor="lead-search" className="sr-only">
        Search leads
      </label>
      <input
        id="lead-search"
        type="search"
        name="q"
        key={view.q ?? ""}
        defaultValue={view.q ?? ""}
        maxLength={100}
        placeholder="Search name, email or company"
        className="block h-9 min-w-0 flex-1 basis-48 rounded-md border border-ink-muted bg-white px-3 text-sm text-ink placeholder:text-slate-500 focus-visible:border-brand focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand"
      />
      <Button type="submit" size="sm">
        Search
      </Button>
      {/* A native disclosure: it opens and closes without JavaScript. */}
      <details className="group" data-popover>
        <summary
          className="inline-flex h-9 cursor-pointer list-none items-center gap-2 rounded-md border border-line bg-white px-3 text-sm font-semibold text-ink hover:bg-surface-muted [&::-webkit-details-marker]:hidden"
          data-testid="filters-toggle"
        >
          <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 fill-current text-ink-muted">
            <path d="M1.5 2h13l-5 6.2V13l-3 1.5V8.2z" />
          </svg>
          Filters
          {active > 0 ? (
            <span className="rounded-full bg-brand px-2 py-0.5 text-xs text-white tabular-nums">
              {active}
              <span className="sr-only"> on</span>
            </span>
          ) : null}
        </summary>
        <div className="absolute inset-x-0 top-full z-20 mt-2 grid gap-3 rounded-xl border border-line bg-white p-4 shadow-lg sm:grid-cols-2 lg:grid-cols-3">
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
          <FilterField label="Channel" id="filter-channel">
            <NativeSelect
              id="filter-channel"
              name="channel"
              defaultValue={view.channel ?? ""}
              key={`c${view.channel}`}
            >
              <option value="">Any</option>
              {CHANNELS.map((channel) => (
                <option key={channel} value={channelSlug(channel)}>
                  {channel}
                </option>
              ))}
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
          <FilterField label="Campaign" id="filter-campaign">
            <Input
              id="filter-campaign"
              name="campaign"
              defaultValue={view.campaign ?? ""}
              key={`m${view.campaign}`}
              maxLength={200}
              placeholder="utm_campaign"
            />
          </FilterField>
          <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-3">
            <Button type="submit">Apply filters</Button>
            {view.q || active > 0 ? (
              <Link
                to={listHref(base, { status: view.status, spam: view.spam, pageSize })}
                className="inline-flex h-11 items-center px-2 font-semibold text-brand underline"
              >
                Clear
              </Link>
            ) : null}
          </div>
        </div>
      </details>
    </Form>
  );
}
