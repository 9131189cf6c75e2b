import { type KeyboardEvent, type ReactNode, useRef, useState } from "react";
import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { textControlClass } from "#app/components/ui/input.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { cn } from "#app/lib/cn.ts";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import type { StaffMember } from "../lead-admin.server.ts";
import { NOTE_MAX_LENGTH } from "../lead-constants.ts";
import {
  ACTIVITY_KIND_LABELS,
  ACTIVITY_KINDS,
  type ActivityKind,
  CALL_MINUTES_MAX,
  CALL_OUTCOME_LABELS,
  CALL_OUTCOMES,
  COMPOSER_PARAM,
  EMAIL_DIRECTION_LABELS,
  EMAIL_DIRECTIONS,
  TASK_MAX,
} from "./activity-words.ts";

/** The composer's state after a refused post: which kind, the message, and what was typed. */
export type ComposerError = { kind: ActivityKind; message: string; values: Record<string, string> };

const selectClass = cn(textControlClass, "h-9 text-sm");

/**
 * One composer above the lead's feed (issue 35): a note, a logged call, a logged e-mail or a task,
 * chosen by tabs. Each kind is its own plain form posting to the page's action (`intent=note` or
 * `intent=activity` with `kind`), so it works without JavaScript: there the tabs are links
 * (`?composer=call`) that open that kind's form; with it they switch in place and the timeline below
 * updates after the post without a page load.
 */
export function LeadComposer({
  action,
  initialKind,
  staff,
  me,
  zoneLabel,
  today,
  error,
  sent,
}: {
  action: string;
  initialKind: ActivityKind;
  staff: StaffMember[];
  me: number;
  /** "Europe/London": the zone a task's date and time are read in. */
  zoneLabel: string;
  /** Today in that zone (YYYY-MM-DD): the task's default due day. */
  today: string;
  error: ComposerError | null;
  /** The kind just added (the form starts empty again). */
  sent: ActivityKind | null;
}) {
  const [kind, setKind] = useState<ActivityKind>(error?.kind ?? initialKind);
  const tabs = useRef<(HTMLAnchorElement | null)[]>([]);
  const values = error?.kind === kind ? error.values : {};
  const addingNote = usePendingIntent("note");
  const addingActivity = usePendingIntent("activity");
  const busy = addingNote || addingActivity;
  const formKey = `${kind}-${sent ?? ""}-${error ? "error" : ""}`;

  const choose = (next: ActivityKind) => {
    setKind(next);
    tabs.current[ACTIVITY_KINDS.indexOf(next)]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    const index = ACTIVITY_KINDS.indexOf(kind);
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    choose(ACTIVITY_KINDS[(index + step + ACTIVITY_KINDS.length) % ACTIVITY_KINDS.length] ?? "note");
  };

  return (
    <section
      id="composer"
      aria-labelledby="composer-heading"
      className="rounded-xl border border-line bg-white shadow-sm"
    >
      <h2 id="composer-heading" className="sr-only">
        Log activity
      </h2>
      <div
        role="tablist"
        aria-label="What to add"
        className="flex gap-1 overflow-x-auto border-b border-line px-2 pt-2"
        onKeyDown={onKeyDown}
      >
        {ACTIVITY_KINDS.map((each, index) => {
          const selected = each === kind;
          return (
            <a
              key={each}
              ref={(element) => {
                tabs.current[index] = element;
              }}
              role="tab"
              id={`composer-tab-${each}`}
              aria-selected={selected}
              aria-controls="composer-panel"
              tabIndex={selected ? 0 : -1}
              href={tabHref(action, each)}
              onClick={(event) => {
                event.preventDefault();
                choose(each);
              }}
              className={cn(
                "-mb-px rounded-t-md border-b-2 px-3 py-2 text-sm font-semibold whitespace-nowrap",
                selected
                  ? "border-brand text-brand"
                  : "border-transparent text-ink-muted hover:border-line hover:text-ink",
              )}
            >
              {ACTIVITY_KIND_LABELS[each]}
            </a>
          );
        })}
      </div>
      <div id="composer-panel" role="tabpanel" aria-labelledby={`composer-tab-${kind}`} className="p-4">
        <Form method="post" action={action} className="grid gap-3" key={formKey} data-composer={kind}>
          <input type="hidden" name="intent" value={kind === "note" ? "note" : "activity"} />
          <input type="hidden" name="kind" value={kind} />
          {kind === "note" ? (
            <NoteFields values={values} invalid={Boolean(error && error.kind === "note")} />
          ) : kind === "call" ? (
            <CallFields values={values} />
          ) : kind === "email" ? (
            <EmailFields values={values} />
          ) : (
            <TaskFields values={values} staff={staff} me={me} today={today} zoneLabel={zoneLabel} />
          )}
          {error && error.kind === kind ? (
            <p id="composer-error" className="text-sm font-semibold text-danger" role="alert">
              {error.message}
            </p>
          ) : null}
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? "Saving..." : SUBMIT_LABELS[kind]}
            </Button>
          </div>
        </Form>
      </div>
    </section>
  );
}

