import { type ReactNode, useRef } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { HONEYPOT_FIELD, LEAD_LIMITS } from "./lead-constants.ts";
import {
  defaultText,
  formText,
  type LeadOutcome,
  type PostedLeadForm,
  useLeadForm,
} from "./lead-form-client.ts";
import { FormMessage, Honeypot, LeadTextInput, PrivacyNotice, RequiredNote } from "./lead-form-parts.tsx";
import { type Confirmation, ThankYouPanel } from "./thank-you-panel.tsx";

// SPEC sections 2, 4, 5 and 8: the demo request form, in the home page's variant (inline result,
// 'Submitting...') and the /demo page's (toasts, 'Processing...'). Both post the same fields, and
// both thank the visitor with the same panel, carrying their own confirmation words.

type Variant = "home" | "page";

const COPY = {
  home: { idle: "Request Demo", pending: "Submitting..." },
  page: { idle: "Submit Request", pending: "Processing..." },
} as const;

const PAGE_SUCCESS = {
  title: "Success!",
  description: "Your demo request has been submitted successfully. We'll contact you soon.",
} as const;
const HOME_SUCCESS = "✅ Demo request submitted successfully!";
const PAGE_FAILURE_TITLE = "Something went wrong";
const PAGE_FAILURE_FALLBACK = "Please try again later.";

function toBody(data: FormData) {
  return {
    fullName: formText(data, "fullName"),
    email: formText(data, "email"),
    company: formText(data, "company"),
    phone: formText(data, "phone"),
    message: formText(data, "message"),
    [HONEYPOT_FIELD]: formText(data, HONEYPOT_FIELD),
  };
}

/** The home variant's inline error line (SPEC section 8), or null. */
function homeError(outcome: LeadOutcome): string | null {
  switch (outcome.kind) {
    case "failed":
      return `❌ Error: ${outcome.message}`;
    case "network":
      return `❌ Network error: ${outcome.message}`;
    case "success":
    case "invalid":
      return null;
  }
}

/** What the thank-you panel repeats of the spec: the home form's inline line, the /demo toast. */
const CONFIRMATION: Record<Variant, Confirmation> = {
  home: { text: HOME_SUCCESS },
  page: { title: PAGE_SUCCESS.title, text: PAGE_SUCCESS.description },
};

export type DemoRequestFormProps = {
  variant: Variant;
  /** The form's id: the anchor the no-JavaScript path returns to, and the fields' id prefix. */
  id: string;
  /** The page's own route, which handles the form without JavaScript. */
  action: string;
  posted: PostedLeadForm;
  /** What the thank-you panel adds, given the booking token of a scripted submission (issue 34). */
  thanksExtra?: (bookingToken: string | undefined) => ReactNode;
};

/** An island (ADR 013): its props travel as JSON from the page to the browser. */
export function DemoRequestForm({ variant, id, action, posted, thanksExtra }: DemoRequestFormProps) {
  const messageRef = useRef<HTMLDivElement>(null);
  const form = useLeadForm({
    toBody,
    posted,
    onOutcome(outcome) {
      if (variant === "home") {
        // An error sits above the fields: bring it into view, unless an invalid field took focus.
        // (A success took focus to the thank-you panel already.)
        const fieldErrors = outcome.kind === "invalid" || outcome.kind === "failed" ? outcome.errors : {};
        if (outcome.kind !== "success" && Object.keys(fieldErrors).length === 0) messageRef.current?.focus();
        return;
      }
      if (outcome.kind === "success") toast(PAGE_SUCCESS);
      else if (outcome.kind !== "invalid") {
        toast({
          title: PAGE_FAILURE_TITLE,
          description: outcome.message || PAGE_FAILURE_FALLBACK,
          variant: "destructive",
        });
      }
    },
  });
  const { errors, defaults, result } = form;

  // A success shows the thank-you panel (with the spec's words, toast or not). Errors show inline on
  // the home variant; on the page variant only without JavaScript, where there are no toasts.
  const succeeded = result?.kind === "success";
  let message: { title?: string; text: string } | null = null;
  if (result && !succeeded && variant === "home") {
    const text = homeError(result);
    if (text) message = { text };
  } else if (result && !succeeded && !form.viaScript) {
    message = {
      title: PAGE_FAILURE_TITLE,
      text: (result.kind !== "invalid" && result.message) || PAGE_FAILURE_FALLBACK,
    };
  }

  const fieldId = (name: string) => `${id}-${name}`;
  return (
    <form id={id} action={`${action}#${id}`} className="relative grid gap-6" {...form.formProps}>
      <div>
        {succeeded ? (
          <ThankYouPanel
            audience="demo"
            formId={id}
            confirmation={CONFIRMATION[variant]}
            headingRef={form.thanksHeadingRef}
          >
            {thanksExtra?.(result.kind === "success" ? result.bookingToken : undefined)}
          </ThankYouPanel>
        ) : (
          <FormMessage id={`${id}-result`} ref={messageRef} title={message?.title}>
            {message?.text}
          </FormMessage>
        )}
        <RequiredNote />
      </div>
      <div className="grid gap-6 md:grid-cols-2">
        <LeadTextInput
          formId={id}
          name="fullName"
          label="Full Name"
          required
          error={errors.fullName}
          defaultValue={defaultText(defaults, "fullName")}
          autoComplete="name"
          placeholder="Jane Smith"
        />
        <LeadTextInput
          formId={id}
          name="email"
          label="Email"
          required
          error={errors.email}
          defaultValue={defaultText(defaults, "email")}
          type="email"
          autoComplete="email"
          placeholder="jane.smith@company.co.uk"
        />
        <LeadTextInput
          formId={id}
          name="company"
          label="Company"
          required
          error={errors.company}
          defaultValue={defaultText(defaults, "company")}
          autoComplete="organization"
          placeholder="Your company name"
        />
        {/* NOTE: SPEC section 5 says the original home form left Phone optional in the browser, but
            every lead needs a phone number (SPEC section 3) and the shared schema and the server ask
            for one on both forms. A field the server requires is marked so, on both (issue 22): no
            visitor should learn it from an error after sending. */}
        <LeadTextInput
          formId={id}
          name="phone"
          label="Phone"
          required
          error={errors.phone}
          defaultValue={defaultText(defaults, "phone")}
          type="tel"
          autoComplete="tel"
          placeholder="020 7946 0000"
        />
        <Field
          id={fieldId("message")}
          name="message"
          label="Message"
          error={errors.message}
          className="md:col-span-2"
        >
          {(control) => (
            <Textarea
              {...control}
              rows={3}
              maxLength={LEAD_LIMITS.message}
              placeholder="Tell us about your business and the contracts you manage"
              defaultValue={defaultText(defaults, "message")}
            />
          )}
        </Field>
      </div>
      <Honeypot idPrefix={id} />
      <div className="grid gap-4">
        <Button
          type="submit"
          size="lg"
          disabled={form.pending}
          className="w-full sm:w-auto sm:justify-self-start"
        >
          {form.pending ? COPY[variant].pending : COPY[variant].idle}
        </Button>
        <PrivacyNotice />
      </div>
    </form>
  );
}
