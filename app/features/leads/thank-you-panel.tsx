import type { ReactNode, Ref } from "react";
import { site } from "#app/lib/site/site.ts";

// The one way the lead forms say thank you (issue 11): a panel above the cleared form that stays
// until the visitor leaves or sends the form again, the same after a scripted submission and after
// the no-JavaScript redirect. It carries the form's own confirmation words (SPEC section 8) and
// then says what happens next, when to expect a reply and how to reach the team.

export type ThankYouAudience = "demo" | "investor";

/** The SPEC's confirmation for this form: the home form's inline line, or a toast's title and text. */
export type Confirmation = { title?: string; text: string };

export const THANK_YOU_HEADING = "Thank you — your request is with us";

const investor = site.investorContact;

const NEXT_STEPS: Record<ThankYouAudience, readonly string[]> = {
  demo: [
    "A member of our team who knows construction contracts reads your request.",
    "We contact you by email or phone to agree a time that suits you.",
    "We show you the platform online in 30 minutes, on contracts like yours. No preparation is needed.",
  ],
  investor: [
    `${investor.name}, ${investor.role}, reads your details.`,
    "We contact you to arrange a conversation and share our materials.",
    "Amount, structure and terms are discussed directly with you, subject to your own due diligence and advice.",
  ],
};

const CONTACT: Record<
  ThankYouAudience,
  { name?: string; email: string; subject: string; phone: { display: string; e164: string } }
> = {
  demo: { email: site.company.email, subject: "Demo request", phone: site.company.phone },
  investor: {
    name: investor.name,
    email: investor.email,
    subject: "Investor interest",
    phone: investor.phone,
  },
};

/**
 * After a scripted success: focus goes to the panel's heading, so screen readers read it, and the
 * whole panel scrolls into view below the sticky header (the heading alone could land at the bottom).
 */
export function revealThankYou(heading: HTMLElement | null) {
  if (!heading) return;
  heading.focus({ preventScroll: true });
  // The CSS decides smooth or instant (prefers-reduced-motion) and the 80 px header offset.
  heading.closest("section")?.scrollIntoView({ block: "start" });
}

const link = "font-semibold text-brand underline underline-offset-2 break-words";

export function ThankYouPanel({
  audience,
  formId,
  confirmation,
  headingRef,
  children,
}: {
  audience: ThankYouAudience;
  /** The form's id: the panel's ids derive from it, and its status line keeps the form's result id. */
  formId: string;
  confirmation: Confirmation;
  /** Where a script moves focus after a successful submission, so screen readers announce the panel. */
  headingRef?: Ref<HTMLHeadingElement>;
  /** What the page adds after the confirmation: the time picker (issue 34). */
  children?: ReactNode;
}) {
  const headingId = `${formId}-thanks-title`;
  const contact = CONTACT[audience];
  return (
    <section
      id={`${formId}-thanks`}
      aria-labelledby={headingId}
      className="@container mb-6 rounded-xl border border-green-200 bg-green-50 p-4 sm:p-6"
    >
      <div className="flex gap-3 @md:gap-4">
        <span
          aria-hidden="true"
          className="flex size-8 shrink-0 items-center justify-center rounded-full bg-success text-white @md:size-10"
        >
          <svg
            aria-hidden="true"
            focusable="false"
            viewBox="0 0 24 24"
            className="size-4 @md:size-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="3"
          >
            <path d="M5 12.5l4.5 4.5L19 7.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </span>
        <div className="min-w-0">
          {/* Focused by script only (never in the tab order), so it needs no focus ring. */}
          <h3
            id={headingId}
            ref={headingRef}
            tabIndex={-1}
            className="text-lg font-semibold text-ink outline-none @md:text-xl"
          >
            {THANK_YOU_HEADING}
          </h3>
          {/* Keeps the form's result id and role: the spec's words, where they have always been read. */}
          <div id={`${formId}-result`} role="status" className="mt-1 leading-7 text-success">
            {confirmation.title ? <p className="font-semibold">{confirmation.title}</p> : null}
            <p>{confirmation.text}</p>
          </div>
        </div>
      </div>

      {children}

      <div className="mt-6 grid gap-6 border-t border-green-200 pt-6 @xl:grid-cols-5">
        <div className="@xl:col-span-3">
          <h4 className="text-sm font-semibold tracking-wider text-ink uppercase">What happens next</h4>
          <ol className="mt-3 space-y-3">
            {NEXT_STEPS[audience].map((step, index) => (
              <li key={step} className="flex gap-3 leading-6 text-ink">
                <span
                  aria-hidden="true"
                  className="flex size-6 shrink-0 items-center justify-center rounded-full bg-brand text-xs font-bold text-white"
                >
                  {index + 1}
                </span>
                <span>{step}</span>
              </li>
            ))}
          </ol>
        </div>
        <dl className="grid content-start gap-4 @xl:col-span-2">
          <div>
            <dt className="text-sm font-semibold tracking-wider text-ink uppercase">
              When to expect a reply
            </dt>
            <dd className="mt-1 leading-6 text-ink">Within {site.replyWithin}.</dd>
          </div>
          <div>
            <dt className="text-sm font-semibold tracking-wider text-ink uppercase">
              {contact.name ? `Reach ${contact.name}` : "Reach our team"}
            </dt>
            <dd className="mt-1 leading-6 text-ink">
              <a
                className={link}
                href={`mailto:${contact.email}?subject=${encodeURIComponent(contact.subject)}`}
              >
                {contact.email}
              </a>
            </dd>
            <dd className="leading-6 text-ink">
              <a className={link} href={`tel:${contact.phone.e164}`}>
                {contact.phone.display}
              </a>
            </dd>
          </div>
        </dl>
      </div>
    </section>
  );
}
