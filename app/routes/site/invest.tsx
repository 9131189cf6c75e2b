import { Link } from "react-router";
import { PageHero } from "#app/components/site/page-hero.tsx";
import { Section } from "#app/components/site/section.tsx";
import { Button, buttonVariants } from "#app/components/ui/button.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { TERMS_DISCUSSED_DIRECTLY } from "#app/features/investor-deck/deck-content.ts";
import { usePostedLeadForm } from "#app/features/leads/lead-form-posted.ts";
import { handleLeadFormAction } from "#app/features/leads/lead-http.server.ts";
import { bookingOfferFor } from "#app/features/meetings/booking-offer.server.ts";
import BookingOffer from "#app/features/meetings/ui/booking-offer.tsx";
import { Island } from "#app/islands/island.tsx";
import {
  InvestorFormWithBooking,
  ServerBookingOfferComponent,
} from "#app/islands/lead-forms-with-booking.tsx";
import type { DocumentHandle } from "#app/lib/page-scripts.ts";
import { site } from "#app/lib/site/site.ts";
import { stats } from "#app/lib/site/stats.ts";
import type { Route } from "./+types/invest";

export const meta: Route.MetaFunction = () =>
  getMeta({
    title: "Investment Opportunity",
    path: "/invest",
    description: `${site.company.legalName} is raising early-stage investment to bring AI-powered post-signature contract management to the construction industry. Register your interest.`,
  });

const FORM_ID = "investor-interest-form";

// Static HTML apart from the investor interest form (ADR 013).
export const handle: DocumentHandle = { islands: ["investor-interest-form"] };

// The investor interest form without JavaScript: a failure re-renders this page with the messages.
// After a form sent without JavaScript: the times its thank-you panel offers (issue 34). The
// prerendered page has no token, so nothing is looked up at build time.
export async function loader({ request, context }: Route.LoaderArgs) {
  return { booking: await bookingOfferFor(request, context, "investor") };
}

export async function action({ request, context }: Route.ActionArgs) {
  return handleLeadFormAction(request, context, "investor", `/invest?submitted=investor#${FORM_ID}`);
}

const opportunity = [
  {
    title: "A large, under-served market",
    text: "Construction runs on contracts. Every project connects a client, a main contractor and a long chain of subcontractors and suppliers, each bound by standard forms such as JCT and NEC with bespoke amendments. Most of the sector still manages those agreements in shared drives and spreadsheets.",
  },
  {
    title: "A costly, well-documented problem",
    text: `Research puts the cost of poor contract management at ${stats[0].value} of annual revenue, and ${stats[1].value} of companies cannot locate at least 10% of their contracts. In a sector with thin margins, missed notices and unrecovered variations decide whether a project makes money.`,
  },
  {
    title: "A product built for the post-signature gap",
    text: `Most contract software focuses on drafting and signature. ${site.productName} focuses on what happens next: consolidating amendments into one current version, explaining terms in plain language, tracking dates and answering questions for the people running the job.`,
  },
] as const;

const useOfFunds = [
  {
    title: "Product and AI",
    text: "Extending consolidation and clause analysis across the JCT and NEC families and common bespoke amendments, with accuracy checked by construction commercial specialists.",
  },
  {
    title: "Security and compliance",
    text: "Independent security testing and the certifications construction clients expect from a supplier holding their contracts.",
  },
  {
    title: "Early customer programme",
    text: "Working closely with a small group of main contractors, subcontractors and developers to prove the product on live contracts.",
  },
  {
    title: "Go-to-market",
    text: "A focused sales and partnership effort in the UK construction market, including work with industry bodies and advisers.",
  },
] as const;

const contactLink = "font-semibold text-brand underline underline-offset-2";

