import type { ReactNode } from "react";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import type { LeadOrigin } from "#app/lib/lead-origin.ts";
import { formatPolicyDate } from "#app/lib/site/privacy-changes.ts";
import type { Lead } from "../lead-repository.server.ts";
import { sourceText } from "./lead-format.ts";

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-t border-line py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="font-semibold">{label}</dt>
      <dd className="break-words sm:col-span-2">{children}</dd>
    </div>
  );
}

const none = <span className="text-ink-muted">—</span>;

const INVESTOR_LABELS = { angel: "Angel", vc: "VC", introducer: "Introducer", other: "Other" } as const;

/** Everything the person sent and the product recorded with it; email and phone are links. */
export function LeadDetailsCard({
  lead,
}: {
  lead: Lead & { created: string; updated: string; origin: LeadOrigin };
}) {
  const investorTypes = (Object.keys(INVESTOR_LABELS) as (keyof typeof INVESTOR_LABELS)[])
    .filter((key) => lead.investorType[key])
    .map((key) => INVESTOR_LABELS[key]);
  return (
    <SectionCard id="details-heading" title="Details">
      <dl className="mt-4">
        <Detail label="Full name">{lead.fullName}</Detail>
        <Detail label="Company">{lead.company}</Detail>
        <Detail label="Email">
          <a className="text-brand underline underline-offset-2" href={`mailto:${lead.email}`}>
            {lead.email}
          </a>
        </Detail>
        <Detail label="Phone">
          <a
            className="text-brand underline underline-offset-2"
            href={`tel:${lead.phone.replace(/[^+\d]/g, "")}`}
          >
            {lead.phone}
          </a>
        </Detail>
        <Detail label="Message">
          {lead.message ? <span className="whitespace-pre-wrap">{lead.message}</span> : none}
        </Detail>
        {lead.requestType === "investor" ? (
          <>
            <Detail label="Investor type">
              {investorTypes.length > 0 ? investorTypes.join(", ") : none}
            </Detail>
            <Detail label="Other details">
              {lead.otherDetails ? <span className="whitespace-pre-wrap">{lead.otherDetails}</span> : none}
            </Detail>
          </>
        ) : null}
        <Detail label="Source">{sourceText(lead.source, lead.sourcePage, lead.origin)}</Detail>
        <Detail label="Spam">
          {lead.spamLevel === "held" ? "Held as spam" : lead.spamLevel === "review" ? "To review" : "No"}
          {lead.spamReasons.length > 0 ? (
            <span className="mt-1 block text-sm text-ink-muted">
              Score {lead.spamScore}: {lead.spamReasons.join("; ")}
            </span>
          ) : null}
        </Detail>
        <Detail label="Created">{lead.created}</Detail>
        <Detail label="Updated">{lead.updated}</Detail>
      </dl>
      {/* The legal record (what the person was shown when they sent it): kept, but out of the way
          of the work until someone asks. A native disclosure, so it opens without JavaScript. */}
      <details className="group mt-2 border-t border-line pt-3">
        <summary className="flex cursor-pointer list-none items-center gap-2 font-semibold text-brand [&::-webkit-details-marker]:hidden">
          <span aria-hidden="true" className="inline-block transition-transform group-open:rotate-90">
            ›
          </span>
          Record
          <span className="text-sm font-normal text-ink-muted">privacy notice and policy shown</span>
        </summary>
        <dl className="mt-2">
          <Detail label="Privacy notice version">{lead.privacyNoticeVersion}</Detail>
          <Detail label="Policy last changed">
            <time dateTime={lead.policyVersion}>{formatPolicyDate(lead.policyVersion)}</time>
            <span className="mt-1 block text-sm text-ink-muted">
              The privacy policy in force when the lead was sent: its latest change then (“Changes”)
            </span>
          </Detail>
        </dl>
      </details>
    </SectionCard>
  );
}
