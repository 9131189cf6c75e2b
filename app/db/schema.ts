import type { Generated } from "kysely";

// Table shapes as the application sees them (camelCase; the database uses snake_case through
// Kysely's CamelCasePlugin). Timestamps are ISO 8601 text in UTC so both databases sort them alike.
// Booleans are 0/1 integers on both databases, converted in the repositories.

export interface AppSettingsTable {
  key: string;
  value: string;
}

export interface LeadsTable {
  id: Generated<number>;
  requestType: "demo" | "investor";
  fullName: string;
  email: string;
  company: string;
  phone: string;
  message: string | null;
  investorAngel: number;
  investorVc: number;
  investorIntroducer: number;
  investorOther: number;
  otherDetails: string | null;
  sourcePage: string | null;
  privacyNoticeVersion: string;
  /** 1 when the spam verdict holds the lead out of the list (spam-verdict.ts). */
  isSpam: number;
  /** The verdict's summary in words. */
  spamReason: string | null;
  /** The verdict's score and the signals behind it (JSON `SpamSignal[]`, null when none fired). */
  spamScore: Generated<number>;
  spamSignals: string | null;
  /** Set when staff judged the lead by hand: its signals no longer ask for review. */
  spamReviewedAt: string | null;
  status: Generated<string>;
  /** Lower-cased, trimmed email: a person's submissions share it (contacts). */
  emailKey: Generated<string>;
  /** Case-folded name and company, the sort keys (compared byte by byte on both databases). */
  fullNameKey: Generated<string>;
  companyKey: Generated<string>;
  /** "form", "api", or the name of the API key that sent it. */
  source: Generated<string>;
  apiKeyId: number | null;
  ownerId: number | null;
  /** Submission to first status change, in milliseconds (bigint: a string on PostgreSQL). */
  firstResponseMs: number | string | null;
  /**
   * Set when the lead outlived LEAD_RETENTION_MONTHS (migration 020): its personal fields are
   * cleared and it has left the list, the export and the people search; its counts remain.
   */
  anonymisedAt: string | null;
  /** The date (YYYY-MM-DD) of the privacy policy's latest change when the lead was sent (migration 020). */
  policyVersion: Generated<string>;
  /** The staff member who added the lead by hand or imported it (migration 024); null otherwise. */
  addedByUserId: Generated<number | null>;
  addedByUsername: Generated<string | null>;
  /** Its earliest open task, the "next step" (migration 037): kept with every change of its tasks. */
  nextTaskId: Generated<number | null>;
  nextTaskDueAt: Generated<string | null>;
  createdAt: string;
  updatedAt: string;
}

/** One CSV import (migration 024): a draft until committed, then a batch that can be undone. */
export interface LeadImportsTable {
  id: Generated<number>;
  fileName: string;
  status: Generated<"draft" | "committed" | "undone">;
  /** The uploaded file's text while a draft; null once committed. */
  content: string | null;
  rowCount: Generated<number>;
  /** The source slug the imported leads carry (lead-sources.ts). */
  source: string | null;
  ownerId: number | null;
  imported: Generated<number>;
  merged: Generated<number>;
  failed: Generated<number>;
  createdByUserId: number | null;
  createdByUsername: string;
  createdAt: string;
  committedAt: string | null;
  undoneAt: string | null;
  undoneByUsername: string | null;
}

/** A lead an import created or merged into; `previous` holds a merged lead's fields before (JSON). */
export interface LeadImportChangesTable {
  id: Generated<number>;
  importId: number;
  leadId: number;
  kind: "created" | "merged";
  rowNumber: number;
  previous: string | null;
}

export interface LeadNotesTable {
  id: Generated<number>;
  leadId: number;
  body: string;
  authorUserId: number | null;
  authorUsername: string;
  createdAt: string;
}

export interface LeadEventsTable {
  id: Generated<number>;
  leadId: number;
  type: string;
  actorUserId: number | null;
  actorName: string | null;
  detail: string | null;
  createdAt: string;
}

