// How long personal data is kept: the periods the privacy policy publishes, and the defaults of the
// settings that apply them (app/env.server.ts: LEAD_RETENTION_MONTHS, SPAM_RETENTION_DAYS,
// OUTBOX_RETENTION_DAYS, ANALYTICS_RAW_DAYS). An operator who changes a setting changes what the
// policy promises: start-up says so (services.server.ts), and the policy and its "Changes" list
// (privacy-changes.ts) must be updated with it.
export const PUBLISHED_RETENTION = {
  /** Months without activity after which a lead (demo request, investor enquiry) is anonymised. */
  leadMonths: 24,
  /** Days a submission held as spam is kept for review before it is deleted. */
  spamDays: 30,
  /** Days a sent notification's outbox record is kept. */
  outboxSentDays: 90,
  /** UTC days raw page views are kept besides today, before only daily counts remain. */
  analyticsRawDays: 30,
  /** Hours a day's analytics salt exists (analytics/daily-salt.server.ts). */
  analyticsSaltHours: 48,
  /** Days a webhook delivery (and the copy of a lead it holds until delivered) is kept. */
  webhookDeliveryDays: 30,
} as const;
