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
  isSpam: number;
  spamReason: string | null;
  status: Generated<string>;
  createdAt: string;
  updatedAt: string;
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

export interface RateLimitsTable {
  key: string;
  windowId: number;
  hits: number;
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
  isAdmin: number;
  createdAt: string;
  updatedAt: string;
}

export interface SessionsTable {
  idHash: string;
  userId: number;
  createdAt: string;
  lastSeenAt: string;
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
  /** The signing secret, kept to sign with; never shown again after creation or rotation. */
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

export interface Database {
  appSettings: AppSettingsTable;
  leads: LeadsTable;
  outbox: OutboxTable;
  rateLimits: RateLimitsTable;
  loginAttempts: LoginAttemptsTable;
  users: UsersTable;
  sessions: SessionsTable;
  leadStatusChanges: LeadStatusChangesTable;
  securityAudits: SecurityAuditsTable;
  performanceChecks: PerformanceChecksTable;
  hstsPreload: HstsPreloadTable;
  webhooks: WebhooksTable;
  webhookDeliveries: WebhookDeliveriesTable;
}
