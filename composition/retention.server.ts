import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { Env } from "#app/env.server.ts";
import { countExpiredCodeFailures, pruneCodeFailures } from "#app/features/auth/code-failures.server.ts";
import { countExpiredLoginAttempts, pruneLoginAttempts } from "#app/features/auth/login-throttle.server.ts";
import { countExpiredPendingLogins, prunePendingLogins } from "#app/features/auth/pending-logins.server.ts";
import { countExpiredSessions, pruneSessions } from "#app/features/auth/sessions.server.ts";
import {
  anonymiseExpiredLeads,
  countLeadsToAnonymise,
  countSpamToDelete,
  daysBefore,
  deleteExpiredSpam,
  monthsBefore,
} from "#app/features/leads/lead-retention.server.ts";
import {
  countExpiredNotifications,
  deleteExpiredNotifications,
  NOTIFICATION_DAYS,
  READ_NOTIFICATION_DAYS,
} from "#app/features/notifications/notification-store.server.ts";
import { WEBHOOK_DELIVERY } from "#app/features/webhooks/webhook-store.server.ts";
import { countSent, deleteSent } from "#app/lib/outbox/outbox.server.ts";
import type { PurgeCategory } from "#app/lib/purge.server.ts";
import { countExpiredRateLimits, pruneRateLimits } from "#app/lib/rate-limit.server.ts";
import { PUBLISHED_RETENTION } from "#app/lib/site/retention-periods.ts";
import { anonymiseMeetingsOfLeads } from "./meeting-privacy.server.ts";

// What the retention purge removes (issue 13; docs/operations.md "Retention"), in the order it runs:
// each category from the feature that owns the data, with the period the environment sets. The
// server's daily run (services.server.ts) and `npm run db:purge` (scripts/db-purge.ts) share it.

type RetentionEnv = Pick<
  Env,
  | "LEAD_RETENTION_MONTHS"
  | "SPAM_RETENTION_DAYS"
  | "OUTBOX_RETENTION_DAYS"
  | "SESSION_IDLE_MINUTES"
  | "SESSION_MAX_HOURS"
>;

export function retentionCategories(db: Kysely<Database>, env: RetentionEnv): PurgeCategory[] {
  const months = env.LEAD_RETENTION_MONTHS;
  const spamDays = env.SPAM_RETENTION_DAYS;
  const outbox = (now: Date) => ({
    cutoff: daysBefore(now, env.OUTBOX_RETENTION_DAYS),
    except: [WEBHOOK_DELIVERY],
  });
  const sessions = {
    idleMs: env.SESSION_IDLE_MINUTES * 60_000,
    absoluteMs: env.SESSION_MAX_HOURS * 3_600_000,
  };
  return [
    {
      // Held spam first: a held lead is deleted at its own period, never anonymised.
      key: "spamDeleted",
      label: `held spam untouched for ${spamDays} days (deleted)`,
      count: (now) => countSpamToDelete(db, daysBefore(now, spamDays)),
      purge: ({ now, limit, assertHeld }) =>
        deleteExpiredSpam({ db, cutoff: daysBefore(now, spamDays), now, limit, assertHeld }),
    },
    {
      // Their meetings' attendee details go with them (meeting-privacy.server.ts).
      key: "leadsAnonymised",
      label: `leads without activity for ${months} months (anonymised)`,
      count: (now) => countLeadsToAnonymise(db, monthsBefore(now, months)),
      purge: ({ now, limit, assertHeld }) =>
        anonymiseExpiredLeads({
          db,
          cutoff: monthsBefore(now, months),
          now,
          limit,
          assertHeld,
          alsoAnonymise: anonymiseMeetingsOfLeads,
        }),
    },
    {
      key: "outboxSent",
      label: `sent lead emails' outbox rows over ${env.OUTBOX_RETENTION_DAYS} days old (deleted)`,
      count: (now) => countSent(db, outbox(now)),
      purge: ({ now, limit, assertHeld }) => deleteSent(db, outbox(now), limit, assertHeld),
    },
    {
      // The bell's (ADR 043): fixed periods, not a setting; they name staff and a lead's id only.
      key: "notificationsExpired",
      label: `notifications read over ${READ_NOTIFICATION_DAYS} days ago, or over ${NOTIFICATION_DAYS} days old (deleted)`,
      count: (now) => countExpiredNotifications(db, now),
      purge: ({ now, limit, assertHeld }) => deleteExpiredNotifications(db, now, limit, assertHeld),
    },
    // Pruned every 10 minutes too, as soon as they expire: here they are counted, and swept up
    // when the housekeeping has not run (a command-line purge, a stopped server).
    {
      key: "sessionsExpired",
      label: "expired staff sessions (deleted)",
      count: (now) => countExpiredSessions(db, sessions, now),
      purge: ({ now }) => pruneSessions(db, sessions, now),
    },
    {
      key: "pendingSignInsExpired",
      label: "two-factor sign-ins left at their second step past 5 minutes (deleted)",
      count: (now) => countExpiredPendingLogins(db, now),
      purge: ({ now }) => prunePendingLogins(db, now),
    },
    {
      key: "signInThrottleExpired",
      label: "sign-in throttle counters past their window (deleted)",
      count: (now) => countExpiredLoginAttempts(db, now.getTime()),
      purge: ({ now }) => pruneLoginAttempts(db, now.getTime()),
    },
    {
      key: "wrongCodeCountsExpired",
      label: "wrong two-factor code counts per account and day over 30 days old (deleted)",
      count: (now) => countExpiredCodeFailures(db, now),
      purge: ({ now }) => pruneCodeFailures(db, now),
    },
    {
      key: "rateLimitsExpired",
      label: "form rate-limit counters past their window (deleted)",
      count: (now) => countExpiredRateLimits(db, now.getTime()),
      purge: ({ now }) => pruneRateLimits(db, now.getTime()),
    },
  ];
}

/**
 * The settings whose value differs from what the privacy policy publishes
 * (lib/site/retention-periods.ts): start-up names them, since the policy must then change too.
 */
export function retentionDifferingFromPolicy(env: RetentionEnv & Pick<Env, "ANALYTICS_RAW_DAYS">): string[] {
  const published: [keyof typeof env, number][] = [
    ["LEAD_RETENTION_MONTHS", PUBLISHED_RETENTION.leadMonths],
    ["SPAM_RETENTION_DAYS", PUBLISHED_RETENTION.spamDays],
    ["OUTBOX_RETENTION_DAYS", PUBLISHED_RETENTION.outboxSentDays],
    ["ANALYTICS_RAW_DAYS", PUBLISHED_RETENTION.analyticsRawDays],
  ];
  return published
    .filter(([key, value]) => env[key] !== value)
    .map(([key, value]) => `${key}=${env[key]} (the policy says ${value})`);
}
