// The booking pages' two kinds (issue 34), shared by their meta, loaders and links.

export const BOOKING_TYPES = {
  demo: { slug: "demo", title: "Book a product demo", requestType: "demo" },
  investor: { slug: "investor", title: "Book an investor call", requestType: "investor" },
} as const;
export type BookingPageType = keyof typeof BOOKING_TYPES;

export const isBookingPageType = (value: string | undefined): value is BookingPageType =>
  value === "demo" || value === "investor";
