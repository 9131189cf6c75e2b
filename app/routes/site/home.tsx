import { Link } from "react-router";
import { AnchorLink } from "#app/components/site/anchor-link.tsx";
import { Section } from "#app/components/site/section.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { HeroProductVisual } from "#app/features/content/product-visuals/hero-visual.tsx";
import { usePostedLeadForm } from "#app/features/leads/lead-form-posted.ts";
import { handleLeadFormAction } from "#app/features/leads/lead-http.server.ts";
import { bookingOfferFor } from "#app/features/meetings/booking-offer.server.ts";
import BookingOffer from "#app/features/meetings/ui/booking-offer.tsx";
import { Island } from "#app/islands/island.tsx";
import { DemoFormWithBooking, ServerBookingOfferComponent } from "#app/islands/lead-forms-with-booking.tsx";
import type { DocumentHandle } from "#app/lib/page-scripts.ts";
import { site } from "#app/lib/site/site.ts";
import { stats } from "#app/lib/site/stats.ts";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = () =>
  getMeta({
    path: "/",
    description: `${site.productName} consolidates construction contracts and amendments into one current version, explains them in plain English, tracks every date and answers questions in conversation.`,
  });

const FORM_ID = "demo-request-form";

// Static HTML apart from the demo request form (ADR 013).
export const handle: DocumentHandle = { islands: ["demo-request-form"] };

// The demo request form without JavaScript (SPEC section 2: 'Get Started Today' holds the form).
// After a form sent without JavaScript: the times its thank-you panel offers (issue 34). The
// prerendered page has no token, so nothing is looked up at build time.
export async function loader({ request, context }: Route.LoaderArgs) {
  return { booking: await bookingOfferFor(request, context, "demo") };
}

export async function action({ request, context }: Route.ActionArgs) {
  return handleLeadFormAction(request, context, "demo", `/?submitted=demo#${FORM_ID}`);
}

const explore = [
  {
    to: "/problem",
    title: "The Problem",
    text: "Signed contracts disappear into inboxes and shared drives, and value leaks out with them.",
  },
  {
    to: "/solution",
    title: "Our Approach",
    text: "Six principles that make the current version of every agreement obvious to everyone who needs it.",
  },
  {
    to: "/features",
    title: "Features",
    text: "AI consolidation, plain-language summaries, date tracking, conversational search and more.",
  },
] as const;

const highlights = [
  {
    title: "One current version",
    text: "Every variation, side letter and amendment merged into the contract as it stands today.",
  },
  {
    title: "Plain business language",
    text: "Clauses on payment, retention, liquidated damages and notices explained in words a site manager uses.",
  },
  {
    title: "Dates that never slip",
    text: "Notice periods, defects liability ends and renewal windows found, tracked and sent as reminders.",
  },
  {
    title: "Ask, don't search",
    text: "“What is our cap on liability with Hartwell Civils?” answered in seconds, with the clause cited.",
  },
] as const;

export default function Home({ loaderData }: Route.ComponentProps) {
  const posted = usePostedLeadForm("demo");
  return (
    <>
      <section className="relative overflow-hidden bg-brand text-white">
        {/* Top-aligned, not centred: centring the copy against the taller picture would move it when a
            browser paints the page before the picture's markup has all arrived. */}
        <div className="mx-auto grid max-w-7xl items-start gap-12 px-4 py-16 sm:px-6 md:py-20 lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)] lg:gap-10">
          <div className="lg:pt-14">
            <p className="text-sm font-semibold tracking-wider text-accent uppercase">
              AI-powered contract management for construction
            </p>
            <h1 className="mt-4 text-4xl font-bold tracking-tight text-balance sm:text-5xl xl:text-6xl">
              Turning Contracts Into Strategic Assets
            </h1>
            <p className="mt-6 max-w-2xl text-lg leading-8 text-slate-100">
              {site.productName} reads every contract and amendment you have signed, consolidates them into
              one current version and tells your team, in plain language, what they have agreed to and what is
              due next.
            </p>
            <div className="mt-10 flex flex-wrap gap-4">
              <Button asChild variant="accent" size="lg">
                <Link to="/demo">Request a Demo</Link>
              </Button>
              <AnchorLink id="problem" className={buttonVariants({ variant: "inverse", size: "lg" })}>
                Learn More
              </AnchorLink>
            </div>
          </div>
          <HeroProductVisual />
        </div>
      </section>

      <Section
        id="problem"
        title="Contracts are signed, then forgotten"
        intro="Once the ink is dry, the agreements that define your margin are scattered across email threads, shared drives and filing cabinets. The numbers are stark."
      >
        <dl className="grid gap-6 md:grid-cols-3">
          {stats.map((stat) => (
            <div key={stat.value} className="rounded-xl border border-line bg-white p-8 shadow-sm">
              <dt className="text-base leading-7 text-ink-muted">{stat.label}</dt>
              <dd className="order-first text-5xl font-bold tracking-tight text-brand">{stat.value}</dd>
              <dd className="mt-3 text-sm text-ink-muted">{stat.source}</dd>
            </div>
          ))}
        </dl>
      </Section>

      <Section
        id="solution"
        muted
        title="From filing cabinet to strategic asset"
        intro={`${site.productName} picks up where signature ends: the post-signature life of a contract, where claims are won or lost and margin is kept or given away.`}
      >
        <ul className="grid gap-6 md:grid-cols-3">
          {explore.map((card) => (
            <li key={card.to}>
              <Link
                to={card.to}
                className="group block h-full rounded-xl border border-line bg-white p-8 shadow-sm transition-shadow hover:shadow-md"
              >
                <h3 className="text-xl font-semibold text-brand">{card.title}</h3>
                <p className="mt-3 leading-7 text-ink-muted">{card.text}</p>
                <span className="mt-6 inline-block font-semibold text-brand group-hover:underline">
                  Read more<span className="sr-only"> about {card.title}</span> →
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </Section>

      <Section
        id="features"
        title="Built for the way construction runs"
        intro="Main contractors, specialist subcontractors and developers juggle JCT and NEC forms, bespoke amendments and hundreds of supply chain agreements. We built for that reality."
      >
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {highlights.map((item) => (
            <li key={item.title} className="rounded-xl bg-brand-soft p-6">
              <h3 className="font-semibold text-brand">{item.title}</h3>
              <p className="mt-2 text-sm leading-6 text-ink">{item.text}</p>
            </li>
          ))}
        </ul>
        <div className="mt-12 flex flex-col items-start gap-6 rounded-2xl bg-brand-strong p-8 text-white md:flex-row md:items-center md:justify-between md:p-10">
          <div>
            <p className="text-2xl font-bold">See your own contracts consolidated</p>
            <p className="mt-2 text-slate-200">
              A 30-minute walkthrough with a sample of your agreements. No preparation needed.
            </p>
          </div>
          <Button asChild variant="accent" size="lg">
            <Link to="/demo">Book your demo</Link>
          </Button>
        </div>
      </Section>

      <Section
        id="demo"
        muted
        title="Get Started Today"
        intro="Tell us a little about your business and the contracts you manage. A member of our team will contact you within one working day to arrange a demonstration."
      >
        <div className="max-w-4xl rounded-xl border border-line bg-white p-6 shadow-sm sm:p-8">
          <ServerBookingOfferComponent value={BookingOffer}>
            <Island
              name="demo-request-form"
              component={DemoFormWithBooking}
              props={{
                variant: "home",
                id: FORM_ID,
                action: "/?index",
                posted,
                booking: loaderData?.booking,
              }}
            />
          </ServerBookingOfferComponent>
        </div>
      </Section>
    </>
  );
}
