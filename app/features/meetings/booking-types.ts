// The booking pages' two kinds (issue 34), shared by their meta, loaders and links.

export const BOOKING_TYPES = {
  demo: { slug: "demo", title: "Book a product demo", requestType: "demo" },
  investor: { slug: "investor", title: "Book an investor call", requestType: "investor" },
} as const;
export type BookingPageType = keyof typeof BOOKING_TYPES;

export const isBookingPageType = (value: string | undefined): value is BookingPageType =>
  value === "demo" || value === "investor";

/**
 * A meeting type's link name (`type=` in the API, `/book/<slug>`): the two above, or one an admin
 * added (meeting-types-admin.server.ts).
 */
export const MEETING_TYPE_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export const isMeetingTypeSlug = (value: string | undefined): value is string =>
  value !== undefined && MEETING_TYPE_SLUG.test(value);

/** The lengths a meeting type may have, in minutes (the page's choice and the API's rule). */
export const MEETING_DURATIONS = [15, 20, 30, 45, 60, 90, 120] as const;

/** The booking page's title for a type: the two known ones', else from its name. */
export const bookingTitle = (slug: string, name: string) =>
  isBookingPageType(slug) ? BOOKING_TYPES[slug].title : `Book a ${name.toLowerCase()}`;
