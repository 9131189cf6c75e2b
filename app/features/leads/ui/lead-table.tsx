import { useEffect, useRef } from "react";
import { Form, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { cn } from "#app/lib/cn.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { LeadListItem, StaffMember } from "../lead-admin.server.ts";
import { BULK_FORM } from "./bulk-actions.tsx";
import { ReturningBadge, SpamLevelBadge, TypeBadge } from "./lead-badges.tsx";
import { type ListView, leadHref, listHref, sortToggle } from "./lead-list-url.ts";
import { LeadOwnerControl } from "./lead-owner-control.tsx";
import { LeadRowMenu } from "./lead-row-menu.tsx";
import { LeadStatusControl } from "./lead-status-control.tsx";

/** A row of the list: the lead's columns, its age and full date, its source and next step. */
export type LeadRow = Pick<
  LeadListItem,
  | "id"
  | "fullName"
  | "company"
  | "email"
  | "phone"
  | "type"
  | "status"
  | "ownerId"
  | "ownerName"
  | "ownerDisabled"
  | "returning"
  | "spamLevel"
  | "spamReasons"
> & {
  createdAt: string;
  /** "Nov 21, 2026, 03:16 PM" (SPEC section 9), and the same cut into its day and its time. */
  created: string;
  createdDay: string;
  createdTime: string;
  /** "2 h ago", beside the date. */
  age: string;
  /** How it came in (issue 32): "Website form", "API key “HubSpot”", "Imported: Event"... */
  source: string;
  /** The analytics channel and campaign; null for a lead that did not come through the website. */
  channel: { pending: boolean; channel: string | null; campaign: string | null } | null;
  nextStep: { body: string; dueOn: string; due: string; overdue: boolean } | null;
};

const SORTABLE: Record<string, NonNullable<ListView["sort"]>> = {
  Name: "fullName",
  Company: "company",
  Date: "createdAt",
  Status: "status",
  "Next step": "nextStep",
};

const COLUMNS = [
  "Name",
  "Company",
  "Email",
  "Phone",
  "Source",
  "Channel",
  "Owner",
  "Date",
  "Status",
  "Next step",
  "Actions",
] as const;

/**
 * The row menus stay in reach at the table's right edge when a narrow window scrolls the table
 * sideways in its box (issue 35).
 */
const STICKY_ACTIONS = "md:sticky md:right-0 md:shadow-[-1px_0_0_var(--color-line)]";

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

/**
 * The visit's channel and campaign (issue 12's attribution), for a lead that came through the
 * website; "—" for one staff added, imported or an integration sent, which had no visit (issue 32).
 */
function ChannelText({ channel }: { channel: LeadRow["channel"] }) {
  if (channel === null)
    return (
      <span className="text-ink-muted" title="Not from the website: no visit to link">
        —
      </span>
    );
  if (channel.pending) return <span className="text-ink-muted">Linking…</span>;
  return (
    <>
      <span className="truncate md:block">{channel.channel ?? "Unknown"}</span>
      {channel.campaign ? (
        <span
          className="truncate text-xs text-ink-muted max-md:before:content-['_·_'] md:block"
          title={channel.campaign}
        >
          {channel.campaign}
        </span>
      ) : null}
    </>
  );
}

/** A number as a tel: link dials it: digits and a leading +, the spaces and dashes left out. */
function telNumber(phone: string): string {
  return phone.trim().replace(/(?!^\+)[^\d]/g, "");
}

/**
 * A number in at most two lines where its column is narrow: it may break only at the space nearest
 * its middle ("+44 20" / "7946 0958"), never inside a group of digits.
 */
function PhoneText({ phone }: { phone: string }) {
  const middle = phone.length / 2;
  let at = -1;
  for (let index = phone.indexOf(" "); index !== -1; index = phone.indexOf(" ", index + 1))
    if (at === -1 || Math.abs(index - middle) < Math.abs(at - middle)) at = index;
  if (at === -1) return <span className="whitespace-nowrap">{phone}</span>;
  return (
    // One span: on a phone the link is a flex box, which would drop the space between two.
    <span>
      <span className="whitespace-nowrap">{phone.slice(0, at)}</span>{" "}
      <span className="whitespace-nowrap">{phone.slice(at + 1)}</span>
    </span>
  );
}

/**
 * The lead's next step (its earliest open task, issue 35) in its column: what, then when; an
 * overdue one says so in words and colour. On a phone it is a line of the card.
 */
function NextStepCell({ step }: { step: NonNullable<LeadRow["nextStep"]> }) {
  return (
    <span
      className="flex min-w-0 flex-col gap-0.5 text-sm max-md:flex-row max-md:flex-wrap max-md:items-center max-md:gap-x-1.5"
      data-next-step
    >
      <span className="line-clamp-2 break-words text-ink max-md:line-clamp-1" title={step.body}>
        <span className="md:sr-only">Next: </span>
        {step.body}
      </span>
      <span className="flex flex-wrap items-center gap-1.5 text-xs">
        {step.overdue ? (
          <span className="shrink-0 rounded bg-red-100 px-1.5 py-0.5 font-semibold text-red-900">
            Overdue
          </span>
        ) : null}
        <span className={step.overdue ? "text-red-900" : "text-ink-muted"}>due {step.due}</span>
      </span>
    </span>
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
  staff,
  activeId,
  ticked,
  onTick,
  onToggle,
  list,
  meId,
}: {
  leads: LeadRow[];
  /** The signed-in person, for each row menu's "Assign to me". */
  meId: number;
  view: ListView;
  staff: StaffMember[];
  /** The row the keyboard is on (j/k), highlighted. */
  activeId: number | null;
  /** The page's URL (with its query), whose action takes `intent=status` and `intent=spam`. */
  action: string;
  ticked: number[];
  /** Ticks exactly these leads (the header's box: all or none). */
  onTick: (ids: number[]) => void;
  onToggle: (id: number, on: boolean) => void;
  /**
   * Issue 35: the list's own URL (page included) and how many leads come before this page, so each
   * lead opens with its previous, next and the way back to this list.
   */
  list?: { from: string; offset: number };
}) {
  const hydrated = useHydrated();
  const allBox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (allBox.current) allBox.current.indeterminate = ticked.length > 0 && ticked.length < leads.length;
  }, [ticked, leads.length]);

  return (
    // A table from 768 px; below, each row is a card (the same markup, so one set of controls): the
    // name first with the row's box and menu on its right, then its status and owner, then each
    // detail on its own line, all from the card's one left edge (issue 35).
    <div className="relative rounded-xl border border-line bg-white shadow-sm md:overflow-x-auto max-md:border-0 max-md:bg-transparent max-md:shadow-none">
      <table className="w-full text-left text-sm max-md:block">
        <thead className="bg-surface-muted max-md:hidden">
          <tr>
            <th scope="col" className="w-10 px-1.5 py-2.5">
              {hydrated ? (
                <input
                  ref={allBox}
                  type="checkbox"
                  aria-label="Select every lead on this page"
                  className="size-4 accent-brand"
                  checked={ticked.length > 0 && ticked.length === leads.length}
                  onChange={(event) => onTick(event.currentTarget.checked ? leads.map((l) => l.id) : [])}
                />
              ) : (
                <span className="sr-only">Select</span>
              )}
            </th>
            {COLUMNS.map((column) => (
              <th
                key={column}
                scope="col"
                aria-sort={sortState(column, view)}
                // "Next step" may take two lines, so the table still fits its frame at 1280 px.
                className={cn(
                  "px-1.5 py-2.5 font-semibold",
                  column === "Next step" ? "leading-tight" : "whitespace-nowrap",
                  column === "Actions" && `${STICKY_ACTIONS} md:bg-surface-muted`,
                  (column === "Channel" || column === "Phone") && "beside-sidebar:hidden",
                )}
              >
                <SortHeader column={column} view={view} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="max-md:grid max-md:grid-cols-[minmax(0,1fr)] max-md:gap-3">
          {leads.map((lead, index) => {
            const active = lead.id === activeId;
            return (
              <tr
                key={lead.id}
                data-lead-row={lead.id}
                data-active={active || undefined}
                className={cn(
                  "border-t border-line align-top max-md:grid max-md:min-w-0 max-md:grid-cols-[auto_minmax(0,1fr)_auto_auto] max-md:items-center max-md:gap-x-2 max-md:gap-y-1.5 max-md:rounded-xl max-md:border max-md:bg-white max-md:p-4 max-md:shadow-sm",
                  active &&
                    "bg-brand-soft/60 outline-2 -outline-offset-2 outline-brand max-md:bg-brand-soft/60",
                )}
              >
                <td className="px-1.5 py-2.5 max-md:order-2 max-md:grid max-md:size-8 max-md:place-items-center max-md:p-0">
                  <input
                    type="checkbox"
                    name="ids"
                    value={lead.id}
                    form={BULK_FORM}
                    aria-label={`Select ${lead.fullName}`}
                    className="size-4 accent-brand"
                    checked={hydrated ? ticked.includes(lead.id) : undefined}
                    onChange={
                      hydrated ? (event) => onToggle(lead.id, event.currentTarget.checked) : undefined
                    }
                  />
                </td>
                <th
                  scope="row"
                  className="max-w-44 min-w-28 px-1.5 py-2.5 font-normal beside-sidebar:min-w-24 max-md:order-1 max-md:col-span-2 max-md:max-w-none max-md:min-w-0 max-md:p-0"
                >
                  <Link
                    to={leadHref(lead.id, list && { from: list.from, at: list.offset + index + 1 })}
                    data-lead-link
                    className="font-semibold break-words text-brand underline underline-offset-2"
                  >
                    {lead.fullName}
                  </Link>
                  <span className="mt-1 flex flex-wrap gap-1 empty:hidden">
                    {lead.type === "investor" ? <TypeBadge type={lead.type} /> : null}
                    {lead.returning ? <ReturningBadge /> : null}
                    <SpamLevelBadge level={lead.spamLevel} reasons={lead.spamReasons} />
                  </span>
                </th>
                <td className="max-w-36 min-w-24 px-1.5 py-2.5 break-words max-md:order-6 max-md:col-span-full max-md:max-w-none max-md:min-w-0 max-md:p-0">
                  {lead.company}
                </td>
                <td className="max-w-32 px-1.5 py-2.5 max-md:order-7 max-md:col-span-full max-md:max-w-none max-md:min-w-0 max-md:p-0">
                  {/* One line, cut with an ellipsis; the whole address is the link's text (read out
                      whole) and its title (on hover). */}
                  <a
                    href={`mailto:${lead.email}`}
                    title={lead.email}
                    data-lead-email
                    className="block truncate text-ink hover:text-brand hover:underline max-md:flex max-md:min-h-8 max-md:w-fit max-md:max-w-full max-md:items-center max-md:text-brand max-md:underline max-md:underline-offset-2"
                  >
                    <span className="truncate">{lead.email}</span>
                  </a>
                  {/* Beside the sidebar's labels at 1280-1535 px the Phone column folds in here, as
                      text: a second link right under the e-mail's would be too small a target. */}
                  {lead.phone ? (
                    <span className="hidden truncate text-xs text-ink-muted beside-sidebar:block">
                      {lead.phone}
                    </span>
                  ) : null}
                </td>
                <td className="max-w-28 px-1.5 py-2.5 beside-sidebar:hidden max-md:order-8 max-md:col-span-full max-md:max-w-none max-md:p-0">
                  {/* Tap to call on a phone (issue 35); the number as written. */}
                  {lead.phone ? (
                    <a
                      href={`tel:${telNumber(lead.phone)}`}
                      data-lead-phone
                      className="text-ink hover:text-brand hover:underline max-md:flex max-md:min-h-8 max-md:w-fit max-md:items-center max-md:text-brand max-md:underline max-md:underline-offset-2"
                    >
                      <PhoneText phone={lead.phone} />
                    </a>
                  ) : null}
                </td>
                <td
                  className="max-w-32 px-1.5 py-2.5 break-words max-md:order-9 max-md:col-span-full max-md:max-w-none max-md:min-w-0 max-md:p-0 max-md:text-ink-muted"
                  data-lead-source
                >
                  <span className="md:hidden">Source: </span>
                  {lead.source}
                  {/* Beside the sidebar's labels at 1280-1535 px the Channel column folds in here. */}
                  {lead.channel ? (
                    <span className="hidden text-xs text-ink-muted beside-sidebar:block" data-folded-channel>
                      <ChannelText channel={lead.channel} />
                    </span>
                  ) : null}
                </td>
                <td
                  className="max-w-28 px-1.5 py-2.5 beside-sidebar:hidden max-md:order-10 max-md:col-span-full max-md:max-w-none max-md:min-w-0 max-md:p-0 max-md:text-ink-muted"
                  data-lead-channel
                >
                  <span className="md:hidden">Channel: </span>
                  <ChannelText channel={lead.channel} />
                </td>
                <td className="px-1.5 py-2.5 max-md:order-5 max-md:col-span-3 max-md:flex max-md:min-w-0 max-md:items-center max-md:gap-2 max-md:p-0">
                  <LeadOwnerControl lead={lead} staff={staff} action={action} />
                  {lead.ownerDisabled ? (
                    <span className="mt-0.5 block text-xs text-ink-muted">(disabled)</span>
                  ) : null}
                </td>
                <td className="px-1.5 py-2.5 text-ink-muted max-md:order-11 max-md:col-span-full max-md:p-0">
                  {/* SPEC section 9's date, its day and time on two lines in the table (one on a
                      phone), and its age beside it (issue 32). */}
                  <time dateTime={lead.createdAt} className="whitespace-nowrap text-ink">
                    <span className="md:block">{lead.createdDay}</span> {lead.createdTime}
                  </time>
                  <span className="text-xs whitespace-nowrap md:block max-md:before:content-['_·_']" data-age>
                    {lead.age}
                  </span>
                </td>
                <td className="px-1.5 py-2.5 max-md:order-4 max-md:p-0">
                  <LeadStatusControl lead={lead} action={action} badge />
                </td>
                <td
                  className={cn(
                    "w-24 max-w-24 px-1.5 py-2.5 2xl:w-40 2xl:max-w-40 max-md:order-12 max-md:col-span-full max-md:w-auto max-md:max-w-none max-md:min-w-0 max-md:p-0",
                    !lead.nextStep && "max-md:hidden",
                  )}
                >
                  {lead.nextStep ? (
                    <NextStepCell step={lead.nextStep} />
                  ) : (
                    <span className="text-ink-muted">
                      <span aria-hidden="true">—</span>
                      <span className="sr-only">None</span>
                    </span>
                  )}
                </td>
                <td
                  className={cn(
                    "px-1.5 py-2.5 max-md:order-3 max-md:p-0",
                    STICKY_ACTIONS,
                    active ? "md:bg-brand-soft" : "md:bg-white",
                  )}
                >
                  <div className="flex items-center gap-2">
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
                    <LeadRowMenu lead={lead} meId={meId} action={action} />
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
