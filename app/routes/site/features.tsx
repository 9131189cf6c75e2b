import type { ReactNode } from "react";
import { Link } from "react-router";
import { PageHero } from "#app/components/site/page-hero.tsx";
import { RelatedPages } from "#app/components/site/related-pages.tsx";
import { Section } from "#app/components/site/section.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { ConsolidatedContractVisual } from "#app/features/content/product-visuals/consolidated-contract.tsx";
import { ConversationalAnswerVisual } from "#app/features/content/product-visuals/conversational-answer.tsx";
import { DeadlineCalendarVisual } from "#app/features/content/product-visuals/deadline-calendar.tsx";
import { InsightsDashboardVisual } from "#app/features/content/product-visuals/insights-dashboard.tsx";
import { PlainLanguageVisual } from "#app/features/content/product-visuals/plain-language.tsx";
import { Icon } from "#app/features/content/product-visuals/product-frame.tsx";
import { RoleAccessVisual } from "#app/features/content/product-visuals/role-access.tsx";
import { cn } from "#app/lib/cn.ts";
import { site } from "#app/lib/site/site.ts";
import type { Route } from "./+types/features";

export const meta: Route.MetaFunction = () =>
  getMeta({
    title: "Features",
    path: "/features",
    description: `What ${site.productName} does: AI contract consolidation, plain language translation, automated date tracking, conversational search, role-based access and an insights dashboard.`,
  });

const features: {
  id: string;
  title: string;
  Visual: (props: { className?: string }) => ReactNode;
  text: string;
  points: readonly string[];
}[] = [
  {
    id: "consolidation",
    title: "AI Contract Consolidation",
    Visual: ConsolidatedContractVisual,
    text: "Upload the original agreement with its schedule of amendments, side letters and variations. The AI links each change to the clause it affects and produces one current version of the contract, with every change traced to its source document.",
    points: ["Works with scanned and digital PDFs", "Change history kept for every clause"],
  },
  {
    id: "plain-language",
    title: "Plain Language Translation",
    Visual: PlainLanguageVisual,
    text: "Each key clause is summarised in plain business language: who must do what, by when, and the consequence of not doing it. Summaries sit beside the original wording so nothing is lost in translation.",
    points: ["Payment, retention and liquidated damages explained", "Original clause shown alongside"],
  },
  {
    id: "date-tracking",
    title: "Automated Date Tracking",
    Visual: DeadlineCalendarVisual,
    text: "Dates and periods are extracted from the contract as it stands: notice and time-bar periods, payment application and pay-less notice deadlines, retention release, defects periods, insurance renewals and expiry. Reminders go to the people responsible.",
    points: ["Email reminders ahead of each deadline", "Calendar view across all contracts"],
  },
  {
    id: "conversational-search",
    title: "Conversational Search",
    Visual: ConversationalAnswerVisual,
    text: "Ask questions the way you would ask a colleague: “What is the cap on liquidated damages on the Riverside subcontract?” or “Which contracts need a notice within seven days of an instruction?” Answers cite the clause they rely on.",
    points: ["Answers across one contract or the whole portfolio", "Every answer linked to its source"],
  },
  {
    id: "role-based-access",
    title: "Role-Based Access",
    Visual: RoleAccessVisual,
    text: "Decide who sees what. Site teams see the obligations for their project, buyers see their supply chain agreements and directors see the portfolio, while commercially sensitive terms stay with the people who need them.",
    points: ["Permissions by role and by project", "Sensitive terms limited to named people"],
  },
  {
    id: "insights-dashboard",
    title: "Insights Dashboard",
    Visual: InsightsDashboardVisual,
    text: "A portfolio view of your contractual position: deadlines falling due, retention outstanding, uncapped liabilities and onerous amendments, so risk and value are visible before they become a problem.",
    points: ["Upcoming obligations at a glance", "Risk flags across all contracts"],
  },
];

const results = [
  {
    measure: "Minutes, not hours",
    title: "To find what a contract says",
    text: "Questions that used to mean digging through folders and re-reading clauses are answered in a minute or two, with the clause cited.",
  },
  {
    measure: "No missed notices",
    title: "On the deadlines you track",
    text: "Notice periods, pay-less notices and time bars are on a shared calendar with reminders, instead of in someone’s head.",
  },
  {
    measure: "One current version",
    title: "Of every live contract",
    text: "Amendments and variations consolidated, so your team stops working from an out-of-date copy of the agreement.",
  },
  {
    measure: "Fewer routine queries",
    title: "Reaching the commercial team",
    text: "Project staff answer everyday contract questions themselves, leaving commercial and legal time for the issues that need it.",
  },
] as const;

