import { SectionCard } from "#app/components/back-office/section-card.tsx";
import type { MeetingsReport } from "../analytics-report.ts";
import { formatCount, formatWait } from "./report-format.ts";

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <div className="rounded-lg bg-surface-muted px-3 py-3 sm:px-4">
      <dt className="text-sm font-semibold text-ink-muted">{label}</dt>
      <dd className="mt-1 text-2xl font-bold tracking-tight tabular-nums">{value}</dd>
      {hint ? <dd className="mt-0.5 text-sm text-ink-muted">{hint}</dd> : null}
    </div>
  );
}

/**
 * The period's booked meetings (issue 34), held and no-show among them, and the median wait from a
 * lead's request to its booking (left out when no meeting was booked).
 */
export function MeetingsSummary({ meetings }: { meetings: MeetingsReport }) {
  const wait = meetings.requestToMeeting;
  return (
    <SectionCard id="meetings-heading" title="Meetings">
      <p className="mt-1 text-sm text-ink-muted">
        Meetings booked in this period and not cancelled since; held and no-show as staff marked them.
      </p>
      <dl className="mt-4 grid grid-cols-3 gap-2 sm:gap-3">
        <Figure label="Booked" value={formatCount(meetings.meetings)} />
        <Figure label="Held" value={formatCount(meetings.held)} />
        <Figure label="No-show" value={formatCount(meetings.noShow)} />
      </dl>
      {wait ? (
        <dl className="mt-3">
          <Figure
            label="Median time from request to booked meeting"
            value={formatWait(wait.medianSeconds)}
            hint={`over ${formatCount(wait.meetings)} ${wait.meetings === 1 ? "meeting" : "meetings"}`}
          />
        </dl>
      ) : null}
    </SectionCard>
  );
}
