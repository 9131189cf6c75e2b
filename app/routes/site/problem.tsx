import { Link } from "react-router";
import { NumberedCard } from "#app/components/site/numbered-card.tsx";
import { PageHero } from "#app/components/site/page-hero.tsx";
import { RelatedPages } from "#app/components/site/related-pages.tsx";
import { Section } from "#app/components/site/section.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { site } from "#app/lib/site/site.ts";
import { stats, valueLeakage } from "#app/lib/site/stats.ts";
import type { Route } from "./+types/problem";

export const meta: Route.MetaFunction = () =>
  getMeta({
    title: "The Contract Management Problem",
    path: "/problem",
    description:
      "Why construction contracts stop protecting margin once they are signed: siloed documents, fragmented data, legal complexity and limited access, and what that costs the business.",
  });

const problemPoints = [
  {
    title: "Siloed Post-Signature",
    text: "Contract management tends to stop at signature. The estimating and legal effort goes into agreeing the deal; once it is signed, the contract is filed and the project team works from memory, the tender documents or the last email. The obligations that decide whether a variation is paid or a claim succeeds sit with whoever happened to read the contract first.",
  },
  {
    title: "Fragmented Data",
    text: "A single subcontract can be spread across the JCT or NEC form, a schedule of amendments, side letters, instructions, variations and years of correspondence. Each lives in a different inbox, shared drive or filing cabinet, so nobody can say with confidence what the agreement says today.",
  },
  {
    title: "Legal Complexity",
    text: "Bespoke amendments, cross-referenced clauses and dense drafting make it hard for a site manager or quantity surveyor to know what they have agreed. Questions about retention, liquidated damages or notice periods go to a stretched commercial team or external solicitors, or they go unanswered.",
  },
  {
    title: "Limited Access",
    text: "The people who act on a contract every day, on site, in the buying team or in accounts, are rarely the people who can open it. Access depends on knowing which folder to ask for, so decisions are made without the terms that govern them.",
  },
] as const;

const businessImpact = [
  {
    title: "Value Leakage",
    text: `Missed entitlements, unrecovered variations and payment terms nobody enforces mean that ${valueLeakage.value} ${valueLeakage.label}.`,
  },
  {
    title: "Compliance Risk",
    text: "Missed notice periods and time bars, lapsed insurances and forgotten warranty or bond obligations expose the business to claims, disputes and lost rights that cannot be recovered later.",
  },
  {
    title: "Operational Inefficiency",
    text: "Commercial and project teams spend hours searching for the right version of a document and re-reading clauses to answer routine questions, time that should go into running the job.",
  },
  {
    title: "Revenue Loss",
    text: "Payment applications submitted late or against the wrong terms, retention left unreleased after practical completion and price adjustments never claimed reduce the cash the business actually receives.",
  },
] as const;

export default function Problem() {
  return (
    <>
      <PageHero
        title="The Contract Management Problem"
        breadcrumb={[{ label: "Home", to: "/" }, { label: "The Problem" }]}
        eyebrow="Why contracts stop working after signature"
        intro="Construction businesses put enormous care into negotiating contracts, then lose sight of them the moment work starts. The result is margin given away, rights lost by default and teams working without the terms that govern their work."
      />

      <Section
        id="problem-points"
        title="Where contract management breaks down"
        intro="Four problems come up again and again when we talk to main contractors, subcontractors and developers."
      >
        <ul className="grid gap-6 md:grid-cols-2">
          {problemPoints.map((point, index) => (
            <NumberedCard key={point.title} index={index} title={point.title}>
              {point.text}
            </NumberedCard>
          ))}
        </ul>
      </Section>

      <Section
        id="business-impact"
        muted
        title="Business Impact"
        intro="These are not administrative inconveniences. They show up in the accounts."
      >
        <div className="grid gap-10 lg:grid-cols-3">
          <ul className="grid gap-6 sm:grid-cols-2 lg:col-span-2">
            {businessImpact.map((impact) => (
              <li key={impact.title} className="rounded-xl border border-line bg-white p-6 shadow-sm">
                <h3 className="text-lg font-semibold text-brand">{impact.title}</h3>
                <p className="mt-2 leading-7 text-ink-muted">{impact.text}</p>
              </li>
            ))}
          </ul>
          <dl className="grid content-start gap-4">
            {stats.map((stat) => (
              <div key={stat.value} className="flex flex-col rounded-xl bg-brand p-6 text-white">
                <dt className="leading-6 text-slate-100">{stat.label}</dt>
                <dd className="order-first text-4xl font-bold tracking-tight">{stat.value}</dd>
                <dd className="mt-2 text-sm text-slate-200">{stat.source}</dd>
              </div>
            ))}
          </dl>
        </div>
      </Section>

      <Section id="industry-view" title="What we hear from the industry">
        <figure className="max-w-4xl border-l-4 border-accent pl-6 md:pl-8">
          <blockquote className="text-xl leading-9 text-ink md:text-2xl md:leading-10">
            <p>
              “We won the work on a tight margin, then gave half of it away because nobody on site knew the
              notice period for a compensation event. The contract protected us. We just couldn’t find the
              clause in time.”
            </p>
          </blockquote>
          <figcaption className="mt-6 font-semibold text-ink-muted">
            Commercial Director, UK main contractor
          </figcaption>
        </figure>
        <div className="mt-12 flex flex-wrap items-center gap-4">
          <Button asChild size="lg">
            <Link to="/solution">See our approach</Link>
          </Button>
          <Button asChild variant="outline" size="lg">
            <Link to="/demo">Request a Demo</Link>
          </Button>
        </div>
        <p className="mt-6 max-w-3xl leading-7 text-ink-muted">
          {site.productName} is built to close these gaps: one current version of every contract, explained in
          plain language and available to everyone who needs it.
        </p>
      </Section>

      <RelatedPages />
    </>
  );
}
