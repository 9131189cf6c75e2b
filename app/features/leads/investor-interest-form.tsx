import { type ReactNode, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { Checkbox } from "#app/components/ui/checkbox.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { Textarea } from "#app/components/ui/textarea.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import {
  HONEYPOT_FIELD,
  INVESTOR_MESSAGE,
  INVESTOR_TYPES,
  type InvestorTypeKey,
  LEAD_LIMITS,
} from "./lead-constants.ts";
import { defaultText, formText, type PostedLeadForm, useLeadForm } from "./lead-form-client.ts";
import { FormMessage, Honeypot, LeadTextInput, PrivacyNotice, RequiredNote } from "./lead-form-parts.tsx";
import { ThankYouPanel } from "./thank-you-panel.tsx";

// SPEC sections 3, 4, 5 and 8: the investor interest form on /invest, sent to the same API as a
// demo request with requestType 'investor' and the fixed message.

const INVESTOR_TYPE_LABELS: Record<InvestorTypeKey, string> = {
  angel: "Angel investor",
  vc: "Venture capital (VC)",
  introducer: "Introducer",
  other: "Other",
};

const SUCCESS = {
  title: "Request Submitted",
  description: "Thank you for your interest! Our team will contact you shortly.",
} as const;
const FAILURE = {
  title: "Error",
  description: "There was an error submitting your information. Please try again.",
} as const;

function toBody(data: FormData) {
  const ticked = data.getAll("investorType");
  return {
    fullName: formText(data, "fullName"),
    company: formText(data, "company"),
    email: formText(data, "email"),
    phone: formText(data, "phone"),
    investorType: Object.fromEntries(INVESTOR_TYPES.map((type) => [type, ticked.includes(type)])),
    otherDetails: formText(data, "otherDetails"),
    requestType: "investor",
    message: INVESTOR_MESSAGE,
    [HONEYPOT_FIELD]: formText(data, HONEYPOT_FIELD),
  };
}

export type InvestorInterestFormProps = {
  id: string;
  action: string;
  posted: PostedLeadForm;
  /** What the thank-you panel adds, given the booking token of a scripted submission (issue 34). */
  thanksExtra?: (bookingToken: string | undefined) => ReactNode;
};

/** An island (ADR 013): its props travel as JSON from the page to the browser. */
export function InvestorInterestForm({ id, action, posted, thanksExtra }: InvestorInterestFormProps) {
  const hydrated = useHydrated();
  const form = useLeadForm({
    toBody,
    posted,
    onOutcome(outcome) {
      if (outcome.kind === "success") toast(SUCCESS);
      else if (outcome.kind !== "invalid") toast({ ...FAILURE, variant: "destructive" });
    },
  });
  const { errors, defaults, result } = form;
  const defaultTypes = Array.isArray(defaults.investorType) ? defaults.investorType : [];
  const [otherTicked, setOtherTicked] = useState(defaultTypes.includes("other"));

  // A success shows the thank-you panel, which repeats the toast's words (and stands in for it without
  // JavaScript). Without JavaScript a failure shows the toast's words inline; one that is not about a
  // field (too many requests, storage down) also says what happened.
  const succeeded = result?.kind === "success";
  let message: { title: string; text: string; detail?: string } | null = null;
  if (result?.kind === "failed" && !form.viaScript) {
    message = {
      title: FAILURE.title,
      text: FAILURE.description,
      detail: Object.keys(result.errors).length > 0 ? undefined : result.message,
    };
  }

  const fieldId = (name: string) => `${id}-${name}`;
  return (
    <form
      id={id}
      action={`${action}#${id}`}
      className="relative grid gap-6"
      {...form.formProps}
      // A successful submission resets the form to empty defaults: 'Other' is unticked again.
      onReset={() => setOtherTicked(defaultTypes.includes("other"))}
    >
      <div>
        {succeeded ? (
          <ThankYouPanel
            audience="investor"
            formId={id}
            confirmation={{ title: SUCCESS.title, text: SUCCESS.description }}
            headingRef={form.thanksHeadingRef}
          >
            {thanksExtra?.(result?.kind === "success" ? result.bookingToken : undefined)}
          </ThankYouPanel>
        ) : (
          <FormMessage id={`${id}-result`} title={message?.title}>
            {message ? (
              <>
                <p>{message.text}</p>
                {message.detail ? <p className="mt-1">{message.detail}</p> : null}
              </>
            ) : null}
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
          name="company"
          label="Company"
          required
          error={errors.company}
          defaultValue={defaultText(defaults, "company")}
          autoComplete="organization"
          placeholder="Your company or fund"
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
          placeholder="jane.smith@example.com"
        />
        <LeadTextInput
          formId={id}
          name="phone"
          label="Phone"
          required
          error={errors.phone}
          defaultValue={defaultText(defaults, "phone")}
          type="tel"
          autoComplete="tel"
          placeholder="07700 900000"
        />
      </div>
      <fieldset className="grid gap-1">
        <legend className="font-semibold text-ink">How do you invest?</legend>
        <p className="mb-1 text-sm text-ink-muted">Tick all that apply.</p>
        <div className="grid sm:grid-cols-2">
          {INVESTOR_TYPES.map((type) => (
            <Checkbox
              key={type}
              name="investorType"
              value={type}
              label={INVESTOR_TYPE_LABELS[type]}
              defaultChecked={defaultTypes.includes(type)}
              onChange={type === "other" ? (event) => setOtherTicked(event.currentTarget.checked) : undefined}
            />
          ))}
        </div>
      </fieldset>
      <Field
        id={fieldId("otherDetails")}
        name="otherDetails"
        label="Other details"
        hint="If you ticked Other, tell us how you would like to be involved."
        error={errors.otherDetails}
      >
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            maxLength={LEAD_LIMITS.otherDetails}
            // SPEC section 5: only usable with 'Other' ticked. Without JavaScript nothing could
            // enable it, so it stays open and the server ignores it unless 'Other' was ticked.
            disabled={hydrated && !otherTicked}
            defaultValue={defaultText(defaults, "otherDetails")}
          />
        )}
      </Field>
      <Honeypot idPrefix={id} />
      <div className="grid gap-4">
        <Button
          type="submit"
          size="lg"
          disabled={form.pending}
          className="w-full sm:w-auto sm:justify-self-start"
        >
          {form.pending ? "Submitting..." : "Register Interest"}
        </Button>
        <PrivacyNotice />
      </div>
    </form>
  );
}
