import { staffEventText } from "./staff-format.ts";
import type { StaffEventView } from "./staff-view.ts";

/** The latest account changes, newest first, each with who and when. */
export function StaffHistory({ events }: { events: StaffEventView[] }) {
  if (events.length === 0) {
    return (
      <p className="rounded-xl border border-line bg-white px-6 py-8 text-center text-ink-muted">
        No changes yet.
      </p>
    );
  }
  return (
    <ol className="divide-y divide-line rounded-xl border border-line bg-white shadow-sm">
      {events.map((event) => (
        <li
          key={event.id}
          className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-1 px-4 py-3 sm:px-6"
        >
          <span className="break-words">{staffEventText(event)}</span>
          <time dateTime={event.createdAt} className="text-sm whitespace-nowrap text-ink-muted">
            {event.when}
          </time>
        </li>
      ))}
    </ol>
  );
}
