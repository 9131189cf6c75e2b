import { useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { LeadListItem } from "../lead-admin.server.ts";
import { BULK_FORM } from "./bulk-actions.tsx";
import { ReturningBadge, SpamLevelBadge, TypeBadge } from "./lead-badges.tsx";
import { type ListView, listHref, sortToggle } from "./lead-list-url.ts";
import { LeadStatusControl } from "./lead-status-control.tsx";
import { StatusBadge } from "./status-badge.tsx";

/** A row of the list: the lead's columns, its date already formatted as a day and a time. */
export type LeadRow = Pick<
  LeadListItem,
  | "id"
  | "fullName"
  | "company"
  | "email"
  | "phone"
  | "type"
  | "status"
  | "ownerName"
  | "ownerDisabled"
  | "returning"
  | "spamLevel"
  | "spamReasons"
> & { createdDay: string; createdTime: string };

const SORTABLE: Record<string, NonNullable<ListView["sort"]>> = {
  Name: "fullName",
  Company: "company",
  Date: "createdAt",
  Status: "status",
};

const COLUMNS = ["Name", "Company", "Email", "Phone", "Type", "Owner", "Date", "Status", "Actions"] as const;

/** The column's sort as `aria-sort` says it: only the sorted column has one. */
function sortState(column: (typeof COLUMNS)[number], view: ListView): "ascending" | "descending" | undefined {
  const sort = SORTABLE[column];
  if (!sort || (view.sort ?? "createdAt") !== sort) return undefined;
  const order = view.order ?? (sort === "createdAt" ? "desc" : "asc");
  return order === "asc" ? "ascending" : "descending";
}

/**
 * A column's heading; a sortable one is a link that sorts by it (or turns the sort round). Its name
 * stays the column's (the header names every cell below it); the current sort is the header's
 * `aria-sort`, and the arrow shows it to the eye.
 */
function SortHeader({ column, view }: { column: (typeof COLUMNS)[number]; view: ListView }) {
  const sort = SORTABLE[column];
  if (!sort) return <>{column}</>;
  const state = sortState(column, view);
  return (
    <Link
      to={listHref(DASHBOARD_PATH, sortToggle(view, sort))}
      className="inline-flex items-center gap-1 hover:underline"
    >
      {column}
      <span aria-hidden="true" className={state ? "text-brand" : "text-ink-muted/50"}>
        {state ? (state === "ascending" ? "▲" : "▼") : "↕"}
      </span>
    </Link>
  );
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

/**
 * One page of leads with sortable headers, a tick box each (for the bulk form) and each lead's
 * status and "Not spam" controls, which post to `action`.
 */
export function LeadTable({
  leads,
  view,
  action,
  ticked,
  onTick,
  onToggle,
}: {
  leads: LeadRow[];
  view: ListView;
  /** The page's URL (with its query), whose action takes `intent=status` and `intent=spam`. */
  action: string;
  ticked: number[];
  /** Ticks exactly these leads (the header's box: all or none). */
  onTick: (ids: number[]) => void;
  onToggle: (id: number, on: boolean) => void;
}) {
  const hydrated = useHydrated();
  const allBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (allBox.current) allBox.current.indeterminate = ticked.length > 0 && ticked.length < leads.length;
  }, [ticked, leads.length]);

  return (
    // A table from 768 px; below, each row is a card (the same markup, so one set of controls).
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
                  onChange={(event) => onTick(event.currentTarget.checked ? leads.map((l) => l.id) : [])}
                />
              ) : (
                <span className="sr-only">Tick</span>
              )}
            </th>
            {COLUMNS.map((column) => (
              <th
                key={column}
                scope="col"
                aria-sort={sortState(column, view)}
                className="px-3 py-3 font-semibold whitespace-nowrap"
              >
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
                  onChange={hydrated ? (event) => onToggle(lead.id, event.currentTarget.checked) : undefined}
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
              <td className="min-w-32 px-3 py-3 break-words max-md:col-start-2 max-md:p-0">{lead.company}</td>
              <td className="max-w-56 px-3 py-3 [overflow-wrap:anywhere] max-md:col-start-2 max-md:max-w-none max-md:p-0">
                <EmailText email={lead.email} />
              </td>
              <td className="px-3 py-3 max-md:col-start-2 max-md:p-0 md:whitespace-nowrap">{lead.phone}</td>
              <td className="px-3 py-3 max-md:col-start-2 max-md:p-0">
                <TypeBadge type={lead.type} />
              </td>
              <td className="px-3 py-3 max-md:col-start-2 max-md:p-0">
                <span className="md:hidden text-ink-muted">Owner: </span>
                {lead.ownerName ?? <span className="text-ink-muted">Unassigned</span>}
                {lead.ownerDisabled ? <span className="block text-xs text-ink-muted">(disabled)</span> : null}
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
                  <LeadStatusControl lead={lead} action={action} />
                  {lead.spamLevel === "held" ? (
                    <Form method="post" action={action}>
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
  );
}