/**
 * An address a lead carried before staff replaced it (ADR 044, migration 041), by its key (as
 * `leads.email_key`): how its holder's erasure and subject access still find the lead.
 */
export interface LeadFormerEmailsTable {
  id: Generated<number>;
  leadId: number;
  emailKey: string;
  replacedAt: string;
}

export interface ApiKeysTable {
  id: Generated<number>;
  name: string;
  keyPrefix: string;
  keyHash: string;
  createdByUserId: number | null;
  createdByUsername: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedByUsername: string | null;
}

export interface OutboxTable {
  id: Generated<number>;
  kind: string;
  /** JSON; references rows (a lead id) rather than copying personal data. */
  payload: string;
  status: Generated<"pending" | "sent" | "failed">;
  attempts: Generated<number>;
  nextAttemptAt: string;
  lockedUntil: string | null;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** Sliding-window rate limits: the times of a key's recent accepted hits. */
export interface RateLimitsTable {
  key: string;
  /** JSON array of epoch milliseconds, oldest first, at most the limit. */
  hits: string;
  /** Epoch milliseconds (bigint: a string on PostgreSQL). */
  expiresAt: number | string;
}

/** Sign-in failure counters (login-throttle.server.ts); `key` is an HMAC, never a name or address. */
export interface LoginAttemptsTable {
  key: string;
  failures: number;
  /** Epoch milliseconds; a bigint, so PostgreSQL hands it back as a string. */
  windowEndsAt: number | string;
}

export interface UsersTable {
  id: Generated<number>;
  username: string;
  usernameKey: string;
  passwordHash: string;
  /** 1 for the admin and sales roles (the SPEC's isAdmin), written with `role` (migration 022). */
  isAdmin: number;
  /** 'admin' | 'sales' | 'marketing' (lib/permissions.ts); null: no back-office access. */
  role: string | null;
  /** 1: cannot sign in, sessions refused (migration 010). */
  disabled: Generated<number>;
  lastSignInAt: string | null;
  createdAt: string;
  updatedAt: string;
  /** The TOTP secret, encrypted (two-factor.server.ts); null without two-factor sign-in (migration 019). */
  totpSecret: string | null;
  /** When the secret was confirmed with a code; null while an enrolment waits for one. */
  totpEnabledAt: string | null;
  /** The last 30-second step a code was accepted for: no step is accepted twice. */
  totpLastStep: number | null;
  /** For invitations and reminders when the account hosts meetings (migration 033). */
  email: string | null;
  /** 1: also e-mail a lead assigned to them by someone else (migration 038, off by default). */
  emailOnAssignment: Generated<number>;
  /** 1: also e-mail when a task of theirs is due (migration 038, off by default). */
  emailOnTaskDue: Generated<number>;
  /** The lead list's rows per page this person chose (10, 25, 50, 100); null: the spec's 10 (migration 039). */
  listPageSize: number | null;
}

export interface SessionsTable {
  idHash: string;
  userId: number;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
  /** Random, public: names the session in the sessions list and its end-session form. */
  handle: Generated<string>;
  /** "Firefox on Windows", from the User-Agent at sign-in; null before migration 014. */
  browser: string | null;
  /** The client address masked to its network (203.0.113.x, 2001:db8:1::/48). */
  address: string | null;
}

/** Who did what to a staff account, and when (staff-events.server.ts). */
export interface StaffEventsTable {
  id: Generated<number>;
  userId: number;
  action: string;
  actorUserId: number | null;
  actorUsername: string;
  createdAt: string;
}

/** One-time set-password links: only the SHA-256 of the token is kept. */
export interface SetPasswordLinksTable {
  tokenHash: string;
  userId: number;
  createdByUserId: number | null;
  createdAt: string;
  expiresAt: string;
}

export interface LeadStatusChangesTable {
  id: Generated<number>;
  leadId: number;
  fromStatus: string;
  toStatus: string;
  changedByUserId: number | null;
  changedByUsername: string;
  changedAt: string;
}

export interface SecurityAuditsTable {
  id: Generated<number>;
  url: string;
  createdAt: string;
  score: number;
  uncappedScore: number;
  /** The Observatory scoring algorithm version that graded it (4 for audits stored before 008). */
  algorithmVersion: Generated<number>;
  grade: string;
  issueCount: number;
  issues: string;
  tests: string;
  createdBy: string;
}

export interface PerformanceChecksTable {
  id: Generated<number>;
  url: string;
  createdAt: string;
  loadTime: number;
  status: number;
  error: string | null;
  result: string;
  createdBy: string;
}

/** A lab check (migration 028; features/audits/lab): Lighthouse's performance category of a page. */
export interface LabChecksTable {
  id: Generated<number>;
  url: string;
  /** "mobile" | "desktop" */
  device: string;
  createdAt: string;
  /** 0-100; 0 when `error` is set. */
  score: number;
  lcpMs: number;
  /** Cumulative Layout Shift × 1000. */
  clsMilli: number;
  error: string | null;
  /** The whole LabResult as JSON text. */
  result: string;
  createdBy: string;
}

export interface HstsPreloadTable {
  /** A force-https entry of Chromium's list (lower case, ASCII). */
  name: string;
  includeSubdomains: number;
}

/** An outgoing webhook (issue 10, ADR 012). */
export interface WebhooksTable {
  id: Generated<number>;
  url: string;
  /** JSON array of event types. */
  events: string;
  /**
   * The signing key as text: its UTF-8 bytes key the HMACs (webhook-signature.server.ts). Shown once,
   * after creation or rotation, as `whsec_` + base64 of those bytes; never shown again.
   */
  secret: string;
  createdAt: string;
  createdBy: string;
  secretRotatedAt: string | null;
}

/** One event for one webhook; its outbox row carries the attempts and the status. */
export interface WebhookDeliveriesTable {
  id: Generated<number>;
  webhookId: number;
  eventId: string;
  eventType: string;
  isTest: number;
  /** The exact JSON body to send; null once delivered (it holds a copy of the lead). */
  body: string | null;
  outboxId: number | null;
  createdAt: string;
  lastAttemptAt: string | null;
  responseStatus: number | null;
  responseBody: string | null;
}

/** One counted page view (issue 12, ADR 014); no client address, no cookie. */
export interface AnalyticsPageViewsTable {
  id: Generated<number>;
  occurredAt: string;
  path: string;
  /** The referring host (this site's own for an internal move); null when none was sent. */
  referrerHost: string | null;
  /** The referring path, for referrals from other sites only. */
  referrerPath: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  /** 1 when a paid click id (gclid, fbclid, msclkid) was present. */
  paidClick: number;
  device: "desktop" | "mobile" | "tablet" | "other";
  browser: string;
  visitorId: string;
  /** 1 for a 404 page. */
  isNotFound: number;
}

/** The random salt of one UTC day, deleted 48 hours after it was made. */
export interface AnalyticsSaltsTable {
  /** YYYY-MM-DD (UTC). */
  day: string;
  /** Hex of 32 random bytes. */
  salt: string;
  createdAt: string;
}

/**
 * Leads per combination of the list's cheap filters, kept by triggers (migration 013): read-only
 * for the app. `ownerId` 0 is "unassigned"; a count is the sum over `shard`s.
 */
export interface LeadCountsTable {
  isSpam: number;
  status: string;
  ownerId: number;
  requestType: string;
  /** 1 for anonymised leads (migration 020): the pipeline counts them, the list does not. */
  anonymised: number;
  shard: number;
  /** A bigint: PostgreSQL returns it as a string. */
  count: number | string;
}

/** The staff access log (lib/access-log.server.ts). */
export interface AccessLogTable {
  id: Generated<number>;
  occurredAt: string;
  action: string;
  actorUserId: number | null;
  actorUsername: string | null;
  subjectUserId: number | null;
  subjectUsername: string | null;
  leadId: number | null;
  detail: string | null;
  network: string | null;
}

/** Where a lead's visit came from (issue 12; migration 016). */
export interface LeadAttributionsTable {
  leadId: number;
  status: "pending" | "linked" | "unknown";
  /** The visitor's hash of the day while pending; null once settled. */
  visitorId: string | null;
  submittedAt: string;
  landingPage: string | null;
  referrerHost: string | null;
  referrerPath: string | null;
  channel: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  landedAt: string | null;
  pagesBeforeSubmit: number | null;
  secondsToSubmit: number | null;
  resolvedAt: string | null;
}

/** One UTC day of page views, rolled up (migration 017): kept after the raw views are deleted. */
export interface AnalyticsDailyTotalsTable {
  day: string;
  views: number;
  visitors: number;
  notFoundViews: number;
  /** bigint: a string on PostgreSQL. */
  rolledThroughId: number | string;
  rolledAt: string;
}

/** One value of one dimension on one UTC day (migration 017; rollup.server.ts names the dimensions). */
export interface AnalyticsDailyCountsTable {
  dimension: string;
  day: string;
  value: string;
  views: number;
  visitors: number;
}

/** A person erased on request: the HMAC of their normalised email, when, and why (migration 018). */
export interface ErasureSuppressionsTable {
  emailHmac: string;
  erasedAt: string;
  reason: string;
}

/** One-time recovery codes, as keyed hashes (migration 019). */
export interface RecoveryCodesTable {
  userId: number;
  codeHash: string;
  createdAt: string;
  usedAt: string | null;
}

/** A right password waiting for its second step: the hash of the cookie's token (migration 019). */
/**
 * Wrong second-factor codes per account and UTC day from clients that are not its trusted browsers
 * (code-failures.server.ts, migration 031).
 */
export interface CodeFailuresTable {
  userId: number;
  /** 'YYYY-MM-DD' (UTC). */
  day: string;
  /** Counts towards closing the code step (20); an admin's reset sets it to 0. */
  failures: Generated<number>;
  /** The same codes for the owner's notice; never reset. */
  wrongCodes: Generated<number>;
  /** When the owner dismissed the notice about this day. */
  seenAt: string | null;
}

export interface PendingLoginsTable {
  tokenHash: string;
  userId: number;
  purpose: "verify" | "enrol";
  /** "enrol": the encrypted secret this sign-in shows and must confirm (each sign-in its own). */
  totpSecret: string | null;
  createdAt: string;
  expiresAt: string;
  /** Codes tried on it so far (migration 021): at most MAX_CODE_ATTEMPTS, then it is gone. */
  codeAttempts: Generated<number>;
}

/** Background jobs one instance at a time runs, under a lease, and their last run (migration 020). */
export interface JobLeasesTable {
  name: string;
  lockedBy: string | null;
  lockedUntil: string | null;
  finishedAt: string | null;
  /** JSON: what the last finished run did (counts only). */
  lastResult: string | null;
}

/** A named view of the lead list, personal or shared with the team (migration 023). */
export interface SavedViewsTable {
  id: Generated<number>;
  ownerUserId: number;
  name: string;
  /** The list's query string (filters, sort, order, page size), without `page`. */
  query: string;
  shared: number;
  createdAt: string;
}

/** A logged call, a logged e-mail or a task on a lead (migration 037, ADR 041). */
export interface LeadActivitiesTable {
  id: Generated<number>;
  leadId: number;
  kind: "call" | "email" | "task";
  body: string;
  outcome: string | null;
  durationMinutes: number | null;
  /** An e-mail's direction: "sent" or "received". */
  direction: string | null;
  /** A task's due instant, ISO 8601 UTC. */
  dueAt: string | null;
  assigneeUserId: number | null;
  doneAt: string | null;
  doneByUsername: string | null;
  authorUserId: number | null;
  authorUsername: string;
  createdAt: string;
  updatedAt: string;
}

/** Who asked for the morning e-mail of their tasks, and the day (their zone) it last went. */
export interface TaskDigestsTable {
  userId: number;
  sentOn: string | null;
  createdAt: string;
}

/** An uploaded image (migration 026): what the original was; its bytes are not kept (ADR 024). */
export interface MediaTable {
  id: Generated<number>;
  /** SHA-256 (hex) of the uploaded bytes. */
  contentHash: string;
  /** The original's type, read from its bytes: image/jpeg, image/png, image/webp or image/avif. */
  mimeType: string;
  /** As displayed: after the EXIF orientation is applied. */
  width: number;
  height: number;
  /** Empty for a decorative image. */
  alt: string;
  /** The uploaded file's size. */
  byteSize: number;
  createdAt: string;
  createdByUserId: number | null;
}

/** One resized, re-encoded copy of an image, served at /media/<id>/<width>-<hash>.<ext>. */
export interface MediaVariantsTable {
  mediaId: number;
  format: "avif" | "webp" | "jpeg" | "png";
  width: number;
  height: number;
  /** SHA-256 (hex) of `bytes`; its first 16 characters are in the variant's URL and its ETag. */
  contentHash: string;
  byteSize: number;
  /** BLOB on SQLite (a Uint8Array), bytea on PostgreSQL (a Buffer). */
  bytes: Uint8Array;
}

/** An article or press item of the content studio (migration 027; features/content/posts). */
export interface PostsTable {
  id: Generated<number>;
  kind: "article" | "press";
  slug: string;
  title: string;
  excerpt: Generated<string>;
  /** Markdown source. */
  body: Generated<string>;
  /** JSON array of strings. */
  tags: Generated<string>;
  category: string;
  /** The author's display name. */
  author: Generated<string>;
  authorUserId: number | null;
  /** A media library id, or a public path (/press/x.svg) for imported press logos. */
  coverImage: string | null;
  coverAlt: Generated<string>;
  seoTitle: Generated<string>;
  seoDescription: Generated<string>;
  /** Press: the publication. */
  outlet: Generated<string>;
  /** Press: the article's https address. */
  originalUrl: string | null;
  /** Press: shown first (0/1). */
  featured: Generated<number>;
  /** Press: a short line such as "Featured on Page 12". */
  note: Generated<string>;
  /** Minutes, as the files state them; null: estimated from the body. */
  readTime: number | null;
  /** As staff set it; a 'scheduled' post whose publishAt has passed is published (post-status.ts). */
  status: "draft" | "scheduled" | "published" | "unpublished";
  publishAt: string | null;
  /** The date readers see. */
  firstPublishedAt: string | null;
  revision: number;
  createdAt: string;
  createdBy: number | null;
  updatedAt: string;
  updatedBy: number | null;
  /** Set by every write, with the posts_version counter's value of that write. */
  changedAt: string;
  changeVersion: number;
}

/** One row: a counter every write to posts takes (under the row's lock), for instances to poll. */
export interface PostsVersionTable {
  id: number;
  version: number;
  changedAt: string;
}

export interface PostRevisionsTable {
  id: Generated<number>;
  postId: number;
  revision: number;
  kind: "create" | "edit" | "autosave" | "restore" | "import";
  /** For a restore: the revision restored. */
  restoredFrom: number | null;
  /** The snapshot's title, for the list of revisions. */
  title: string;
  /** The editable fields as JSON (posts/post-fields.ts PostFields). */
  snapshot: string;
  savedAt: string;
  savedBy: number | null;
  savedByUsername: string | null;
}

/** An old address of a published post (a slug change), answered with a 301 to its current one. */
export interface PostRedirectsTable {
  slug: string;
  postId: number;
  createdAt: string;
}

/** The content/ files imported into posts, each once ("blog/<slug>", "press/<slug>"). */
export interface PostImportsTable {
  source: string;
  postId: number | null;
  importedAt: string;
}

/** A site the audits check on a schedule (migration 030; features/audits/watches). */
export interface WatchesTable {
  id: Generated<number>;
  url: string;
  /** JSON array of check names ("security", "performance", …). */
  checks: string;
  every: "hourly" | "daily" | "weekly";
  /** JSON array of email addresses that get the alerts. */
  recipients: string;
  paused: number;
  nextRunAt: string;
  lastRunAt: string | null;
  lastStatus: string | null;
  createdAt: string;
  createdBy: string;
  updatedAt: string;
}

/** One run of a watch: each check's result (JSON) and the numbers its trends read. */
export interface WatchRunsTable {
  id: Generated<number>;
  watchId: number;
  trigger: "schedule" | "manual";
  startedAt: string;
  finishedAt: string;
  status: "ok" | "partial" | "failed";
  results: string;
  securityScore: number | null;
  securityGrade: string | null;
  httpStatus: number | null;
  loadTimeMs: number | null;
  labScore: number | null;
  lcpMs: number | null;
  cls: number | null;
  tbtMs: number | null;
  tlsDaysLeft: number | null;
  tlsVerified: number | null;
}

/** A condition a watch's run found worse, until a later run finds it cleared. */
export interface WatchAlertsTable {
  id: Generated<number>;
  watchId: number;
  condition: string;
  message: string;
  detail: string;
  openedAt: string;
  openedRunId: number | null;
  resolvedAt: string | null;
  resolvedRunId: number | null;
  resolvedMessage: string | null;
  openedNotices: Generated<number>;
  resolvedNotices: number | null;
}

/** One thing to tell one person: the bell's list (migration 038, features/notifications). */
export interface NotificationsTable {
  id: Generated<number>;
  userId: number;
  /** "lead.assigned" | "meeting.booked" | "meeting.rescheduled" | "meeting.cancelled" | "watch.alert" | "task.due". */
  kind: string;
  /** Its sentence, without a lead's or attendee's personal data (the list adds the lead's name). */
  title: string;
  /** The back-office page it opens. */
  link: string;
  leadId: number | null;
  /** The meeting's, the alert's or the task's id. */
  subjectId: number | null;
  /** Unique per person: the same event never notifies twice. */
  dedupeKey: string;
  createdAt: string;
  readAt: string | null;
}

/** A host's availability (migration 033, features/meetings); no row: the defaults. */
export interface BookingProfilesTable {
  userId: number;
  timeZone: string;
  /** JSON: weekday ("mon"…"sun") → [{ start: "09:00", end: "17:00" }]. */
  weeklyHours: string;
  /** JSON: ["YYYY-MM-DD"], in the profile's zone. */
  daysOff: Generated<string>;
  bufferBeforeMinutes: Generated<number>;
  bufferAfterMinutes: Generated<number>;
  minimumNoticeMinutes: number;
  horizonDays: number;
  maxPerDay: number;
  updatedAt: string;
  updatedBy: number | null;
}

export interface MeetingTypesTable {
  id: Generated<number>;
  slug: string;
  name: string;
  durationMinutes: number;
  hostChoice: "round_robin" | "owner_first";
  /** JSON array of user ids; null: every admin and sales account. */
  hostIds: string | null;
  active: Generated<number>;
  createdAt: string;
  updatedAt: string;
}

export interface MeetingsTable {
  id: Generated<number>;
  typeId: number;
  hostId: number;
  leadId: number | null;
  status: "booked" | "cancelled" | "held" | "no_show";
  /** ISO 8601 UTC. */
  startAt: string;
  endAt: string;
  /** The iCalendar UID, stable through reschedules. */
  uid: string;
  /** The iCalendar SEQUENCE: one more at each reschedule or cancellation. */
  sequence: Generated<number>;
  fullName: string;
  email: string;
  company: string;
  phone: string | null;
  /** The attendee's zone, for their e-mails. */
  timeZone: string;
  /** 'form' (the thank-you panel), 'page' (/book/*), 'api'. */
  source: string;
  createdAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  /** When the meeting got its current time: booked, or last moved (migration 036). */
  scheduledAt: Generated<string>;
  /** When the 24-hour and the one-hour reminder were queued; a move clears both. */
  dayReminderAt: string | null;
  hourReminderAt: string | null;
  /** The site's address its e-mails linked to, for the reminders when PUBLIC_URL is unset. */
  linksOrigin: string | null;
  /** When the attendee's personal data was cleared (erasure, or retention). */
  attendeeErasedAt: string | null;
}

/** One five-minute block a meeting (with its buffer) holds; (hostId, blockStart) is unique. */
export interface MeetingBlocksTable {
  hostId: number;
  blockStart: string;
  meetingId: number;
}

/** A host's CalDAV calendar (migration 034, features/meetings/caldav). */
export interface CalendarConnectionsTable {
  userId: number;
  /** The calendar collection's URL. */
  url: string;
  username: string;
  /** The app password, sealed (lib/sealed-secret.server.ts). */
  passwordSealed: string;
  connectedAt: string;
  /** The last refresh started (by any instance). */
  attemptedAt: string | null;
  /** The last refresh that read the calendar. */
  refreshedAt: string | null;
  lastError: string | null;
  lastErrorAt: string | null;
}

/** A host's private iCalendar feed (migration 035): links are signed with `version`; a reset adds one. */
export interface MeetingFeedsTable {
  userId: number;
  version: number;
  resetAt: string;
}

/** A busy time read from a host's calendar, ISO 8601 UTC; replaced at each refresh. */
export interface CalendarBusyTable {
  hostId: number;
  startAt: string;
  endAt: string;
}

/** Where a meeting was written: its host's calendar, the resource's URL. */
export interface CalendarEventsTable {
  meetingId: number;
  hostId: number;
  href: string;
  etag: string | null;
  writtenAt: string;
}

export interface Database {
  appSettings: AppSettingsTable;
  leads: LeadsTable;
  outbox: OutboxTable;
  rateLimits: RateLimitsTable;
  loginAttempts: LoginAttemptsTable;
  users: UsersTable;
  sessions: SessionsTable;
  staffEvents: StaffEventsTable;
  setPasswordLinks: SetPasswordLinksTable;
  leadStatusChanges: LeadStatusChangesTable;
  leadNotes: LeadNotesTable;
  leadEvents: LeadEventsTable;
  leadFormerEmails: LeadFormerEmailsTable;
  apiKeys: ApiKeysTable;
  securityAudits: SecurityAuditsTable;
  performanceChecks: PerformanceChecksTable;
  labChecks: LabChecksTable;
  hstsPreload: HstsPreloadTable;
  webhooks: WebhooksTable;
  webhookDeliveries: WebhookDeliveriesTable;
  analyticsPageViews: AnalyticsPageViewsTable;
  analyticsSalts: AnalyticsSaltsTable;
  leadCounts: LeadCountsTable;
  accessLog: AccessLogTable;
  leadAttributions: LeadAttributionsTable;
  analyticsDailyTotals: AnalyticsDailyTotalsTable;
  analyticsDailyCounts: AnalyticsDailyCountsTable;
  erasureSuppressions: ErasureSuppressionsTable;
  recoveryCodes: RecoveryCodesTable;
  pendingLogins: PendingLoginsTable;
  codeFailures: CodeFailuresTable;
  jobLeases: JobLeasesTable;
  savedViews: SavedViewsTable;
  leadActivities: LeadActivitiesTable;
  taskDigests: TaskDigestsTable;
  leadImports: LeadImportsTable;
  leadImportChanges: LeadImportChangesTable;
  media: MediaTable;
  mediaVariants: MediaVariantsTable;
  posts: PostsTable;
  postsVersion: PostsVersionTable;
  postRevisions: PostRevisionsTable;
  postRedirects: PostRedirectsTable;
  postImports: PostImportsTable;
  watches: WatchesTable;
  watchRuns: WatchRunsTable;
  watchAlerts: WatchAlertsTable;
  bookingProfiles: BookingProfilesTable;
  meetingTypes: MeetingTypesTable;
  meetings: MeetingsTable;
  meetingBlocks: MeetingBlocksTable;
  calendarConnections: CalendarConnectionsTable;
  calendarBusy: CalendarBusyTable;
  calendarEvents: CalendarEventsTable;
  meetingFeeds: MeetingFeedsTable;
  notifications: NotificationsTable;
}
