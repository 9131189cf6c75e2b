import { Link } from "react-router";
import { PageHero } from "#app/components/site/page-hero.tsx";
import { Section } from "#app/components/site/section.tsx";
import { buttonVariants } from "#app/components/ui/button.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { CONFIDENTIALITY_NOTICE, RISK_WARNING } from "#app/features/investor-deck/deck-content.ts";
import { site } from "#app/lib/site/site.ts";
import type { Route } from "./+types/investor-deck";

export const meta: Route.MetaFunction = () =>
  getMeta({
    title: "Investor Presentation",
    path: "/investor-deck",
    description: `Open the ${site.productName} investor presentation: the contract management problem in construction, our product, market, business model, team and what the investment is for.`,
  });

const DECK_URL = "/investor-deck-pdf";

const deckContents = [
  "The problem: what poor post-signature contract management costs, and why construction feels it most",
  `The product: how ${site.productName} consolidates, explains and tracks contracts`,
  "The market: main contractors, subcontractors and developers, starting in the UK",
  "Business model and route to market",
  "The team and our plan for the next stage",
  "The ask: what the investment is for; amount and terms are discussed directly with investors",
] as const;

export default function InvestorDeck() {
  return (
    <>
      <PageHero
        title="Investor Presentation"
        breadcrumb={[
          { label: "Home", to: "/" },
          { label: "Invest", to: "/invest" },
          { label: "Investor Presentation" },
        ]}
        intro={`Our investor presentation sets out the opportunity behind ${site.productName}, AI-powered contract management for the construction industry, and what we are raising investment to do.`}
      >
        <div className="mt-10 flex flex-wrap items-center gap-4">
          {/* SPEC section 2: a new tab, or this one when the browser blocks it (new-tab-link.enhance.ts). */}
          <a
            href={DECK_URL}
            target="_blank"
            rel="noopener"
            data-new-tab=""
            className={buttonVariants({ variant: "accent", size: "lg" })}
          >
            Open Investor Presentation
          </a>
          <Link to="/" className={buttonVariants({ variant: "inverse", size: "lg" })}>
            Return to Homepage
          </Link>
        </div>
        <p className="mt-4 text-sm text-slate-200">The presentation opens as a PDF in a new tab.</p>
      </PageHero>

      <Section
        id="deck-contents"
        title="What the presentation covers"
        intro="A concise overview for prospective investors, to be read alongside a conversation with our team."
      >
        <ol className="grid gap-4 md:grid-cols-2">
          {deckContents.map((item, index) => (
            <li key={item} className="flex gap-4 rounded-xl border border-line bg-white p-6 shadow-sm">
              <span
                aria-hidden="true"
                className="flex size-9 shrink-0 items-center justify-center rounded-full bg-brand font-bold text-white"
              >
                {index + 1}
              </span>
              <span className="leading-7">{item}</span>
            </li>
          ))}
        </ol>
        <p className="mt-10 max-w-3xl leading-7 text-ink-muted">
          Questions about the presentation or the raise? Contact {site.investorContact.name},{" "}
          {site.investorContact.role}, at{" "}
          <a
            className="font-semibold text-brand underline underline-offset-2"
            href={`mailto:${site.investorContact.email}`}
          >
            {site.investorContact.email}
          </a>{" "}
          or read more on our{" "}
          <Link to="/invest" className="font-semibold text-brand underline underline-offset-2">
            investment opportunity
          </Link>{" "}
          page.
        </p>
      </Section>

      {/* SPEC section 2's confidentiality footer, in the same words as every page of the PDF. */}
      <aside aria-label="Confidentiality notice" className="border-t border-line bg-surface-muted">
        <p className="mx-auto max-w-7xl px-4 py-8 text-sm leading-6 text-ink-muted sm:px-6">
          {CONFIDENTIALITY_NOTICE} {RISK_WARNING}
        </p>
      </aside>
    </>
  );
}
