import { Link } from "react-router";
import { NumberedCard } from "#app/components/site/numbered-card.tsx";
import { PageHero } from "#app/components/site/page-hero.tsx";
import { RelatedPages } from "#app/components/site/related-pages.tsx";
import { Section } from "#app/components/site/section.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { site } from "#app/features/content/site.ts";
import type { Route } from "./+types/solution";

export const meta: Route.MetaFunction = () =>
  getMeta({
    title: "Our Approach",
    path: "/solution",
    description: `The six principles behind ${site.productName}: centralisation, consolidation, clarity, accessibility, automation and analytics for construction contracts after signature.`,
  });

const principles = [
  {
    title: "Centralisation",
    text: "Every signed contract, subcontract, appointment and framework agreement lives in one secure repository, not in personal inboxes and project folders that disappear when the job closes.",
  },
  {
    title: "Consolidation",
    text: "Amendments, side letters, variations and instructions are merged into the original agreement, so you read one current version of the contract as it stands today, with each change traced to its source document.",
  },
  {
    title: "Clarity",
    text: "Dense clauses are translated into plain business language: what you must do, by when and what happens if you do not. The original wording is always one click away.",
  },
  {
    title: "Accessibility",
    text: "Site managers, quantity surveyors, buyers and directors each see the contracts and terms relevant to their role, on the device they have to hand, without waiting for the commercial team.",
  },
  {
    title: "Automation",
    text: "Key dates are extracted as soon as a document is uploaded: notice periods, payment and pay-less notice deadlines, retention release, defects periods, insurance renewals and expiry. Reminders go to the right people in good time.",
  },
  {
    title: "Analytics",
    text: "Looking across the whole portfolio shows where risk and value sit: uncapped liabilities, onerous amendments, retention outstanding and obligations falling due in the weeks ahead.",
  },
] as const;

const steps = [
  {
    title: "Upload what you have",
    text: "Drop in signed contracts and amendments as PDFs or scans, in whatever state your folders are in. No re-keying and no template to fill in.",
  },
  {
    title: "We consolidate and explain",
    text: `${site.productName} links each amendment to the agreement it changes, produces the current version and writes a plain-language summary of the terms that matter.`,
  },
  {
    title: "Your team checks the output",
    text: "Every summary and extracted date cites the clause it came from, so your commercial team can verify it quickly before it is shared.",
  },
  {
    title: "Everyone works from the same record",
    text: "Project teams search, ask questions and receive reminders from one source of truth, and directors see the portfolio on a single dashboard.",
  },
] as const;

export default function Solution() {
  return (
    <>
      <PageHero
        title="Our Approach"
        breadcrumb={[{ label: "Home", to: "/" }, { label: "Our Approach" }]}
        eyebrow="Post-signature contract management"
        intro={`${site.productName} starts where most contract tools stop: after signature, when the agreement has to be run on site. Six principles shape everything we build.`}
      />

      <Section
        id="principles"
        title="Six principles"
        intro="Together they turn a pile of documents into one current, readable record that the whole business can act on."
      >
        <ol className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {principles.map((principle, index) => (
            <NumberedCard key={principle.title} index={index} title={principle.title}>
              {principle.text}
            </NumberedCard>
          ))}
        </ol>
      </Section>

      <Section
        id="how-it-works"
        muted
        title="How it fits your workflow"
        intro="No change to how you negotiate or sign. We work with the documents you already hold."
      >
        <ol className="grid gap-6 md:grid-cols-2 lg:grid-cols-4">
          {steps.map((step, index) => (
            <li key={step.title} className="rounded-xl bg-white p-6 shadow-sm">
              <p
                className="flex size-10 items-center justify-center rounded-full bg-brand font-bold text-white"
                aria-hidden="true"
              >
                {index + 1}
              </p>
              <h3 className="mt-4 text-lg font-semibold text-brand">{step.title}</h3>
              <p className="mt-2 leading-7 text-ink-muted">{step.text}</p>
            </li>
          ))}
        </ol>
        <p className="mt-10 max-w-3xl leading-7 text-ink-muted">
          The AI does the reading; your people keep the judgement. {site.productName} supports the commercial
          team rather than replacing legal advice, and it is designed around the standard forms you use,
          including the JCT and NEC families and their bespoke amendments.
        </p>
        <div className="mt-8 flex flex-wrap gap-4">
          <Button asChild size="lg">
            <Link to="/features">Explore the features</Link>
          </Button>
          <Button asChild variant="outline" size="lg">
            <Link to="/demo">Request a Demo</Link>
          </Button>
        </div>
      </Section>

      <RelatedPages />
    </>
  );
}
