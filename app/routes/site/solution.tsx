import { Link } from "react-router";
import { PageHero } from "#app/components/site/page-hero.tsx";
import { RelatedPages } from "#app/components/site/related-pages.tsx";
import { Section } from "#app/components/site/section.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { DeadlineCalendarVisual } from "#app/features/content/product-visuals/deadline-calendar.tsx";
import { DocumentIntakeVisual } from "#app/features/content/product-visuals/document-intake.tsx";
import { InsightsDashboardVisual } from "#app/features/content/product-visuals/insights-dashboard.tsx";
import { PlainLanguageVisual } from "#app/features/content/product-visuals/plain-language.tsx";
import { RecordDiagram } from "#app/features/content/product-visuals/record-diagram.tsx";
import { site } from "#app/lib/site/site.ts";
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

// Each step shows the screen where it happens.
const steps = [
  {
    title: "Upload what you have",
    Visual: DocumentIntakeVisual,
    text: "Drop in signed contracts and amendments as PDFs or scans, in whatever state your folders are in. No re-keying and no template to fill in.",
  },
  {
    title: "We consolidate and explain",
    Visual: PlainLanguageVisual,
    text: `${site.productName} links each amendment to the agreement it changes, produces the current version and writes a plain-language summary of the terms that matter.`,
  },
  {
    title: "Your team checks the output",
    Visual: DeadlineCalendarVisual,
    text: "Every summary and extracted date cites the clause it came from, so your commercial team can verify it quickly before it is shared.",
  },
  {
    title: "Everyone works from the same record",
    Visual: InsightsDashboardVisual,
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
        aside={<RecordDiagram />}
      />

      <Section
        id="principles"
        title="Six principles"
        intro="Together they turn a pile of documents into one current, readable record that the whole business can act on."
      >
        <ol className="grid gap-x-10 gap-y-12 md:grid-cols-2 lg:grid-cols-3">
          {principles.map((principle, index) => (
            <li key={principle.title} className="border-t-2 border-brand pt-5">
              <p aria-hidden="true" className="font-mono text-sm font-semibold text-accent-ink">
                {String(index + 1).padStart(2, "0")}
              </p>
              <h3 className="mt-1 text-xl font-bold text-brand">{principle.title}</h3>
              <p className="mt-3 leading-7 text-ink-muted">{principle.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section
        id="how-it-works"
        muted
        title="How it fits your workflow"
        intro="No change to how you negotiate or sign. We work with the documents you already hold."
      >
        {/* On wide screens the step numbers ride down one line (the list's ::before), each step's text
            held in view (sticky) beside its screen. */}
        <ol className="relative space-y-16 md:space-y-20 lg:before:absolute lg:before:top-2 lg:before:bottom-2 lg:before:left-[21px] lg:before:w-0.5 lg:before:bg-slate-300">
          {steps.map((step, index) => (
            <li
              key={step.title}
              className="relative grid gap-8 lg:grid-cols-[minmax(0,4fr)_minmax(0,7fr)] lg:items-start lg:gap-14"
            >
              <div className="relative pl-16 lg:sticky lg:top-28">
                <span
                  aria-hidden="true"
                  className="absolute top-0 left-0 grid size-11 place-items-center rounded-full bg-brand text-lg font-bold text-white ring-8 ring-surface-muted"
                >
                  {index + 1}
                </span>
                <p className="text-sm font-semibold tracking-wider text-accent-ink uppercase">
                  Step {index + 1} of {steps.length}
                </p>
                <h3 className="mt-1 text-2xl font-bold tracking-tight text-brand">{step.title}</h3>
                <p className="mt-3 text-lg leading-8 text-ink-muted">{step.text}</p>
              </div>
              <step.Visual />
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
