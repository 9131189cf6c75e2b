import { site } from "#app/lib/site/site.ts";
import { stats, valueLeakage } from "#app/lib/site/stats.ts";

// The words of the investor presentation, kept apart from the drawing code so they can be read,
// reviewed and tested as text. NOTE: this deck goes to prospective investors: it states no traction,
// revenue or valuation, and every market figure names its public source.

/** Bump when the content changes: it is the PDF's CreationDate, so the same content gives the same bytes. */
export const DECK_DATE = new Date("2026-11-25T09:00:00Z");

export const deckTitle = `${site.productName} Investor Presentation`;

/** e.g. `clausebridge-investor-presentation.pdf`. */
export const deckFileName = `${site.productName.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-investor-presentation.pdf`;

/**
 * SPEC section 2's confidentiality footer, on every page of the PDF and on /investor-deck. Anyone can
 * download the deck, so it asks rather than claims: no "Confidential" stamp, no consent terms.
 */
export const CONFIDENTIALITY_NOTICE =
  "Prepared for prospective investors. Please do not redistribute. Not an offer of securities.";

/** Where the round's size and terms are found: not in any document, in conversation. */
export const TERMS_DISCUSSED_DIRECTLY =
  "Amount, structure and terms are discussed directly with interested investors, subject to their own due diligence and advice.";

export const RISK_WARNING = "Investments of this nature carry risks to your capital. Please Invest Aware.";

export const headline = "Turning Contracts Into Strategic Assets";
export const tagline = "AI-powered contract management for construction";

export const problem = {
  title: "Signed contracts stop being managed",
  lead: "After signature, contracts scatter across inboxes, shared drives and filing cabinets. The obligations inside them keep running; the people responsible for them lose sight of what was agreed.",
  stats: stats.map(({ value, label, source }) => ({ value, label, source })),
  leakage: valueLeakage,
};

export const whyConstruction = {
  title: "Construction lives and dies by its contracts",
  lead: "Few industries carry as much value, change and deadline risk in their contracts as construction.",
  points: [
    {
      heading: "Contracts keep changing",
      text: "Variations, instructions and amendments pile up over the life of a project; the current position is rarely written down in one place.",
    },
    {
      heading: "Deadlines carry real money",
      text: "Under NEC4, a contractor who does not notify a compensation event within eight weeks of becoming aware of it can lose the claim (clause 61.3).",
    },
    {
      heading: "Statutory payment rules",
      text: "The Housing Grants, Construction and Regeneration Act 1996, as amended, sets payment notice and pay less notice rules for construction contracts.",
    },
    {
      heading: "Long supply chains",
      text: "Main contractors manage many subcontracts on standard forms such as JCT and NEC, each with its own bespoke amendments.",
    },
    {
      heading: "The readers are not lawyers",
      text: "Site managers, quantity surveyors and project directors need clear answers fast, not clause references.",
    },
  ],
};

export const features = [
  {
    name: "AI Contract Consolidation",
    text: "Brings a contract and all its amendments together into one current version.",
  },
  {
    name: "Plain Language Translation",
    text: "Explains legal clauses in plain business language for site, commercial and finance teams.",
  },
  {
    name: "Automated Date Tracking",
    text: "Finds notice periods, payment dates and renewals, and reminds the right people in time.",
  },
  {
    name: "Conversational Search",
    text: "Ask a question about a contract in everyday words and get an answer that points to the clause.",
  },
  {
    name: "Role-Based Access",
    text: "Each person sees the contracts their role needs, and nothing more.",
  },
  {
    name: "Insights Dashboard",
    text: "Obligations, upcoming deadlines and risks across the whole contract portfolio in one view.",
  },
] as const;

export const howItWorks = [
  {
    step: "Upload",
    text: "Add signed contracts with every amendment, variation and side letter.",
  },
  {
    step: "Consolidate",
    text: "AI assembles one current version of each contract and links each change to its source document.",
  },
  {
    step: "Understand",
    text: "Plain-language summaries, key dates and obligations are extracted for your team to review.",
  },
  {
    step: "Act",
    text: "Reminders, conversational search and the dashboard put answers in front of the people who need them.",
  },
] as const;

export const market = {
  title: "A large market with a contract-heavy workflow",
  lead: "Construction is one of the UK's largest sectors, and one of the most dependent on contracts.",
  figures: [
    { value: "£117bn", label: "construction's contribution to the UK economy in 2018, 6% of the total" },
    { value: "2.4m", label: "construction jobs in the UK in Q2 2019, 6.6% of all jobs" },
    {
      value: "36%",
      label: "of the construction workforce self-employed (Q2 2019), against 13% economy-wide",
    },
  ],
  source:
    "Source: House of Commons Library, Construction industry: statistics and policy, Briefing Paper 01432 (December 2019 edition; later editions update these figures).",
  focus: [
    "First focus: UK main contractors and specialist subcontractors running several live projects at once.",
    "Then: clients, developers and consultants who administer construction contracts.",
    "A fragmented, self-employed supply chain means many contracts per project, each with obligations to track.",
    "We have not yet published our own sizing of the serviceable market; we share our working assumptions in conversation.",
  ],
};

export const businessModel = {
  title: "Software as a service",
  lead: "Our intended pricing, to be validated with pilot customers before general availability:",
  tiers: [
    {
      name: "Per seat",
      text: "An annual subscription per named user, for commercial and legal teams working across the whole portfolio.",
    },
    {
      name: "Per project",
      text: "A subscription tied to a project's life, for contractors who prefer cost to follow the work they win.",
    },
    {
      name: "Onboarding",
      text: "Optional paid help to bring an existing archive of contracts and amendments into the platform.",
    },
  ],
  note: "No revenue is claimed in this presentation: these are intentions, not results.",
};

export const goToMarket = {
  title: "How we intend to reach customers",
  phases: [
    {
      name: "Pilots",
      text: "Work closely with a small number of UK contractors on live projects to prove value and refine the product.",
    },
    {
      name: "Direct sales",
      text: "Sell to commercial directors at mid-sized contractors, for whom revenue lost to contracts is a board-level number.",
    },
    {
      name: "Partners",
      text: "Explore referral partnerships with quantity surveying practices, construction law firms and trade bodies.",
    },
    {
      name: "Content",
      text: "Publish practical guidance on post-signature contract management through our blog and the trade press.",
    },
  ],
};

export const team = {
  title: "The team",
  members: [
    {
      name: site.investorContact.name,
      role: site.investorContact.role,
      text: "Leads the company, its strategy and investor relations.",
    },
  ],
  building: {
    heading: "Building the founding team",
    text: "We are an early-stage company. With investment, our first hires are:",
    hires: [
      "An AI and machine-learning engineering lead",
      "A construction commercial specialist with quantity surveying experience",
      "Customer success for pilot onboarding",
    ],
    advisors: "We intend to form an advisory group with construction law and commercial expertise.",
  },
};

export const ask = {
  title: "The ask",
  lead: `${site.productName} is at an early stage. We are seeking investment to:`,
  uses: [
    "Complete and harden the platform for pilot use",
    "Run pilots with UK construction businesses",
    "Hire engineering, construction and customer success talent",
    "Invest in security and data protection from day one",
  ],
  /** The one statement of terms: /invest and /investor-deck say the same (issue 11). */
  terms: TERMS_DISCUSSED_DIRECTLY,
};

export const contact = {
  title: "Let's talk",
  lead: "To register your interest or ask for more information, please contact:",
  person: site.investorContact,
  company: site.company,
};
