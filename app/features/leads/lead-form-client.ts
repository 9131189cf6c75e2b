import { type FormEvent, useEffect, useRef, useState } from "react";
import { flushSync } from "react-dom";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { LeadFormActionData } from "./lead-http.server.ts";
import type { FieldErrors } from "./lead-schema.ts";
import type { LeadOutcome } from "./lead-submit.ts";
import { revealThankYou } from "./thank-you-panel.tsx";

// What the lead forms share in the browser: the state a form shows before, during and after a
// submission. The no-JavaScript path (a plain POST to the page's own action) feeds the same state
// through `posted`, which the page renders into the form's island (lead-form-posted.ts).

export type { LeadOutcome };

/** The query a successful no-JavaScript POST redirects to (see the routes' actions). */
export const SUBMITTED_PARAM = "submitted";

/** What the page's own no-JavaScript POST left for the form: its failure, or `?submitted=`. */
export type PostedLeadForm = { actionData?: LeadFormActionData; submitted: boolean };

let submitModule: Promise<typeof import("./lead-submit.ts")> | undefined;

/**
 * Loads the JSON submission with the shared schema (and zod) on demand. NOTE: never import
 * lead-submit.ts or lead-schema.ts statically from client code: zod would join every page's bundle.
 * Forms warm it on first focus and await it on submit.
 */
function loadLeadSubmit() {
  submitModule ??= import("./lead-submit.ts").catch((error: unknown) => {
    submitModule = undefined; // the next attempt retries
    throw error;
  });
  return submitModule;
}

/** One string from a form post, "" when absent (an unticked box, a disabled field). */
export function formText(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === "string" ? value : "";
}

/**
 * A posted value for a text field's defaultValue. Always a string: going from a value to undefined
 * would leave the old default in place for form.reset() to restore.
 */
export function defaultText(defaults: LeadFormActionData["values"], name: string): string {
  const value = defaults[name];
  return typeof value === "string" ? value : "";
}

type LeadFormOptions = {
  /** The JSON body for the API from the form's fields. */
  toBody: (data: FormData) => Record<string, unknown>;
  /** Toasts and focus: what this form does once an outcome is rendered. */
  onOutcome?: (outcome: LeadOutcome) => void;
  posted: PostedLeadForm;
};

/**
 * State and handlers of one lead form. Inputs stay uncontrolled (what the visitor typed before
 * hydration is kept and sent); after a failed no-JavaScript POST they start from the posted values.
 */
export function useLeadForm({ toBody, onOutcome, posted }: LeadFormOptions) {
  const { actionData, submitted: submittedWithoutJs } = posted;
  const hydrated = useHydrated();
  const [pending, setPending] = useState(false);
  const [outcome, setOutcome] = useState<LeadOutcome | null>(null);
  const [errors, setErrors] = useState<FieldErrors>(actionData?.errors ?? {});
  const [defaults, setDefaults] = useState(actionData?.values ?? {});
  const thanksHeadingRef = useRef<HTMLHeadingElement>(null);

  // The success page of the no-JavaScript path is /page?submitted=…: drop the query from the address
  // bar so a reload or a bookmark shows the page itself, while this render keeps the message.
  useEffect(() => {
    if (!submittedWithoutJs) return;
    const url = new URL(window.location.href);
    url.searchParams.delete(SUBMITTED_PARAM);
    window.history.replaceState(window.history.state, "", url);
  }, [submittedWithoutJs]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const form = event.currentTarget;
    setPending(true);
    let submit: Awaited<ReturnType<typeof loadLeadSubmit>>;
    try {
      submit = await loadLeadSubmit();
    } catch {
      // The script cannot load (a deploy replaced it, a flaky link): post the form the way it works
      // without JavaScript; the page's action answers it.
      form.submit();
      return;
    }
    const result = await submit.sendLead(toBody(new FormData(form)));
    flushSync(() => {
      setPending(false);
      setOutcome(result);
      setErrors(result.kind === "invalid" || result.kind === "failed" ? result.errors : {});
      if (result.kind === "success") setDefaults({});
    });
    // After the re-render the defaults are empty, so reset() clears every field and box.
    if (result.kind === "success") form.reset();
    // NOTE: disabling the submit button while pending dropped keyboard focus to <body>. A success
    // takes it to the thank-you panel instead.
    if (result.kind === "success") revealThankYou(thanksHeadingRef.current);
    else
      (
        form.querySelector<HTMLElement>('[aria-invalid="true"]') ??
        form.querySelector<HTMLElement>('[type="submit"]')
      )?.focus();
    onOutcome?.(result);
  }

  // What the form reports: this page view's JSON submission, else the no-JavaScript POST it follows.
  let result: LeadOutcome | null = outcome;
  if (!result && submittedWithoutJs) result = { kind: "success" };
  if (!result && actionData)
    result = { kind: "failed", message: actionData.message, errors: actionData.errors };

  return {
    pending,
    errors,
    result,
    /** True when `result` came from the script (toasts can tell it), false after a plain POST. */
    viaScript: outcome !== null,
    defaults,
    /** For the thank-you panel's heading (ThankYouPanel's headingRef). */
    thanksHeadingRef,
    formProps: {
      method: "post",
      onSubmit,
      // Our messages (the spec's wording) replace the browser's once JavaScript runs.
      noValidate: hydrated,
      // Load the validator while the visitor types, so submitting does not wait for it.
      onFocus: () => void loadLeadSubmit().catch(() => {}),
    },
  } as const;
}
