import { Form } from "react-router";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import { NOTE_MAX_LENGTH } from "../lead-constants.ts";

/**
 * A note for the lead's timeline, posted as `intent=note`. After a refusal it keeps the draft and is
 * marked invalid; after a note was added (`sent`) it starts empty.
 */
export function LeadNoteForm({
  action,
  draft,
  invalid,
  sent,
}: {
  action: string;
  draft: string;
  invalid: boolean;
  sent: boolean;
}) {
  const busy = usePendingIntent("note");
  return (
    <SectionCard id="notes-heading" title="Add a note">
      <Form method="post" action={action} className="mt-4 grid gap-3">
        <input type="hidden" name="intent" value="note" />
        <label htmlFor="note-body" className="sr-only">
          Note
        </label>
        <Textarea
          id="note-body"
          name="body"
          rows={4}
          maxLength={NOTE_MAX_LENGTH}
          required
          defaultValue={draft}
          key={sent ? "sent" : "draft"}
          placeholder="What you learned, what happens next…"
          aria-invalid={invalid ? true : undefined}
        />
        <div>
          <Button type="submit" disabled={busy}>
            {busy ? "Saving..." : "Add note"}
          </Button>
        </div>
      </Form>
    </SectionCard>
  );
}
