import type { ReactNode } from "react";
import { ERASED_VALUE } from "../lead-contact-schema.ts";
import type { TimelineEntry } from "../lead-timeline.server.ts";

// Issue 35: a correction of the lead's fields on its timeline, as who changed what from what:
// "alice changed the phone from +44 20 7946 0958 to +44 20 7946 0000". A long text (the message, the
// investor's details) is told in one line, its earlier and new words folded under it. An address its
// holder had erased reads "(erased on request)".

const FIELD_NAMES: Record<string, string> = {
  fullName: "the name",
  email: "the email",
  company: "the company",
  phone: "the phone",
  message: "the message",
  investorType: "the investor type",
  otherDetails: "the other details",
};

const LONG_FIELDS = new Set(["message", "otherDetails"]);

// An address erased on request (ADR 044: the lead carried it before a correction) is no value to quote.
const value = (text: string | null) =>
  text === null || text === "" || text === ERASED_VALUE ? (
    <em className="not-italic text-ink-muted">{text || "(empty)"}</em>
  ) : (
    <q>{text}</q>
  );

export function ContactChangeLine({
  entry,
  who,
}: {
  entry: Extract<TimelineEntry, { kind: "contact_changed" }>;
  who: ReactNode;
}) {
  return (
    <ul className="grid gap-1">
      {entry.changes.map((change) => {
        const name = FIELD_NAMES[change.field] ?? change.field;
        if (LONG_FIELDS.has(change.field))
          return (
            <li key={change.field}>
              {who} changed {name}
              <details className="mt-1 text-sm">
                <summary className="cursor-pointer font-semibold text-brand">Show the change</summary>
                <dl className="mt-1 grid gap-1">
                  <dt className="text-ink-muted">Was</dt>
                  <dd className="rounded-md bg-surface-muted px-3 py-2 break-words whitespace-pre-wrap">
                    {change.from || "(empty)"}
                  </dd>
                  <dt className="text-ink-muted">Now</dt>
                  <dd className="rounded-md bg-surface-muted px-3 py-2 break-words whitespace-pre-wrap">
                    {change.to || "(empty)"}
                  </dd>
                </dl>
              </details>
            </li>
          );
        return (
          <li key={change.field} className="break-words">
            {who} changed {name} from {value(change.from)} to {value(change.to)}
          </li>
        );
      })}
    </ul>
  );
}
