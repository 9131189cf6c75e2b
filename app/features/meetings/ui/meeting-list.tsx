import { Form, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { cn } from "#app/lib/cn.ts";
import { formatDateTime, formatTime } from "#app/lib/format-date.ts";
import type { StaffMeeting } from "../meeting-staff.server.ts";
import { MEETING_STATUS_LABELS, MEETING_STATUSES } from "../meeting-status.ts";

// The Meetings page's parts (issue 34): the upcoming/past switch, the host and status filters, and
// one row per meeting with its lead and, once it has started, the outcome buttons.

export type MeetingsView = { when: "upcoming" | "past"; host: string; status: string };
export type MeetingRowData = StaffMeeting & { awaitsOutcome: boolean };

const PATH = "/admin/meetings";
/** In place of an attendee whose details were cleared (their erasure, or retention). */
export const ERASED_ATTENDEE = "Attendee's details erased";

export function meetingsHref(view: MeetingsView, page?: number): string {
  const params = new URLSearchParams();
  if (view.when === "past") params.set("when", "past");
  if (view.host) params.set("host", view.host);
  if (view.status) params.set("status", view.status);
  if (page && page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${PATH}?${query}` : PATH;
}

/** Upcoming or past, as one segmented control (the host and status filters stay). */
export function MeetingWhenSwitch({ view }: { view: MeetingsView }) {
  const items = [
    { when: "upcoming" as const, label: "Upcoming" },
    { when: "past" as const, label: "Past" },
  ];
  return (
    <nav aria-label="Upcoming or past meetings">
      <ul className="inline-flex gap-0.5 rounded-lg border border-line bg-surface-muted p-0.5">
        {items.map((item) => {
          const active = item.when === view.when;
          return (
            <li key={item.when}>
              <Link
                to={meetingsHref({ ...view, when: item.when })}
                aria-current={active ? "page" : undefined}
                className={cn(
                  "inline-block h-8 rounded-md px-3 text-sm leading-8 font-semibold whitespace-nowrap",
                  active ? "bg-white text-ink shadow-sm" : "text-ink-muted hover:bg-white/70 hover:text-ink",
                )}
              >
                {item.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** Host and status, as a plain GET form (it works without JavaScript). */
export function MeetingFilters({
  view,
  hosts,
}: {
  view: MeetingsView;
  hosts: { id: number; username: string }[];
}) {
  return (
    <Form method="get" action={PATH} className="flex flex-wrap items-end gap-3">
      {view.when === "past" ? <input type="hidden" name="when" value="past" /> : null}
      <div className="grid gap-1">
        <label htmlFor="meetings-host" className="text-sm font-semibold">
          Host
        </label>
        <NativeSelect
          id="meetings-host"
          name="host"
          defaultValue={view.host}
          key={`h${view.host}`}
          className="min-w-44"
        >
          <option value="">Everyone</option>
          <option value="me">Me</option>
          {hosts.map((host) => (
            <option key={host.id} value={host.id}>
              {host.username}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1">
        <label htmlFor="meetings-status" className="text-sm font-semibold">
          Status
        </label>
        <NativeSelect
          id="meetings-status"
          name="status"
          defaultValue={view.status}
          key={`s${view.status}`}
          className="min-w-36"
        >
          <option value="">Any</option>
          {MEETING_STATUSES.map((status) => (
            <option key={status} value={status}>
              {MEETING_STATUS_LABELS[status]}
            </option>
          ))}
        </NativeSelect>
      </div>
      <Button type="submit" variant="outline">
        Show meetings
      </Button>
    </Form>
  );
}

const STATUS_CLASS: Record<StaffMeeting["status"], string> = {
  booked: "bg-blue-100 text-blue-900",
  cancelled: "bg-slate-200 text-slate-900",
  held: "bg-green-100 text-green-900",
  no_show: "bg-red-100 text-red-900",
};

export function MeetingStatusBadge({ status }: { status: StaffMeeting["status"] }) {
  return (
    <span
      data-status={status}
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap",
        STATUS_CLASS[status],
      )}
    >
      {MEETING_STATUS_LABELS[status]}
    </span>
  );
}

/** One meeting: when, what, with whom (linking to the lead), its host, and its outcome buttons. */
function MeetingRow({ meeting, back }: { meeting: MeetingRowData; back: string }) {
  return (
    <li className="grid gap-3 p-4 sm:grid-cols-[1fr_auto] sm:items-center sm:px-6">
      <div className="grid min-w-0 gap-1">
        <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
          <span className="font-semibold">
            <time dateTime={meeting.start}>{formatDateTime(meeting.start)}</time>
            {"–"}
            <time dateTime={meeting.end}>{formatTime(meeting.end)}</time>
          </span>
          <span className="text-ink-muted">{meeting.typeName}</span>
          <MeetingStatusBadge status={meeting.status} />
        </p>
        <p className="min-w-0 break-words">
          {meeting.erased ? (
            <span className="text-ink-muted">{ERASED_ATTENDEE}</span>
          ) : meeting.leadId !== null ? (
            <Link
              to={`/admin/leads/${meeting.leadId}`}
              className="font-semibold text-brand underline underline-offset-2"
            >
              {meeting.fullName}
            </Link>
          ) : (
            <span className="font-semibold">{meeting.fullName}</span>
          )}
          {meeting.erased ? null : (
            <>
              <span className="text-ink-muted"> · {meeting.company} · </span>
              <span className="break-all text-ink-muted">{meeting.email}</span>
            </>
          )}
        </p>
        <p className="text-sm text-ink-muted">
          Host <span className="font-semibold text-ink">{meeting.hostName}</span> · the attendee's zone:{" "}
          {meeting.timeZone}
        </p>
      </div>
      {meeting.awaitsOutcome ? (
        <Form
          method="post"
          className="flex flex-wrap gap-2"
          aria-label={meeting.erased ? "Outcome of the meeting" : `Outcome of ${meeting.fullName}'s meeting`}
        >
          <input type="hidden" name="intent" value="outcome" />
          <input type="hidden" name="id" value={meeting.id} />
          <input type="hidden" name="back" value={back} />
          <Button type="submit" name="outcome" value="held" size="sm">
            Held
          </Button>
          <Button type="submit" name="outcome" value="no_show" size="sm" variant="outline">
            No-show
          </Button>
        </Form>
      ) : null}
    </li>
  );
}

export function MeetingList({ meetings, back }: { meetings: MeetingRowData[]; back: string }) {
  return (
    <ol
      aria-label="Meetings"
      className="divide-y divide-line rounded-xl border border-line bg-white shadow-sm"
    >
      {meetings.map((meeting) => (
        <MeetingRow key={meeting.id} meeting={meeting} back={back} />
      ))}
    </ol>
  );
}
