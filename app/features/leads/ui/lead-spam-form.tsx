import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import type { Lead } from "../lead-repository.server.ts";

/** Staff's word on the spam verdict, posted as `intent=spam`: "Not spam" and "Mark as spam" as they apply. */
export function LeadSpamForm({ lead, action }: { lead: Pick<Lead, "spamLevel" | "isSpam">; action: string }) {
  const busy = usePendingIntent("spam");
  return (
    <div className="grid gap-1.5">
      <p className="font-semibold">Spam</p>
      <div className="flex flex-wrap gap-2">
        {lead.spamLevel !== "clean" || lead.isSpam ? (
          <Form method="post" action={action}>
            <input type="hidden" name="intent" value="spam" />
            <input type="hidden" name="value" value="false" />
            <Button type="submit" size="sm" variant={lead.isSpam ? "primary" : "outline"} disabled={busy}>
              Not spam
            </Button>
          </Form>
        ) : null}
        {lead.isSpam ? null : (
          <Form method="post" action={action}>
            <input type="hidden" name="intent" value="spam" />
            <input type="hidden" name="value" value="true" />
            <Button type="submit" size="sm" variant="outline" disabled={busy}>
              Mark as spam
            </Button>
          </Form>
        )}
      </div>
      <p className="text-sm text-ink-muted">
        {lead.isSpam
          ? "Held out of the list. “Not spam” brings it back and notifies sales."
          : lead.spamLevel === "review"
            ? "The spam filter asks you to look at this one; it is in the list."
            : "Spam is held out of the list, under Spam."}
      </p>
    </div>
  );
}
