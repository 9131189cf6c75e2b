import type { BookingPageType } from "../booking-types.ts";
import type { SlotDay } from "../slot-labels.ts";

// What the pages need of the thank-you panel's time picker before it loads (issue 34): the picker
// itself (booking-offer.tsx) is loaded only once a request succeeded, so the form pages keep their
// JavaScript budget.

/** The booking token's parameter on the no-JavaScript success page and in the booking form's post. */
export const BOOKING_TOKEN_FIELD = "booking";
export type ServerBookingOffer = {
  token: string;
  zone: string;
  days: SlotDay[];
  /** The type's length, as its page says it. */
  durationMinutes: number;
  /** The slot queries' 429 message, when this address asked too often. */
  limited: string | null;
};

/**
 * The empty form the picker's radios and buttons belong to (`form=`): it must stand outside the lead
 * form, whose thank-you panel shows the picker, as forms cannot nest.
 */
export function BookingOfferForm({ formId, type }: { formId: string; type: BookingPageType }) {
  return <form id={`${formId}-booking`} method="post" action={`/book/${type}`} hidden />;
}
