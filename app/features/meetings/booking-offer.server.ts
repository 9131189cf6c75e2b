import type { RouterContextProvider } from "react-router";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { activeType, bookingDays, requestedZone } from "./booking-page.server.ts";
import type { BookingPageType } from "./booking-types.ts";
import { leadTokenLead } from "./manage-link.server.ts";
import { meetingServices } from "./meetings-context.server.ts";
import { BOOKING_TOKEN_FIELD, type ServerBookingOffer } from "./ui/booking-offer-form.tsx";

/**
 * The times the thank-you panel offers after a form was sent without JavaScript (issue 34): the
 * success page carries the request's booking token (`?booking=`), and `?tz=` when the visitor chose
 * another zone. Null when there is no valid token (the prerendered page, an expired link).
 */
export async function bookingOfferFor(
  request: Request,
  context: Readonly<RouterContextProvider>,
  type: BookingPageType,
): Promise<ServerBookingOffer | null> {
  const url = new URL(request.url);
  const token = url.searchParams.get(BOOKING_TOKEN_FIELD);
  if (!token || token.length > 60) return null;
  const services = await meetingServices(context);
  if (leadTokenLead(services.secret, token, services.now()) === null) return null;
  const meetingType = await activeType(services, type);
  if (!meetingType) return null;
  const zone = requestedZone(url);
  const { days, limited } = await bookingDays(services, meetingType, zone, context.get(clientAddressContext));
  return {
    token,
    zone,
    days,
    durationMinutes: meetingType.durationMinutes,
    limited: limited?.message ?? null,
  };
}
