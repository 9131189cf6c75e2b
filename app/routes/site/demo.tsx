import { Link } from "react-router";
import { PageHero } from "#app/components/site/page-hero.tsx";
import { Section } from "#app/components/site/section.tsx";
import { getMeta } from "#app/features/content/meta.ts";
import { usePostedLeadForm } from "#app/features/leads/lead-form-posted.ts";
import { handleLeadFormAction } from "#app/features/leads/lead-http.server.ts";
import { bookingOfferFor } from "#app/features/meetings/booking-offer.server.ts";
import BookingOffer from "#app/features/meetings/ui/booking-offer.tsx";
import { Island } from "#app/islands/island.tsx";
import { DemoFormWithBooking, ServerBookingOfferComponent } from "#app/islands/lead-forms-with-booking.tsx";
import type { DocumentHandle } from "#app/lib/page-scripts.ts";
import { site } from "#app/lib/site/site.ts";
import type { Route } from "./+types/demo";

export const meta: Route.MetaFunction = () =>
  getMeta({
    title: "Request a Demo",
    path: "/demo",
    description: `Book a 30-minute demonstration of ${site.productName} and see your own construction contracts consolidated, explained in plain language and their key dates tracked.`,
  });

const FORM_ID = "demo-form";

// Static HTML apart from the demo request form (ADR 013).
export const handle: DocumentHandle = { islands: ["demo-request-form"] };

// The demo request form without JavaScript: a failure re-renders this page with the messages.
// After a form sent without JavaScript: the times its thank-you panel offers (issue 34). The
// prerendered page has no token, so nothing is looked up at build time.
export async function loader({ request, context }: Route.LoaderArgs) {
  return { booking: await bookingOfferFor(request, context, "demo") };
}

export async function action({ request, context }: Route.ActionArgs) {
  return handleLeadFormAction(request, context, "demo", `/demo?submitted=demo#${FORM_ID}`);
}

const demoCovers = [
  "A sample contract and its amendments consolidated into one current version",
  "Plain-language summaries of payment, retention, liquidated damages and notice clauses",
  "Key dates and notice periods extracted and set up as reminders",
  "Conversational search: asking questions of a contract and seeing the clause cited",
  "Role-based access and the insights dashboard for your portfolio",
  "Time for your questions on set-up, security and pricing",
] as const;

const readMore = [
  {
    to: "/problem",
    title: "The Problem",
    text: "Why contracts stop protecting margin once they are signed.",
  },
  {
    to: "/solution",
    title: "Our Approach",
    text: "The six principles behind the platform.",
  },
  {
    to: "/features",
    title: "Features",
    text: "What each part of the platform does for your team.",
  },
] as const;

const contactLink = "font-semibold text-brand underline underline-offset-2";

export default function Demo({ loaderData }: Route.ComponentProps) {
  const { company } = site;
  const posted = usePostedLeadForm("demo");
  return (
    <>
      <PageHero
        title="Request a Demo"
        breadcrumb={[{ label: "Home", to: "/" }, { label: "Request a Demo" }]}
        intro={`See ${site.productName} working on contracts like yours. In 30 minutes we will show how a signed agreement and its amendments become one current, plain-language record your whole team can use.`}
      />

      <Section
        id="demo"
        title="Book your demonstration"
        intro="Demonstrations run online and are led by a member of our team who understands construction contracts. No preparation is needed, although you are welcome to bring a sample agreement."
      >
        <div className="grid gap-8 lg:grid-cols-5">
          <div className="rounded-xl border border-line bg-white p-6 shadow-sm sm:p-8 lg:col-span-3">
            <h3 className="text-xl font-semibold text-brand">Arrange your demo now</h3>
            <p className="mt-3 mb-6 leading-7">
              Tell us who you are and a little about the contracts you manage, and we will contact you within
              one working day to find a time that suits you.
            </p>
            <ServerBookingOfferComponent value={BookingOffer}>
              <Island
                name="demo-request-form"
                component={DemoFormWithBooking}
                props={{
                  variant: "page",
                  id: FORM_ID,
                  action: "/demo",
                  posted,
                  booking: loaderData?.booking,
                }}
              />
            </ServerBookingOfferComponent>
          </div>
          <div className="flex flex-col gap-6 lg:col-span-2">
            <div className="rounded-xl bg-brand-soft p-8">
              <h3 className="text-xl font-semibold text-brand">What the demo covers</h3>
              <ul className="mt-5 space-y-3">
                {demoCovers.map((item) => (
                  <li key={item} className="flex gap-3 leading-7">
                    <span aria-hidden="true" className="font-bold text-brand">
                      ✓
                    </span>
                    {item}
                  </li>
                ))}
              </ul>
            </div>
            <div className="rounded-xl border border-line bg-white p-8 shadow-sm">
              <h3 className="text-xl font-semibold text-brand">Prefer to talk first?</h3>
              <ul className="mt-4 space-y-3 leading-7">
                <li>
                  Email:{" "}
                  <a className={contactLink} href={`mailto:${company.email}?subject=Demo%20request`}>
                    {company.email}
                  </a>
                </li>
                <li>
                  Phone:{" "}
                  <a className={contactLink} href={`tel:${company.phone.e164}`}>
                    {company.phone.display}
                  </a>
                </li>
              </ul>
            </div>
          </div>
        </div>
      </Section>

      <Section
        id="before-your-demo"
        muted
        title="Before your demo"
        intro="If you would like to know more first, these pages explain the problem we solve and how we solve it."
      >
        <ul className="grid gap-6 md:grid-cols-3">
          {readMore.map((page) => (
            <li key={page.to}>
              <Link
                to={page.to}
                className="group block h-full rounded-xl border border-line bg-white p-6 shadow-sm transition-shadow hover:shadow-md"
              >
                <span className="text-lg font-semibold text-brand group-hover:underline">{page.title}</span>
                <span className="mt-2 block leading-7 text-ink-muted">{page.text}</span>
              </Link>
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}
