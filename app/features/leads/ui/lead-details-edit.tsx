import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from "react";
import { Form, Link } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { LEAD_LIMITS } from "../lead-constants.ts";
import {
  CONTACT_WAS_FIELD,
  changedContactFields,
  contactSnapshot,
  parseContactWas,
} from "../lead-contact-schema.ts";
import type { Lead } from "../lead-repository.server.ts";

// Issue 35: the Details card's fields as a form, the same one with and without JavaScript. Without
// it the form posts `intent=details` to the page's action, which answers with the page and its
// errors beside the fields; with it the card sends PATCH /api/admin/leads/:id and stays in place.

export type EditableField =
  | "fullName"
  | "company"
  | "email"
  | "phone"
  | "message"
  | "investorType"
  | "otherDetails";

export type DetailsValues = {
  fullName?: unknown;
  company?: unknown;
  email?: unknown;
  phone?: unknown;
  message?: unknown;
  otherDetails?: unknown;
  investorType?: unknown;
};

export type DetailsErrors = Partial<Record<string, string>>;

/** The contact fields, each required and one line, in the order the card shows them. */
const CONTACT_FIELDS: {
  name: "fullName" | "company" | "email" | "phone";
  label: string;
  type?: "email" | "tel";
  spellCheck?: boolean;
}[] = [
  { name: "fullName", label: "Full name" },
  { name: "company", label: "Company" },
  { name: "email", label: "Email", type: "email", spellCheck: false },
  { name: "phone", label: "Phone", type: "tel" },
];

const INVESTOR_BOXES = [
  { key: "angel", name: "investorAngel", label: "Angel" },
  { key: "vc", name: "investorVc", label: "VC" },
  { key: "introducer", name: "investorIntroducer", label: "Introducer" },
  { key: "other", name: "investorOther", label: "Other" },
] as const;

const str = (value: unknown, fallback: string | null) =>
  typeof value === "string" ? value : (fallback ?? "");

/**
 * The fields this person changed (against the values the form opened with, its `was` field), as the
 * JSON API takes them: empty when nothing changed.
 */
export function detailsBody(form: HTMLFormElement, investor: boolean): Record<string, unknown> {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? "");
  const body: Record<string, unknown> = {
    fullName: text("fullName"),
    company: text("company"),
    email: text("email"),
    phone: text("phone"),
    message: text("message"),
  };
  if (investor) {
    body.investorType = Object.fromEntries(INVESTOR_BOXES.map((box) => [box.key, data.has(box.name)]));
    body.otherDetails = text("otherDetails");
  }
  return changedContactFields(body, parseContactWas(data.get(CONTACT_WAS_FIELD) as string | null));
}

