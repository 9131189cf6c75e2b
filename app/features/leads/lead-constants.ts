// The parts of the lead contract that forms need while rendering, kept free of zod so a page can
// import them without shipping the validator: the schema itself loads only when a form is used.
// lead-schema.ts re-exports them, so there is still one definition.

export const LEAD_LIMITS = {
  fullName: 120,
  email: 254, // RFC 5321 path limit
  company: 160,
  phone: 32,
  message: 5000,
  otherDetails: 1000,
} as const;

/** SPEC section 3: the message an investor submission carries. */
export const INVESTOR_MESSAGE = "Investor interest from landing page";

/** The hidden field people never see and bots fill in. Browsers and password managers do not autofill it. */
export const HONEYPOT_FIELD = "_gotcha";

export const INVESTOR_TYPES = ["angel", "vc", "introducer", "other"] as const;
export type InvestorTypeKey = (typeof INVESTOR_TYPES)[number];

/** The longest note staff can add to a lead. */
export const NOTE_MAX_LENGTH = 5000;
