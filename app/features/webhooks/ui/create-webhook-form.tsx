import { type FormEvent, useState } from "react";
import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { UrlInput } from "#app/components/ui/input.tsx";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import {
  MAX_WEBHOOK_URL_LENGTH,
  parseCreateWebhook,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  type WebhookFieldErrors,
} from "../webhook-schema.ts";

/**
 * URL and events. Without JavaScript the server answers 400 with the messages and the entered
 * values; with it the same schema answers before the post.
 */
export function CreateWebhookForm({
  action,
  serverErrors,
  values,
}: {
  action: string;
  serverErrors?: WebhookFieldErrors;
  values?: { url: string; events: string[] };
}) {
  const pending = usePendingIntent("create");
  const [clientErrors, setClientErrors] = useState<WebhookFieldErrors | null>(null);
  const errors = clientErrors ?? serverErrors ?? {};
  const chosen = values?.events ?? ["lead.created"];

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    const form = new FormData(event.currentTarget);
    const parsed = parseCreateWebhook({ url: form.get("url"), events: form.getAll("events") });
    if (parsed.success) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    setClientErrors(parsed.errors);
    const first = parsed.errors.url ? "webhook-url" : "webhook-event-lead.created";
    document.getElementById(first)?.focus();
  }

  return (
    <Form
      method="post"
      action={action}
      onSubmit={onSubmit}
      noValidate
      className="grid gap-5 rounded-xl border border-line bg-white p-5 shadow-sm sm:p-6"
    >
      <input type="hidden" name="intent" value="create" />
      <Field
        id="webhook-url"
        name="url"
        label="Endpoint URL"
        required
        hint="Where each event is POSTed as signed JSON, e.g. https://crm.example.com/hooks/clausebridge"
        error={errors.url}
      >
        {(control) => (
          <UrlInput
            {...control}
            autoComplete="off"
            maxLength={MAX_WEBHOOK_URL_LENGTH}
            defaultValue={values?.url ?? ""}
            placeholder="https://"
          />
        )}
      </Field>
      <fieldset aria-describedby={errors.events ? "webhook-events-error" : undefined}>
        <legend className="font-semibold">Events</legend>
        <div className="mt-1 grid gap-x-6 sm:grid-cols-2">
          {WEBHOOK_EVENTS.map((event) => (
            <Checkbox
              key={event}
              id={`webhook-event-${event}`}
              name="events"
              value={event}
              defaultChecked={chosen.includes(event)}
              label={
                <>
                  <code className="text-sm font-semibold">{event}</code>
                  <span className="block text-sm text-ink-muted">{WEBHOOK_EVENT_LABELS[event]}</span>
                </>
              }
            />
          ))}
        </div>
        {errors.events ? (
          <p id="webhook-events-error" className="mt-1 text-sm font-semibold text-danger">
            {errors.events}
          </p>
        ) : null}
      </fieldset>
      <div>
        <Button type="submit" aria-busy={pending || undefined}>
          {pending ? "Adding..." : "Add webhook"}
        </Button>
      </div>
    </Form>
  );
}