export default function Features() {
  return (
    <>
      <PageHero
        tone="light"
        title="Features"
        breadcrumb={[{ label: "Home", to: "/" }, { label: "Features" }]}
        eyebrow="What the platform does"
        intro={`${site.productName} turns signed contracts and their amendments into one current, plain-language record that your whole business can search, act on and report from.`}
      >
        <nav aria-label="Features on this page" className="mt-10">
          <ul className="flex flex-wrap gap-2">
            {features.map((feature, index) => (
              <li key={feature.id}>
                <a
                  href={`#${feature.id}`}
                  className="flex h-10 items-center gap-2 rounded-full border border-line bg-white px-4 text-sm font-semibold text-brand shadow-xs hover:border-brand"
                >
                  <span aria-hidden="true" className="font-mono text-xs text-ink-muted">
                    {String(index + 1).padStart(2, "0")}
                  </span>
                  {feature.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </PageHero>

      <Section
        id="feature-list"
        title="Six capabilities, one record"
        intro="Each feature works on the consolidated version of the contract, so everything you see reflects the agreement as it stands today."
      >
        <ol className="space-y-20 md:space-y-28">
          {features.map((feature, index) => (
            <li
              key={feature.id}
              id={feature.id}
              className={cn(
                "grid items-start gap-8 lg:gap-14",
                // The visual takes the wider column on whichever side it sits.
                index % 2 === 0
                  ? "lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]"
                  : "lg:grid-cols-[minmax(0,7fr)_minmax(0,5fr)]",
              )}
            >
              {/* Held in view beside its screen, and top-aligned rather than centred so that nothing moves
                  while the screen's markup arrives. */}
              <div className={cn("lg:sticky lg:top-28 lg:pt-6", index % 2 === 1 && "lg:order-last")}>
                <p aria-hidden="true" className="font-mono text-sm font-semibold text-accent-ink">
                  {String(index + 1).padStart(2, "0")} / {String(features.length).padStart(2, "0")}
                </p>
                <h3 className="mt-2 text-2xl font-bold tracking-tight text-brand md:text-3xl">
                  {feature.title}
                </h3>
                <p className="mt-4 text-lg leading-8 text-ink-muted">{feature.text}</p>
                <ul className="mt-6 space-y-3 text-ink">
                  {feature.points.map((point) => (
                    <li key={point} className="flex gap-3">
                      <span
                        aria-hidden="true"
                        className="mt-0.5 grid size-5 shrink-0 place-items-center rounded-full bg-brand-soft text-brand"
                      >
                        <Icon name="check" className="size-3" />
                      </span>
                      {point}
                    </li>
                  ))}
                </ul>
              </div>
              <feature.Visual />
            </li>
          ))}
        </ol>
      </Section>

      <Section
        id="expected-results"
        muted
        title="Expected results"
        intro="What we expect teams to see once their live contracts are in the platform. We agree the measures with you at the start, so you can judge the results for yourself."
      >
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {results.map((result) => (
            <li key={result.measure} className="rounded-xl bg-white p-6 shadow-sm">
              <h3 className="text-2xl font-bold tracking-tight text-brand">{result.measure}</h3>
              <p className="mt-1 font-semibold text-ink">{result.title}</p>
              <p className="mt-3 leading-7 text-ink-muted">{result.text}</p>
            </li>
          ))}
        </ul>

        <div className="mt-12 flex flex-col items-start gap-6 rounded-2xl bg-brand-strong p-8 text-white md:flex-row md:items-center md:justify-between md:p-10">
          <div>
            <p className="text-2xl font-bold">See the features on your own contracts</p>
            <p className="mt-2 text-slate-200">
              Bring a sample agreement and its amendments to a 30-minute demonstration.
            </p>
          </div>
          <Button asChild variant="accent" size="lg">
            <Link to="/demo">Request a Demo</Link>
          </Button>
        </div>
      </Section>

      <RelatedPages />
    </>
  );
}
