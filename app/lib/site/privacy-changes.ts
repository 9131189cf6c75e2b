// The privacy policy keeps the version SPEC section 2 pins ("Policy version: 1 April 2025") and lists
// every later change here, with its date (issue 12). The page's "Changes" section and the date stored
// with each lead (`leads.policy_version`, the latest change a visitor was shown) both read this list,
// so the two cannot disagree. To change the policy: edit the page, then add an entry at the end.

import { formatDisplayDate } from "./display-date.ts";

export type PolicyChange = {
  /** The day the change was published, YYYY-MM-DD (UTC). */
  date: string;
  /** What changed, one sentence each, in the policy's own words. */
  changes: readonly string[];
};

/** The pinned first version (site.privacyPolicyVersion, "1 April 2025") as a date; a test checks they agree. */
export const FIRST_POLICY_DATE = "2025-04-01";

export const privacyPolicyChanges: readonly PolicyChange[] = [
  {
    date: "2026-11-26",
    changes: [
      "Added “Website analytics”: what our servers count about visits, without cookies, device storage or tracking scripts, how the daily salt is rotated, how long the counts are kept, and how we honour Global Privacy Control and Do Not Track.",
      "Described the form_ts cookie as strictly necessary for spam protection.",
      "Set out how long we keep each kind of personal data: enquiries are anonymised 24 months after the last activity on them, spam is deleted after 30 days.",
      "Explained that we can find, export and erase everything we hold on you as a whole, what we keep after an erasure, and what happens if you contact us again afterwards.",
    ],
  },
  {
    date: "2026-11-27",
    changes: [
      "Explained that, so one connection cannot inflate our figures, each server keeps in memory only, for the current day, a one-way hash of your IP address made with that day’s salt and how many visitors and page views came from it.",
    ],
  },
  {
    date: "2026-11-29",
    changes: [
      "Added “Booking a meeting with us”: what we keep when you book a demonstration or an investor call, the invitation and reminders we email to you and to the host, and that the meeting is written into the host’s own work calendar.",
      "Set out how long we keep meetings (with the enquiry, anonymised with it) and that an erasure cancels your meetings still to come and removes your details from all of them.",
    ],
  },
];

/** The date of the latest change (or of the first version): what is stored with each lead. */
export const POLICY_VERSION: string = privacyPolicyChanges.at(-1)?.date ?? FIRST_POLICY_DATE;

/** "2026-11-26" as the policy writes dates, the blog's way: "26 November 2026". */
export const formatPolicyDate: (date: string) => string = formatDisplayDate;
