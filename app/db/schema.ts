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
  /** 1: cannot sign in, sessions refused (migration 010). */
  disabled: Generated<number>;
  lastSignInAt: string | null;
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

export interface HstsPreloadTable {
  /** A force-https entry of Chromium's list (lower case, ASCII). */
  name: string;
  includeSubdomains: number;
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
  securityAudits: SecurityAuditsTable;
  performanceChecks: PerformanceChecksTable;
  hstsPreload: HstsPreloadTable;
}
