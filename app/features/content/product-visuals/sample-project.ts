/**
 * The fictional sample project every illustrative product screen shows. NOTE: invented on purpose,
 * and every screen says so in its caption; the names are not customers. Kept in one module so the
 * screens agree with each other: the cap on the plain-language card is 5% of the sum on the
 * consolidated contract, the completion date on the calendar is the one the variation set, and so on.
 */
export const sample = {
  project: "Riverside Quarter, Block C",
  projectShort: "Riverside Quarter",
  /** The customer: the main contractor running the project. */
  contractor: "Northbank Build Ltd",
  subcontractor: "Hartwell Civils Ltd",
  subcontractorShort: "Hartwell Civils",
  contract: "Groundworks sub-contract",
  form: "JCT DBSub 2016",
  signed: "14 Oct 2025",
  sum: "£1,840,000",
  ldRate: "£2,500",
  /** 5% of the sub-contract sum. */
  ldCap: "£92,000",
  completionWas: "27 February 2026",
  completionNow: "24 April 2026",
  /** The day the calendar and the dashboard are seen on. */
  today: "Mon 13 Apr 2026",
} as const;

/** The documents consolidated into the current version, with the marker shown in the text. */
export const amendments = {
  variation: { mark: "V-07", title: "Variation letter V-07", date: "12 Jan 2026" },
  schedule: { mark: "A1", title: "Schedule of Amendments", date: "14 Oct 2025" },
  sideLetter: { mark: "SL", title: "Side letter on retention", date: "3 Feb 2026" },
} as const;

export const ILLUSTRATIVE = "Illustrative screen — fictional sample project.";
