import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";

export const TASK_DIGEST_INTENT = "task-digest";

/**
 * The morning e-mail of one's tasks (issue 35), its own small form on the account page: a box and a
 * save button, posting `intent=task-digest` (`on` ticked or absent). Off by default.
 */
export function TaskDigestForm({ chosen, email }: { chosen: boolean; email: string | null }) {
  const busy = usePendingIntent(TASK_DIGEST_INTENT);
  return (
    <section
      id="task-digest"
      aria-labelledby="task-digest-heading"
      className="grid gap-4 rounded-xl border border-line bg-white p-4 shadow-sm sm:p-6"
    >
      <div>
        <h2 id="task-digest-heading" className="text-2xl font-bold tracking-tight">
          Your tasks by e-mail
        </h2>
        <p className="mt-1 max-w-3xl leading-7 text-ink-muted">
          At 7:00 in the morning (your availability's time zone) a list of your overdue tasks and those due
          that day, when there are any.
          {email ? null : " Add your e-mail address above first: it goes there."}
        </p>
      </div>
      <Form method="post" className="flex flex-wrap items-center gap-x-4 gap-y-3">
        <input type="hidden" name="intent" value={TASK_DIGEST_INTENT} />
        <label className="flex items-center gap-2 font-semibold">
          <input
            type="checkbox"
            name="on"
            value="1"
            defaultChecked={chosen}
            className="size-4 accent-brand"
          />
          Email me my tasks each morning
        </label>
        <Button type="submit" variant="outline" disabled={busy}>
          {busy ? "Saving..." : "Save"}
        </Button>
      </Form>
    </section>
  );
}
