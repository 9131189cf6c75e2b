import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Input, UrlInput } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import { WATCH_CHECK_LABELS, WATCH_EVERY, WATCH_EVERY_LABELS, type WatchCheck } from "../watch-types.ts";

export type WatchFormFields = { url: string; checks: readonly string[]; every: string; recipients: string };

/**
 * Add or change a watch: the address, the checks this server offers, how often, who gets the
 * alerts. A plain form: it posts without JavaScript, and the server's answer carries the messages.
 */
export function WatchForm({
  action,
  intent,
  available,
  values,
  errors = {},
  submitLabel,
  idPrefix,
}: {
  action: string;
  intent: string;
  available: readonly WatchCheck[];
  values: WatchFormFields;
  errors?: Record<string, string>;
  submitLabel: string;
  idPrefix: string;
}) {
  const pending = usePendingIntent(intent);
  return (
    <Form method="post" action={action} noValidate className="grid gap-5">
      <input type="hidden" name="intent" value={intent} />
      <Field
        id={`${idPrefix}-url`}
        name="url"
        label="Address"
        required
        hint="The page to check, e.g. https://www.example.com/"
        error={errors.url}
      >
        {(control) => <UrlInput {...control} defaultValue={values.url} maxLength={2000} />}
      </Field>
      <fieldset
        className="grid gap-1"
        aria-describedby={errors.checks ? `${idPrefix}-checks-error` : undefined}
        aria-invalid={errors.checks ? true : undefined}
      >
        <legend className="mb-1 font-semibold">
          Checks
          <span aria-hidden="true" className="ml-1 text-danger">
            *
          </span>
        </legend>
        {available.map((check) => (
          <Checkbox
            key={check}
            name="checks"
            value={check}
            label={WATCH_CHECK_LABELS[check]}
            defaultChecked={values.checks.includes(check)}
          />
        ))}
        {errors.checks ? (
          <p id={`${idPrefix}-checks-error`} className="text-sm font-semibold text-danger">
            {errors.checks}
          </p>
        ) : null}
      </fieldset>
      <Field id={`${idPrefix}-every`} name="every" label="How often" required error={errors.every}>
        {(control) => (
          <NativeSelect {...control} defaultValue={values.every || "daily"}>
            {WATCH_EVERY.map((every) => (
              <option key={every} value={every}>
                {WATCH_EVERY_LABELS[every]}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <Field
        id={`${idPrefix}-recipients`}
        name="recipients"
        label="Alert emails to"
        hint="One or more addresses, separated by commas."
        error={errors.recipients}
      >
        {(control) => (
          <Input
            {...control}
            type="text"
            autoComplete="off"
            defaultValue={values.recipients}
            maxLength={3000}
          />
        )}
      </Field>
      <div>
        <Button type="submit" disabled={pending}>
          {pending ? "Saving…" : submitLabel}
        </Button>
      </div>
    </Form>
  );
}
