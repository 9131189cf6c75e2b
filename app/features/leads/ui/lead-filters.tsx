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

/**
 * Search, owner, type, dates, channel and campaign as a GET form (it works without JavaScript), keeping the view's
 * status, spam, sort and page size; Clear drops the filters but not the view.
 */
export function LeadFilters({
  view,
  staff,
  pageSize,
}: {
  view: ListView;
  staff: StaffMember[];
  pageSize: number;
}) {
  return (
    <Form
      method="get"
      action={DASHBOARD_PATH}
      role="search"
      className="grid gap-3 rounded-xl border border-line bg-white p-4 shadow-sm sm:grid-cols-2 lg:grid-cols-[minmax(14rem,2fr)_repeat(3,minmax(8rem,1fr))]"
    >
      {view.status ? <input type="hidden" name="status" value={view.status} /> : null}
      {view.spam && view.spam !== "exclude" ? <input type="hidden" name="spam" value={view.spam} /> : null}
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
        <NativeSelect id="filter-owner" name="owner" defaultValue={view.owner ?? ""} key={`o${view.owner}`}>
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
      <div className="flex items-end gap-2">
        <Button type="submit">Search</Button>
        {view.q || view.owner || view.type || view.from || view.to || view.channel || view.campaign ? (
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
  );
}
