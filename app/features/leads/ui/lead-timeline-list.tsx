import type { ReactNode } from "react";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import { formatDateTime } from "#app/lib/format-date.ts";
import { staffSourceLabel } from "../lead-sources.ts";
import type { TimelineEntry } from "../lead-timeline.server.ts";
import { callOutcomeLabel } from "./activity-words.ts";
import { ContactChangeLine } from "./contact-change-line.tsx";
import { formatDay } from "./lead-age.ts";
import { sourceText } from "./lead-format.ts";
import { StatusBadge } from "./status-badge.tsx";
import { TaskChangeLine } from "./task-change-line.tsx";

/** One line of the timeline, in words. */
function describe(entry: TimelineEntry, zone: string): ReactNode {
  const who = (actor: string | null) => <strong className="font-semibold">{actor ?? "The product"}</strong>;
  switch (entry.kind) {
    case "submitted": {
      const staff = staffSourceLabel(entry.source);
      return staff ? (
        <>Came in outside the website (source: {staff})</>
      ) : (
        <>Submitted through {sourceText(entry.source, entry.sourcePage)}</>
      );
    }
    case "added_by_staff":
      return (
        <>
          {who(entry.actor)} added it by hand (source: {entry.source})
        </>
      );
    case "imported":
      return (
        <>
          {who(entry.actor)} imported it from <strong className="font-semibold">{entry.fileName}</strong>
          {entry.owner ? (
            <>
              {" "}
              and assigned it to <strong className="font-semibold">{entry.owner}</strong>
            </>
          ) : null}
        </>
      );
    case "merged_from_import":
      return (
        <>
          {who(entry.actor)} merged a row of <strong className="font-semibold">{entry.fileName}</strong> into
          it
          {entry.fields.length > 0 ? ` (changed: ${entry.fields.join(", ")})` : " (nothing changed)"}
        </>
      );
    case "import_reverted":
      return (
        <>
          {who(entry.actor)} undid the import of <strong className="font-semibold">{entry.fileName}</strong>:
          its changes were reverted
        </>
      );
    case "status":
      return (
        <span className="inline-flex flex-wrap items-center gap-1.5">
          {who(entry.actor)} changed the status <StatusBadge status={entry.from} />
          <span aria-hidden="true">→</span>
          <span className="sr-only">to</span>
          <StatusBadge status={entry.to} />
        </span>
      );
    case "note":
      return (
        <>
          {who(entry.actor)} added a note
          <span className="mt-1 block rounded-md bg-surface-muted px-3 py-2 whitespace-pre-wrap">
            {entry.body}
          </span>
        </>
      );
    case "owner_changed":
      if (entry.reason === "meeting" && entry.to)
        return (
          <>
            Assigned to <strong className="font-semibold">{entry.to}</strong>, who hosts its meeting
          </>
        );
      return entry.to ? (
        <>
          {who(entry.actor)} assigned it to <strong className="font-semibold">{entry.to}</strong>
          {entry.from ? ` (was ${entry.from})` : ""}
        </>
      ) : (
        <>
          {who(entry.actor)} unassigned it{entry.from ? ` (was ${entry.from})` : ""}
        </>
      );
    case "meeting":
      return <MeetingLine entry={entry} who={who} />;
    case "spam_held":
      return (
        <>
          Held as spam by the spam filter (score {entry.score}): {entry.reasons.join("; ")}
        </>
      );
    case "marked_spam":
      return <>{who(entry.actor)} marked it as spam</>;
    case "marked_not_spam":
      return <>{who(entry.actor)} marked it as not spam</>;
    case "notification_sent":
      return <>Sales notification emailed</>;
    case "returned_after_erasure":
      return (
        <>
          Returned after erasure: this person's data was erased on request on {entry.erasedAt.slice(0, 10)},
          and they have now written again through the site
        </>
      );
    case "next_step_set":
      return (
        <>
          {who(entry.actor)} set the next step
          {entry.assignee ? (
            <>
              {" "}
              for <strong className="font-semibold">{entry.assignee}</strong>
            </>
          ) : null}
          , due {formatDay(entry.due)}
          <span className="mt-1 block rounded-md bg-surface-muted px-3 py-2">{entry.text}</span>
        </>
      );
    case "next_step_cleared":
      return (
        <>
          {who(entry.actor)} completed the next step “{entry.text}”
          {entry.assignee && entry.assignee !== entry.actor ? <>, a task for {entry.assignee}</> : null}
        </>
      );
    case "contact_changed":
      return <ContactChangeLine entry={entry} who={who(entry.actor)} />;
    case "call": {
      const minutes = entry.durationMinutes;
      return (
        <>
          {who(entry.actor)} logged a call:{" "}
          <strong className="font-semibold">{callOutcomeLabel(entry.outcome)}</strong>
          {minutes !== null ? `, ${minutes} min` : ""}
          {entry.body ? (
            <span className="mt-1 block rounded-md bg-surface-muted px-3 py-2 whitespace-pre-wrap">
              {entry.body}
            </span>
          ) : null}
        </>
      );
    }
    case "email":
      return (
        <>
          {who(entry.actor)} logged an e-mail
          {entry.direction === "sent"
            ? " sent to the lead"
            : entry.direction === "received"
              ? " from the lead"
              : ""}
          <span className="mt-1 block rounded-md bg-surface-muted px-3 py-2 whitespace-pre-wrap">
            {entry.body}
          </span>
        </>
      );
    case "task_added":
      return (
        <>
          {who(entry.actor)} added a task
          {entry.assignee ? (
            <>
              {" "}
              for <strong className="font-semibold">{entry.assignee}</strong>
            </>
          ) : null}
          , due <time dateTime={entry.due}>{formatDateTime(entry.due)}</time>
          <span className="mt-1 block rounded-md bg-surface-muted px-3 py-2">{entry.text}</span>
        </>
      );
    case "task_changed":
      return <TaskChangeLine entry={entry} who={who(entry.actor)} zone={zone} />;
    case "task_done":
      return (
        <>
          {who(entry.actor)} completed the task “{entry.text}”
        </>
      );
    case "task_reopened":
      return (
        <>
          {who(entry.actor)} reopened the task “{entry.text}”
        </>
      );
    case "notification_failed":
      return (
        <>
          Sales notification failed (attempt {entry.attempt}): {entry.error}
          {entry.final ? " — not retried" : " — will be retried"}
        </>
      );
  }
}

