import type { ReactNode, Ref } from "react";
import { Field } from "#app/components/ui/field.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { cn } from "#app/lib/cn.ts";
import { HONEYPOT_FIELD, LEAD_LIMITS } from "./lead-constants.ts";

/**
 * The field bots fill in and people never meet: off-screen rather than display:none (which bots
 * skip), hidden from assistive technology, out of the tab order and never autofilled.
 */
export function Honeypot({ idPrefix }: { idPrefix: string }) {
  const id = `${idPrefix}-${HONEYPOT_FIELD}`;
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Leave this field empty</label>
      <input id={id} type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}

export function PrivacyNotice() {
  return (
    <p className="text-sm leading-6 text-ink-muted">
      We use these details only to reply to your request. See our{" "}
      <a href="/privacy-policy" className="font-semibold text-brand underline underline-offset-2">
        privacy policy
      </a>
      .
    </p>
  );
}

/**
 * The form's error region (a success shows the thank-you panel instead). Always rendered otherwise
 * (an empty live region first, then its content) so screen readers announce what appears in it;
 * focusable so a script can bring it into view.
 */
export function FormMessage({
  id,
  title,
  children,
  ref,
}: {
  id: string;
  title?: string;
  children?: ReactNode;
  ref?: Ref<HTMLDivElement>;
}) {
  const empty = !title && !children;
  return (
    <div
      id={id}
      ref={ref}
      role="status"
      tabIndex={-1}
      className={cn(
        "rounded-md outline-offset-2",
        // Empty, it takes no room; it stays in the page so a screen reader tracks it as a live region.
        !empty && "mb-4 border-l-4 border-danger bg-red-50 p-4 text-danger",
      )}
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={cn(title && "mt-1 text-ink")}>{children}</div> : null}
    </div>
  );
}

export function RequiredNote() {
  return (
    <p className="text-sm text-ink-muted">
      Fields marked <span className="text-danger">*</span> are required.
    </p>
  );
}

type TextFieldName = "fullName" | "email" | "company" | "phone";

/**
 * One labelled text box of a lead form: its length limit is the schema's, and after a failed
 * no-JavaScript post it starts from what the visitor typed (`defaultValue`).
 */
export function LeadTextInput({
  formId,
  name,
  label,
  required = false,
  error,
  defaultValue,
  type = "text",
  autoComplete,
  placeholder,
}: {
  formId: string;
  name: TextFieldName;
  label: string;
  required?: boolean;
  error?: string;
  defaultValue: string;
  type?: "text" | "email" | "tel";
  autoComplete: string;
  placeholder: string;
}) {
  return (
    <Field id={`${formId}-${name}`} name={name} label={label} required={required} error={error}>
      {(control) => (
        <Input
          {...control}
          type={type}
          autoComplete={autoComplete}
          maxLength={LEAD_LIMITS[name]}
          placeholder={placeholder}
          defaultValue={defaultValue}
        />
      )}
    </Field>
  );
}
