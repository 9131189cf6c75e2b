import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { textControlClass } from "#app/components/ui/input.tsx";
import { cn } from "#app/lib/cn.ts";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import { NEXT_STEP_MAX } from "./next-step-words.ts";

/** The done form's id (its intent keeps issue 23's name). */
const DONE_FORM = "next-step-clear";

export type NextStepView = {
  body: string;
  dueOn: string;
  due: string;
  /** The due time in the person's zone ("Thu, Dec 3, 9:00 AM"). */
  dueText: string;
  overdue: boolean;
  /** Whose task it is. */
  assignee: string | null;
  /** Whether the person may rewrite it or mark it done (it is theirs, they added it, or tasks.team). */
  mayChange: boolean;
};

/**
 * The lead's next step (its earliest open task, issue 35): what to do and the day it is due, posted
 * as `intent=next-step` (rewrites that task, or adds one) or `next-step-clear` (marks it done) to the
 * page's action; each is recorded on the timeline. Works without JavaScript. More tasks: the
 * composer's Task tab and My tasks. Someone else's task (not assigned to nor added by the person,
 * who has no tasks.team) is shown with whose it is, and no control to change it.
 */
export function LeadNextStepForm({
  step,
  action,
  error,
}: {
  step: NextStepView | null;
  action: string;
  /** The refused post's message, shown under the fields. */
  error?: string;
}) {
  const busy = usePendingIntent("next-step");
  const marking = usePendingIntent("next-step-clear");
  const readOnly = step !== null && !step.mayChange;
  return (
    // The list's row menu "Set next step" lands here (`#next-step`).
    <div id="next-step" className="grid scroll-mt-24 gap-1.5">
      <div className="flex flex-wrap items-center gap-2">
        {readOnly ? (
          <p className="font-semibold">Next step</p>
        ) : (
          <label htmlFor="next-step-body" className="font-semibold">
            Next step
          </label>
        )}
        {step?.overdue ? (
          <span className="rounded bg-red-100 px-1.5 py-0.5 text-xs font-semibold text-red-900">Overdue</span>
        ) : step ? (
          <span className="text-sm text-ink-muted">due {step.dueText}</span>
        ) : null}
      </div>
      {step?.overdue ? <p className="text-sm text-red-900">It was due {step.dueText}.</p> : null}
      {step && readOnly ? (
        <OthersNextStep step={step} error={error} />
      ) : (
        <NextStepForms step={step} action={action} error={error} busy={busy} marking={marking} />
      )}
    </div>
  );
}

/** Someone else's task as the lead's next step: what and whose, and where to add one's own. */
function OthersNextStep({ step, error }: { step: NextStepView; error?: string }) {
  return (
    <div className="grid gap-1.5 text-sm">
      <p className="rounded-md bg-surface-muted px-3 py-2 text-base break-words">{step.body}</p>
      <p className="text-ink-muted">
        {step.assignee ? (
          <>
            A task for <strong className="font-semibold">{step.assignee}</strong>:
          </>
        ) : (
          "Someone else's task:"
        )}{" "}
        only they, whoever added it, or an admin can change it or mark it done. Add your own from the Task tab
        above the timeline.
      </p>
      {error ? (
        <p id="next-step-error" role="alert" className="font-semibold text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function NextStepForms({
  step,
  action,
  error,
  busy,
  marking,
}: {
  step: NextStepView | null;
  action: string;
  error?: string;
  busy: boolean;
  marking: boolean;
}) {
  return (
    <>
      <Form method="post" action={action} className="grid gap-2" key={`${step?.body}|${step?.dueOn}`}>
        <input type="hidden" name="intent" value="next-step" />
        <input
          id="next-step-body"
          name="body"
          required
          maxLength={NEXT_STEP_MAX}
          defaultValue={step?.body ?? ""}
          placeholder="e.g. Call back about pricing"
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "next-step-error" : undefined}
          className={cn(textControlClass, "h-9 text-sm")}
        />
        <div className="flex flex-wrap items-end gap-2">
          <div className="grid gap-1">
            <label htmlFor="next-step-due" className="text-sm text-ink-muted">
              Due
            </label>
            <input
              id="next-step-due"
              type="date"
              name="dueOn"
              required
              defaultValue={step?.dueOn ?? ""}
              className={cn(textControlClass, "h-9 w-40 text-sm")}
            />
          </div>
          <Button type="submit" size="sm" variant="outline" disabled={busy}>
            {busy ? "Saving..." : "Save next step"}
          </Button>
          {step ? (
            // Posts the done form below (forms do not nest). It completes the task the next step is,
            // so the word says that: the lead's next open task, if any, becomes its next step. The
            // suffix starts with a space: an sr-only span counts as a block in the accessible name,
            // so a leading ":" would be read (and matched) as "Mark done : ...".
            <Button type="submit" form={DONE_FORM} size="sm" variant="ghost" disabled={marking}>
              {marking ? "Marking done..." : "Mark done"}
              <span className="sr-only"> (next step: {step.body})</span>
            </Button>
          ) : null}
        </div>
        {error ? (
          <p id="next-step-error" className="text-sm font-semibold text-danger">
            {error}
          </p>
        ) : null}
      </Form>
      {step ? (
        <Form id={DONE_FORM} method="post" action={action} hidden>
          <input type="hidden" name="intent" value="next-step-clear" />
        </Form>
      ) : null}
    </>
  );
}
