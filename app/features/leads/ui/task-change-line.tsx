import type { ReactNode } from "react";
import type { TimelineEntry } from "../lead-timeline.server.ts";
import { formatDue } from "./task-format.ts";

// A task's words, due time or assignee changed, on the lead's timeline in one sentence: "rita renamed
// the task from “Call” to “Call about pricing”, moved it from Thu, Dec 3, 9:00 AM to Fri, Dec 4,
// 9:00 AM and reassigned it from sam to rita". Due times read in the viewer's zone, as My tasks and
// the Next step show them; the year is added when it is not the year of the change, so the line
// reads the same on the server and in the browser whatever the day it is viewed.

type Entry = Extract<TimelineEntry, { kind: "task_changed" }>;

function due(iso: string, zone: string, changedAt: Date): ReactNode {
  return <time dateTime={iso}>{formatDue(iso, zone, changedAt)}</time>;
}

/** "a, b and c" */
function joined(parts: ReactNode[]): ReactNode {
  return parts.map((part, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: a fixed sentence, never reordered.
    <span key={index}>
      {index === 0 ? "" : index === parts.length - 1 ? " and " : ", "}
      {part}
    </span>
  ));
}

export function TaskChangeLine({ entry, who, zone }: { entry: Entry; who: ReactNode; zone: string }) {
  const changedAt = new Date(entry.at);
  const renamed = entry.changes.find((change) => change.field === "text");
  const parts: ReactNode[] = [];
  if (renamed)
    parts.push(
      <>
        renamed the task from “{renamed.from}” to “{renamed.to}”
      </>,
    );
  // The first part names the task; the rest say "it".
  const task = () => (parts.length === 0 ? <>the task “{entry.text}”</> : "it");
  for (const change of entry.changes) {
    if (change.field === "due" && change.to)
      parts.push(
        <>
          moved {task()}
          {change.from ? <> from {due(change.from, zone, changedAt)}</> : null} to{" "}
          {due(change.to, zone, changedAt)}
        </>,
      );
    else if (change.field === "assignee")
      parts.push(
        change.from ? (
          <>
            reassigned {task()} from <strong className="font-semibold">{change.from}</strong> to{" "}
            <strong className="font-semibold">{change.to ?? "nobody"}</strong>
          </>
        ) : (
          <>
            assigned {task()} to <strong className="font-semibold">{change.to ?? "nobody"}</strong>
          </>
        ),
      );
  }
  return (
    <>
      {who} {joined(parts)}
    </>
  );
}
