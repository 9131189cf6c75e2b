import { type FormEvent, useState } from "react";
import { Form } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import { LEAD_LIMITS } from "../lead-constants.ts";
import type { FieldErrors } from "../lead-schema.ts";
import { STAFF_SOURCES, type StaffSource } from "../lead-sources.ts";
import { parseManualLead } from "../manual-lead-schema.ts";

export const NEW_LEAD_PATH = "/admin/leads/new";

export type ManualLeadValues = Partial<
  Record<"fullName" | "email" | "company" | "phone" | "message" | "source" | "ownerId", string>
>;

/**
 * The "Add a lead" form: the public demo form's fields and messages, where the lead came from and
 * who owns it. Without JavaScript the server checks it and answers with the messages; with it, the
 * same schema answers before the post.
 */
export function ManualLeadForm({
  staff,
  values,
  errors: serverErrors,
  defaultOwnerId,
}: {
  staff: { id: number; username: string }[];
  values: ManualLeadValues;
  errors: FieldErrors;
  defaultOwnerId: number;
}) {
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);
  const errors = clientErrors ?? serverErrors;
  const adding = usePendingIntent("add");
  const invalid = Object.keys(errors).length > 0;

  const check = (event: FormEvent<HTMLFormElement>) => {
    const result = parseManualLead(Object.fromEntries(new FormData(event.currentTarget)));
    if (result.success) {
      setClientErrors(null);
      return;
    }
    event.preventDefault();
    setClientErrors(result.errors);
    // The first invalid field in the form's order (the source comes first on the page).
    const first = ["source", "ownerId", "fullName", "email", "company", "phone", "message"].find(
      (field) => result.errors[field],
    );
    if (first) event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };

  return (
    <Form method="post" action={NEW_LEAD_PATH} noValidate onSubmit={check} className="grid gap-6">
      <input type="hidden" name="intent" value="add" />
      {invalid ? <Banner tone="error">Please check the highlighted fields.</Banner> : null}
      <SectionCard id="origin-heading" title="Where it came from">
        <div className="mt-4 grid gap-5 sm:grid-cols-2">
          <Field id="lead-source" name="source" label="Source" required error={errors.source}>
            {(control) => (
              <NativeSelect {...control} placeholder="Choose a source" defaultValue={values.source ?? ""}>
                {(Object.entries(STAFF_SOURCES) as [StaffSource, string][]).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Field
            id="lead-owner"
            name="ownerId"
            label="Owner"
            hint="Who follows it up. It shows in their “My leads”."
            error={errors.ownerId}
          >
            {(control) => (
              <NativeSelect {...control} defaultValue={values.ownerId ?? String(defaultOwnerId)}>
                <option value="">Unassigned</option>
                {staff.map((member) => (
                  <option key={member.id} value={member.id}>
                    {member.username}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
        </div>
      </SectionCard>

      <SectionCard id="person-heading" title="The person">
        <div className="mt-4 grid gap-5 sm:grid-cols-2">
          <Field id="lead-full-name" name="fullName" label="Full name" required error={errors.fullName}>
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                maxLength={LEAD_LIMITS.fullName}
                defaultValue={values.fullName}
              />
            )}
          </Field>
          <Field id="lead-email" name="email" label="Email" required error={errors.email}>
            {(control) => (
              <Input
                {...control}
                type="email"
                autoComplete="off"
                maxLength={LEAD_LIMITS.email}
                defaultValue={values.email}
              />
            )}
          </Field>
          <Field id="lead-company" name="company" label="Company" required error={errors.company}>
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                maxLength={LEAD_LIMITS.company}
                defaultValue={values.company}
              />
            )}
          </Field>
          <Field id="lead-phone" name="phone" label="Phone" required error={errors.phone}>
            {(control) => (
              <Input
                {...control}
                type="tel"
                autoComplete="off"
                maxLength={LEAD_LIMITS.phone}
                defaultValue={values.phone}
              />
            )}
          </Field>
          <Field
            id="lead-message"
            name="message"
            label="What they need"
            hint="Optional: what was said, what they asked for."
            error={errors.message}
            className="sm:col-span-2"
          >
            {(control) => (
              <Textarea {...control} rows={4} maxLength={LEAD_LIMITS.message} defaultValue={values.message} />
            )}
          </Field>
        </div>
      </SectionCard>

      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={adding}>
          {adding ? "Adding..." : "Add lead"}
        </Button>
        <p className="text-sm text-ink-muted">
          It goes straight into the list, without a spam check, and its webhooks go out as for a website lead.
        </p>
      </div>
    </Form>
  );
}
