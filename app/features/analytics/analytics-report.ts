// The shape of the analytics report (issue 12): what GET /api/admin/analytics returns and
// /admin/analytics shows. Built by analytics-report.server.ts, whose header says what each figure means.

export type Granularity = "hour" | "day";

export type SeriesPoint = {
  /** YYYY-MM-DD for a day, YYYY-MM-DDTHH:00Z for an hour (UTC). */
  start: string;
  /** Unique visitors that day; for an hour, the distinct visitors seen in that hour. */
  visitors: number;
  pageviews: number;
  leads: number;
};

/** A row of a table with leads: `conversionRate` is null when it has no visitors (leads/visitors). */
export type WithLeads = { visitors: number; views: number; leads: number; conversionRate: number | null };
export type PageRow = { path: string } & WithLeads;
export type EntryPageRow = { path: string } & WithLeads;
export type ReferrerRow = { host: string } & WithLeads;
export type ChannelRow = { channel: string } & WithLeads;
export type CampaignRow = { campaign: string } & WithLeads;
export type DeviceRow = { device: string; visitors: number; views: number };
export type BrowserRow = { browser: string; visitors: number; views: number };
export type NotFoundRow = { path: string; views: number; visitors: number };

/**
 * Meetings booked in the period (issue 34) by their lead's channel or campaign: `meetings` those not
 * cancelled since (booked, held or no-show), `held` and `noShow` of them the ones staff marked so.
 */
export type MeetingCounts = { meetings: number; held: number; noShow: number };
export type MeetingChannelRow = { channel: string } & MeetingCounts;
export type MeetingCampaignRow = { campaign: string } & MeetingCounts;

export type MeetingsReport = MeetingCounts & {
  byChannel: MeetingChannelRow[];
  byCampaign: MeetingCampaignRow[];
  /**
   * The median time from the lead's arrival (its request) to the booking of its meeting, over the
   * period's meetings that have a lead (`meetings` of them); null when there are none.
   */
  requestToMeeting: { medianSeconds: number; meetings: number } | null;
};

/**
 * Leads that did not come through the website, by how they came in (issue 32): an API key (by its
 * name), added by staff, imported (each with where staff said it came from). Never a conversion.
 */
export type OutsideSourceRow = {
  origin: "api_key" | "added_by_staff" | "imported";
  /** "API key “HubSpot”", "Added by staff: Phone call", "Imported: Event". */
  source: string;
  leads: number;
};

export type Headline = {
  from: string;
  to: string;
  visitors: number;
  pageviews: number;
  /** Website leads not held as spam: its forms and the public API call they make (no key). */
  leads: number;
  /** Leads sent with an API key (not spam), shown apart and in no rate. */
  apiLeads: number;
  /** Every lead not from the website (API keys, added by staff, imported), shown apart and in no rate. */
  outsideLeads: number;
  /** leads / visitors, 0 to 1. */
  conversionRate: number;
};

export type AnalyticsReport = Headline & {
  days: number;
  granularity: Granularity;
  notFoundViews: number;
  series: SeriesPoint[];
  pages: PageRow[];
  entryPages: EntryPageRow[];
  referrers: ReferrerRow[];
  channels: ChannelRow[];
  campaigns: CampaignRow[];
  devices: DeviceRow[];
  browsers: BrowserRow[];
  notFound: NotFoundRow[];
  funnel: {
    visitors: number;
    /** Visitors who viewed a page with a form (/, /demo, /invest). */
    formPageVisitors: number;
    leads: number;
    /** Of those leads, the ones with a meeting booked (whenever) and not cancelled: booked, held or no-show. */
    bookedMeeting: number;
    /** Of those leads (not only those with a meeting), the ones now qualified or customer. */
    qualified: number;
  };
  /** Meetings booked in the period (issue 34). */
  meetings: MeetingsReport;
  /** `outsideLeads` by source, the most first. */
  outsideSources: OutsideSourceRow[];
  /** The period of the same length just before. */
  previous: Headline;
};
