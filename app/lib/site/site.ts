// The one place that names the product, the company and how to reach it. Every page, the PDF deck,
// the feeds and the structured data read from here, so no `{email}`-style placeholder reaches a page.
// NOTE: this module is shared by the browser and the server, so it holds public facts only.

export const site = {
  /** The site title of SPEC section 1, used as the suffix of every page title. */
  title: "AI-Powered Contract Management",
  productName: "Clausebridge",
  company: {
    legalName: "Clausebridge Ltd",
    registeredIn: "England and Wales",
    companyNumber: "15847302",
    email: "info@clausebridge.co.uk",
    privacyEmail: "privacy@clausebridge.co.uk",
    /** Display form and the E.164 form used in tel: links. */
    phone: { display: "+44 20 7946 0321", e164: "+442079460321" },
    address: {
      street: "3rd Floor, 86 Great Suffolk Street",
      locality: "London",
      postalCode: "SE1 0BE",
      country: "United Kingdom",
      countryCode: "GB",
    },
  },
  investorContact: {
    name: "Eleanor Hart",
    role: "Co-founder & CEO",
    phone: { display: "+44 7700 900418", e164: "+447700900418" },
    email: "investors@clausebridge.co.uk",
  },
  /** How soon the team answers a demo request or investor enquiry: the promise the forms' thank-you makes. */
  replyWithin: "one working day",
  /** Where the product is hosted; baked into canonical URLs at build time (PUBLIC_URL overrides). */
  defaultPublicUrl: "https://www.clausebridge.co.uk",
  privacyPolicyVersion: "1 April 2025",
  social: {
    twitterHandle: "@clausebridge",
    linkedIn: "https://www.linkedin.com/company/clausebridge",
  },
  shareHashtags: ["construction", "contractmanagement", "efficiency"],
} as const;

export function formatAddress(separator = ", "): string {
  const { street, locality, postalCode, country } = site.company.address;
  return [street, `${locality} ${postalCode}`, country].join(separator);
}
