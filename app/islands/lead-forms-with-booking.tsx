import { type ComponentProps, type ComponentType, createContext, lazy, Suspense, useContext } from "react";
import { DemoRequestForm, type DemoRequestFormProps } from "#app/features/leads/demo-request-form.tsx";
import {
  InvestorInterestForm,
  type InvestorInterestFormProps,
} from "#app/features/leads/investor-interest-form.tsx";
import type { BookingPageType } from "#app/features/meetings/booking-types.ts";
import { BookingOfferForm, type ServerBookingOffer } from "#app/features/meetings/ui/booking-offer-form.tsx";

// The browser loads the picker only once a request succeeded (the form pages' JavaScript budget).
// The server renders it at once: the page provides it through this context (a page without
// JavaScript must carry it, and React streams a suspended part out of order, for a script to put in
// place). A page whose HTML already shows it loads it before hydrating (preloadBookingOffer), so
// hydration finds it; otherwise it appears after a scripted success and loads then.
const importOffer = () => import("#app/features/meetings/ui/booking-offer.tsx");
const LazyBookingOffer = lazy(importOffer);
type OfferComponent = ComponentType<ComponentProps<typeof LazyBookingOffer>>;
export const ServerBookingOfferComponent = createContext<OfferComponent | null>(null);
let preloaded: OfferComponent | null = null;

/** Before hydrating a no-JavaScript success page, whose thank-you panel the server rendered with times. */
export async function preloadBookingOffer(): Promise<void> {
  preloaded = (await importOffer()).default;
}

// The lead forms as the pages show them: their thank-you panel offers a time to book (issue 34).
// Composed here, where islands are assembled, as leads and meetings do not import each other.

type Offer = { booking?: ServerBookingOffer | null };

/** The picker for a scripted request's token, else for the token of the no-JavaScript success page. */
function useOffer(type: BookingPageType, formId: string, action: string, booking: Offer["booking"]) {
  const Eager = useContext(ServerBookingOfferComponent) ?? preloaded;
  const pagePath = action.split("?")[0] || "/";
  return (scriptToken: string | undefined) => {
    const token = scriptToken ?? booking?.token;
    if (!token) return null;
    const props = {
      type,
      formId,
      token,
      pagePath,
      initial: scriptToken ? undefined : (booking ?? undefined),
    };
    return Eager ? (
      <Eager {...props} />
    ) : (
      <Suspense fallback={null}>
        <LazyBookingOffer {...props} />
      </Suspense>
    );
  };
}

export function DemoFormWithBooking({ booking, ...props }: DemoRequestFormProps & Offer) {
  return (
    <>
      <DemoRequestForm {...props} thanksExtra={useOffer("demo", props.id, props.action, booking)} />
      <BookingOfferForm formId={props.id} type="demo" />
    </>
  );
}

export function InvestorFormWithBooking({ booking, ...props }: InvestorInterestFormProps & Offer) {
  return (
    <>
      <InvestorInterestForm {...props} thanksExtra={useOffer("investor", props.id, props.action, booking)} />
      <BookingOfferForm formId={props.id} type="investor" />
    </>
  );
}