export default function Invest({ loaderData }: Route.ComponentProps) {
  const posted = usePostedLeadForm("investor");
  const contact = site.investorContact;
  return (
    <>
      <PageHero
        title="Investment Opportunity"
        breadcrumb={[{ label: "Home", to: "/" }, { label: "Invest" }]}
        eyebrow={`Invest in ${site.productName}`}
        intro={`${site.company.legalName} is raising early-stage investment to make post-signature contract management simple for construction businesses. If you would like to learn more, we would be glad to hear from you.`}
      >
        <div className="mt-10 flex flex-wrap gap-4">
          <a href="#investor-form" className={buttonVariants({ variant: "accent", size: "lg" })}>
            Get in Touch
          </a>
          <Link to="/investor-deck" className={buttonVariants({ variant: "inverse", size: "lg" })}>
            View the investor presentation
          </Link>
        </div>
      </PageHero>

      <Section
        id="the-opportunity"
        title="The opportunity"
        intro="Contracts define the margin on every construction project, yet once signed they are among the least managed documents in the business."
      >
        <ul className="grid gap-6 md:grid-cols-3">
          {opportunity.map((item) => (
            <li key={item.title} className="rounded-xl border border-line bg-white p-8 shadow-sm">
              <h3 className="text-xl font-semibold text-brand">{item.title}</h3>
              <p className="mt-3 leading-7 text-ink-muted">{item.text}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section
        id="stage-and-funds"
        muted
        title="Where we are and what the funds are for"
        intro="We are an early-stage company and say so plainly. We are raising a pre-seed / seed round to take the platform from early product to proven use on live construction contracts."
      >
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {useOfFunds.map((item) => (
            <li key={item.title} className="rounded-xl bg-white p-6 shadow-sm">
              <h3 className="text-lg font-semibold text-brand">{item.title}</h3>
              <p className="mt-2 leading-7 text-ink-muted">{item.text}</p>
            </li>
          ))}
        </ul>
        <p className="mt-10 max-w-3xl leading-7 text-ink-muted">
          Our plans are set out in more detail in the{" "}
          <Link to="/investor-deck" className={contactLink}>
            investor presentation
          </Link>
          . {TERMS_DISCUSSED_DIRECTLY}
        </p>
      </Section>

      <Section
        id="investor-form"
        title="Investor Interest Form"
        intro="Whether you invest as an angel, through a venture fund or as an introducer, we would like to hear from you."
      >
        <div className="grid gap-8 lg:grid-cols-2">
          <div className="rounded-xl border border-line bg-white p-6 shadow-sm sm:p-8">
            <p className="mb-6 leading-7">
              Leave your details and {contact.name} will contact you shortly to arrange a conversation and
              share our materials.
            </p>
            <ServerBookingOfferComponent value={BookingOffer}>
              <Island
                name="investor-interest-form"
                component={InvestorFormWithBooking}
                props={{ id: FORM_ID, action: "/invest", posted, booking: loaderData?.booking }}
              />
            </ServerBookingOfferComponent>
          </div>

          <div className="flex flex-col gap-6">
            <div className="rounded-xl bg-brand-soft p-8">
              <h3 className="text-xl font-semibold text-brand">Investor contact</h3>
              <address className="mt-4 space-y-2 leading-7 not-italic">
                <p>
                  <span className="block text-lg font-semibold">{contact.name}</span>
                  <span className="block text-ink-muted">
                    {contact.role}, {site.company.legalName}
                  </span>
                </p>
                <p>
                  Phone:{" "}
                  <a className={contactLink} href={`tel:${contact.phone.e164}`}>
                    {contact.phone.display}
                  </a>
                </p>
                <p>
                  Email:{" "}
                  <a className={contactLink} href={`mailto:${contact.email}?subject=Investor%20interest`}>
                    {contact.email}
                  </a>
                </p>
              </address>
              <Button asChild className="mt-6">
                <a href={`mailto:${contact.email}?subject=Investor%20interest`}>Email {contact.name}</a>
              </Button>
            </div>

            <div role="note" className="rounded-xl border-2 border-accent bg-white p-6">
              <p className="font-semibold text-ink">Risk warning</p>
              <p className="mt-2 leading-7 text-ink">
                Investments of this nature carry risks to your capital. Please Invest Aware.
              </p>
              <p className="mt-3 text-sm leading-6 text-ink-muted">
                Investing in an early-stage company is illiquid and you could lose all the money you invest.
                Nothing on this page is an offer or invitation to buy shares; any investment is made only on
                the basis of formal documentation and is open only to investors who qualify to receive it.
              </p>
            </div>
          </div>
        </div>
      </Section>
    </>
  );
}