const SUBMIT_LABELS: Record<ActivityKind, string> = {
  note: "Add note",
  call: "Log call",
  email: "Log email",
  task: "Add task",
};

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-1">
      <label htmlFor={id} className="text-sm font-semibold">
        {label}
      </label>
      {children}
    </div>
  );
}

function NoteFields({ values, invalid }: { values: Record<string, string>; invalid: boolean }) {
  return (
    <>
      <label htmlFor="note-body" className="sr-only">
        Note
      </label>
      <Textarea
        id="note-body"
        name="body"
        rows={4}
        maxLength={NOTE_MAX_LENGTH}
        required
        defaultValue={values.body ?? ""}
        placeholder="What you learned, what happens next…"
        aria-invalid={invalid ? true : undefined}
      />
    </>
  );
}

function CallFields({ values }: { values: Record<string, string> }) {
  return (
    <>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,14rem)_minmax(0,10rem)]">
        <Field id="call-outcome" label="Outcome">
          <select
            id="call-outcome"
            name="outcome"
            required
            defaultValue={values.outcome ?? "connected"}
            className={selectClass}
          >
            {CALL_OUTCOMES.map((outcome) => (
              <option key={outcome} value={outcome}>
                {CALL_OUTCOME_LABELS[outcome]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="call-minutes" label="Duration (minutes)">
          <input
            id="call-minutes"
            name="durationMinutes"
            type="number"
            inputMode="numeric"
            min={0}
            max={CALL_MINUTES_MAX}
            step={1}
            defaultValue={values.durationMinutes ?? ""}
            className={selectClass}
          />
        </Field>
      </div>
      <Field id="call-body" label="Call notes">
        <Textarea
          id="call-body"
          name="body"
          rows={3}
          maxLength={NOTE_MAX_LENGTH}
          defaultValue={values.body ?? ""}
          placeholder="What was said, what was agreed…"
        />
      </Field>
    </>
  );
}

function EmailFields({ values }: { values: Record<string, string> }) {
  return (
    <>
      <Field id="email-direction" label="Direction">
        <select
          id="email-direction"
          name="direction"
          defaultValue={values.direction ?? "sent"}
          className={cn(selectClass, "sm:max-w-64")}
        >
          {EMAIL_DIRECTIONS.map((direction) => (
            <option key={direction} value={direction}>
              {EMAIL_DIRECTION_LABELS[direction]}
            </option>
          ))}
        </select>
      </Field>
      <Field id="email-body" label="Subject and summary">
        <Textarea
          id="email-body"
          name="body"
          rows={3}
          required
          maxLength={NOTE_MAX_LENGTH}
          defaultValue={values.body ?? ""}
          placeholder="Re: pricing — sent the proposal and the case study"
        />
      </Field>
    </>
  );
}

function TaskFields({
  values,
  staff,
  me,
  today,
  zoneLabel,
}: {
  values: Record<string, string>;
  staff: StaffMember[];
  me: number;
  today: string;
  zoneLabel: string;
}) {
  const assignable = staff.filter((member) => !member.disabled || member.id === me);
  return (
    <>
      <Field id="task-body" label="Task">
        <input
          id="task-body"
          name="body"
          required
          maxLength={TASK_MAX}
          defaultValue={values.body ?? ""}
          placeholder="e.g. Call back about pricing"
          className={cn(textControlClass, "h-9 text-sm")}
        />
      </Field>
      <div className="grid gap-3 sm:grid-cols-[minmax(0,11rem)_minmax(0,8rem)_minmax(0,1fr)]">
        <Field id="task-due-date" label="Due date">
          <input
            id="task-due-date"
            name="dueDate"
            type="date"
            required
            defaultValue={values.dueDate ?? today}
            className={selectClass}
          />
        </Field>
        <Field id="task-due-time" label="Due time">
          <input
            id="task-due-time"
            name="dueTime"
            type="time"
            required
            defaultValue={values.dueTime ?? "09:00"}
            aria-describedby="task-zone"
            className={selectClass}
          />
        </Field>
        <Field id="task-assignee" label="Assignee">
          <select
            id="task-assignee"
            name="assigneeId"
            defaultValue={values.assigneeId ?? String(me)}
            className={selectClass}
          >
            {assignable.map((member) => (
              <option key={member.id} value={member.id}>
                {member.id === me ? `${member.username} (me)` : member.username}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <p id="task-zone" className="text-xs text-ink-muted">
        Times are in {zoneLabel.replace(/_/g, " ")}.
      </p>
    </>
  );
}

/** A tab's own page without JavaScript: the page as it is (its list place kept) on that tab. */
function tabHref(action: string, kind: string): string {
  const url = new URL(action, "http://admin.invalid");
  url.searchParams.set(COMPOSER_PARAM, kind);
  return `${url.pathname}${url.search}#composer`;
}