const MEETING_HEADLINES: Record<Extract<TimelineEntry, { kind: "meeting" }>["change"], string> = {
  booked: "Meeting booked",
  rescheduled: "Meeting rescheduled",
  cancelled: "Meeting cancelled",
  held: "Meeting held",
  no_show: "Meeting: no-show",
};

/** "Meeting booked: Product demo with ada, Dec 8, 2026, 10:00 AM (UK time)", and who recorded an outcome. */
function MeetingLine({
  entry,
  who,
}: {
  entry: Extract<TimelineEntry, { kind: "meeting" }>;
  who: (actor: string | null) => ReactNode;
}) {
  const outcome = entry.change === "held" || entry.change === "no_show";
  return (
    <>
      <strong className="font-semibold">{MEETING_HEADLINES[entry.change]}</strong>: {entry.meetingType} with{" "}
      {entry.host}, <time dateTime={entry.start}>{formatDateTime(entry.start)}</time>
      {entry.previousStart ? <> (was {formatDateTime(entry.previousStart)})</> : null}
      {outcome && entry.actor ? <> — recorded by {who(entry.actor)}</> : null}
    </>
  );
}

/**
 * Everything that happened to the lead, newest first, each with when (already formatted) and who;
 * a task's changed due times in the viewer's `zone`.
 */
export function LeadTimelineList({
  timeline,
  zone,
}: {
  timeline: (TimelineEntry & { when: string })[];
  zone: string;
}) {
  return (
    <SectionCard id="timeline-heading" title="Timeline">
      <ol className="mt-4 grid gap-0">
        {timeline.map((entry) => (
          <li key={entry.id} className="relative border-l-2 border-line pb-4 pl-5 last:pb-0">
            <span aria-hidden="true" className="absolute top-1.5 -left-[7px] size-3 rounded-full bg-brand" />
            <p className="text-sm text-ink-muted">{entry.when}</p>
            <div className="mt-0.5 leading-6">{describe(entry, zone)}</div>
          </li>
        ))}
      </ol>
    </SectionCard>
  );
}