export function LeadDetailsForm({
  lead,
  action,
  cancelHref,
  values,
  errors,
  focusField,
  pending,
  onSubmit,
  onCancel,
}: {
  lead: Pick<
    Lead,
    | "id"
    | "requestType"
    | "fullName"
    | "company"
    | "email"
    | "phone"
    | "message"
    | "investorType"
    | "otherDetails"
  >;
  /** The page's URL, whose action takes `intent=details`. */
  action: string;
  /** The page without `?edit=details` (Cancel without JavaScript). */
  cancelHref: string;
  /** What was sent when the server refused it, shown again. */
  values?: DetailsValues;
  errors: DetailsErrors;
  /** The field to put the cursor in when the form opens (the one whose "Edit" was pressed). */
  focusField?: EditableField;
  pending: boolean;
  /** With JavaScript: the form is sent by the card, not posted. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  onCancel?: () => void;
}) {
  const investor = lead.requestType === "investor";
  const formRef = useRef<HTMLFormElement>(null);
  const types = (
    values?.investorType && typeof values.investorType === "object" ? values.investorType : lead.investorType
  ) as Record<string, unknown>;
  const [otherTicked, setOtherTicked] = useState(Boolean(types.other));

  // Focus: the field asked for when the form opens with JavaScript; the first refused one after an error.
  const errorKey = Object.keys(errors).join();
  const enhanced = Boolean(onSubmit);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new set of errors moves the focus again
  useEffect(() => {
    if (!enhanced) return;
    const form = formRef.current;
    const invalid = form?.querySelector<HTMLElement>("[aria-invalid=true]");
    const wanted = focusField ? form?.querySelector<HTMLElement>(`[data-field="${focusField}"]`) : null;
    (invalid ?? wanted ?? form?.querySelector<HTMLElement>("input,textarea"))?.focus();
  }, [errorKey, focusField, enhanced]);

  const onKeyDown = (event: KeyboardEvent<HTMLFormElement>) => {
    if (event.key === "Escape" && onCancel) {
      event.preventDefault();
      onCancel();
    }
  };

  return (
    <Form
      ref={formRef}
      method="post"
      action={action}
      noValidate
      onSubmit={onSubmit}
      onKeyDown={onKeyDown}
      className="mt-4 grid gap-4"
      aria-label="Edit details"
      data-details-form
    >
      <input type="hidden" name="intent" value="details" />
      {/* What the form opened with, so only the fields changed here are saved (lead-contact-schema.ts). */}
      <input type="hidden" name={CONTACT_WAS_FIELD} value={JSON.stringify(contactSnapshot(lead))} />
      {errors.form ? <p className="font-semibold text-danger">{errors.form}</p> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {CONTACT_FIELDS.map((field) => (
          <Field
            key={field.name}
            id={`lead-edit-${field.name}`}
            name={field.name}
            label={field.label}
            error={errors[field.name]}
            required
          >
            {(control) => (
              <Input
                {...control}
                data-field={field.name}
                type={field.type}
                autoComplete="off"
                spellCheck={field.spellCheck}
                maxLength={LEAD_LIMITS[field.name]}
                defaultValue={str(values?.[field.name], lead[field.name])}
              />
            )}
          </Field>
        ))}
      </div>
      <Field id="lead-edit-message" name="message" label="Message" error={errors.message}>
        {(control) => (
          <Textarea
            {...control}
            data-field="message"
            rows={4}
            maxLength={LEAD_LIMITS.message}
            defaultValue={str(values?.message, lead.message)}
          />
        )}
      </Field>
      {investor ? (
        <>
          <fieldset
            className="grid gap-1"
            aria-describedby={errors.investorType ? "lead-edit-investor-error" : undefined}
          >
            <legend className="mb-1 font-semibold">Investor type</legend>
            <div className="flex flex-wrap gap-x-6" data-field="investorType">
              {INVESTOR_BOXES.map((box) => (
                <Checkbox
                  key={box.key}
                  name={box.name}
                  label={box.label}
                  defaultChecked={Boolean(types[box.key])}
                  onChange={
                    box.key === "other" ? (event) => setOtherTicked(event.currentTarget.checked) : undefined
                  }
                />
              ))}
            </div>
            {errors.investorType ? (
              <p id="lead-edit-investor-error" className="text-sm font-semibold text-danger">
                {errors.investorType}
              </p>
            ) : null}
          </fieldset>
          <Field
            id="lead-edit-otherDetails"
            name="otherDetails"
            label="Other details"
            hint="Kept when Other is ticked, as on the form."
            error={errors.otherDetails}
          >
            {(control) => (
              <Textarea
                {...control}
                data-field="otherDetails"
                rows={2}
                maxLength={LEAD_LIMITS.otherDetails}
                disabled={onSubmit ? !otherTicked : undefined}
                defaultValue={str(values?.otherDetails, lead.otherDetails)}
              />
            )}
          </Field>
        </>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" aria-busy={pending || undefined}>
          {pending ? "Saving..." : "Save"}
        </Button>
        {onCancel ? (
          <Button type="button" variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        ) : (
          <Button asChild variant="outline">
            <Link to={cancelHref}>Cancel</Link>
          </Button>
        )}
        {onCancel ? <span className="text-sm text-ink-muted max-sm:hidden">Esc cancels</span> : null}
      </div>
    </Form>
  );
}
