// The demo request form's island (home page and /demo): React and the form, nothing else.
import { hydrateIslands } from "./hydrate-islands.tsx";
import { DemoFormWithBooking, preloadBookingOffer } from "./lead-forms-with-booking.tsx";

// A success page without JavaScript's round trip shows the time picker already: load it first.
const offerShown = document.querySelector('[data-island="demo-request-form"] [id$="-booking-title"]');
(offerShown ? preloadBookingOffer().catch(() => {}) : Promise.resolve()).then(() =>
  hydrateIslands("demo-request-form", DemoFormWithBooking),
);
