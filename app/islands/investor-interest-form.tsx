// The investor interest form's island (/invest): React and the form, nothing else.
import { hydrateIslands } from "./hydrate-islands.tsx";
import { InvestorFormWithBooking, preloadBookingOffer } from "./lead-forms-with-booking.tsx";

// A success page without JavaScript's round trip shows the time picker already: load it first.
const offerShown = document.querySelector('[data-island="investor-interest-form"] [id$="-booking-title"]');
(offerShown ? preloadBookingOffer().catch(() => {}) : Promise.resolve()).then(() =>
  hydrateIslands("investor-interest-form", InvestorFormWithBooking),
);
