import { z } from "zod";
import { PUBLISHED_RETENTION } from "./lib/site/retention-periods.ts";

// Parsed once at start-up: a bad value stops the server with every problem listed, not at first use.
const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
    HOST: z.string().min(1).default("0.0.0.0"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Number of reverse proxies in front of the app whose X-Forwarded-* headers are trusted. */
    TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
    /** Send Strict-Transport-Security: `auto` when the request arrived over HTTPS, or always/never. */
    HSTS: z.enum(["auto", "always", "off"]).default("auto"),
    LOG_LEVEL: z.enum(["silent", "error", "info"]).default("info"),
    /** The request log: JSON lines (default), or readable lines (default when NODE_ENV=development). */
    LOG_FORMAT: z.enum(["json", "pretty"]).optional(),
    /** Absent, a path, `file:` or `sqlite:` → embedded SQLite (default ./data/app.sqlite); `postgres://` → PostgreSQL. */
    DATABASE_URL: z.string().min(1).optional(),
    /** PostgreSQL connections per app instance. */
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
    /**
     * How long a request waits on the database before it is answered 503: a write waiting for a lock
     * another process holds (SQLite), a statement or a frozen connection (PostgreSQL). ADR 008.
     */
    DATABASE_WAIT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
    /** SQLite durability: NORMAL survives a process crash, FULL also an OS crash or power loss (slower). */
    SQLITE_SYNCHRONOUS: z.enum(["NORMAL", "FULL"]).default("NORMAL"),
    /** Signs form time tokens; generated and kept in the database when unset. */
    APP_SECRET: z.string().min(32, "APP_SECRET must be at least 32 characters").optional(),
    /**
     * Bearer token for GET /metrics. Unset: only direct requests from this machine get the metrics,
     * and none behind a proxy (TRUST_PROXY > 0).
     */
    METRICS_TOKEN: z
      .string()
      .min(24, "METRICS_TOKEN must be at least 24 characters")
      .max(512)
      .regex(/^\S+$/, "METRICS_TOKEN must not contain spaces")
      .optional(),
    /** Lead submissions allowed per client address per window (0 turns the limit off). */
    LEAD_RATE_LIMIT: z.coerce.number().int().min(0).max(100_000).default(10),
    LEAD_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(600),
    /** Lead submissions allowed per API key per minute (sliding window; 0 turns the limit off). */
    API_KEY_RATE_LIMIT: z.coerce.number().int().min(0).max(100_000).default(600),
    /** A lead sent sooner than this after the visitor's first page view is marked for review (time trap). */
    LEAD_MIN_FILL_SECONDS: z.coerce.number().min(0).max(600).default(3),
    /** A signed-in staff session ends after this long without a request… */
    SESSION_IDLE_MINUTES: z.coerce.number().int().min(1).max(10_080).default(120),
    /** …and this long after sign-in, whatever happens. */
    SESSION_MAX_HOURS: z.coerce.number().int().min(1).max(720).default(24),
    /**
     * Two-factor sign-in for every staff account (issue 13, ADR 017): `true` makes an account without
     * it set it up right after its password, and nobody can turn theirs off.
     */
    STAFF_2FA_REQUIRED: z
      .enum(["true", "false"], "STAFF_2FA_REQUIRED must be true or false")
      .default("false")
      .transform((value) => value === "true"),
    /** Days the staff access log keeps an entry (sign-ins, exports, erasures, account changes). */
    ACCESS_LOG_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
    /** Creates this admin at start-up when the database has no admin yet (then unset them). */
    ADMIN_USERNAME: z.string().min(3).optional(),
    ADMIN_PASSWORD: z.string().min(12, "ADMIN_PASSWORD must be at least 12 characters").optional(),
    /** SMTP server for new-lead emails, e.g. smtps://user:password@smtp.example.com:465. Unset: no emails. */
    SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
    /** Sender of notification emails. */
    MAIL_FROM: z.string().min(3).default("Clausebridge website <no-reply@localhost>"),
    /** Where new-lead emails go (the sales team). Required with SMTP_URL. */
    LEAD_NOTIFICATION_TO: z.string().min(3).optional(),
    /**
     * Lets the website audits reach private, loopback and link-local addresses (an intranet
     * deployment, tests). Off: they reach public websites only, so they cannot probe our own network.
     */
    AUDIT_ALLOW_PRIVATE_TARGETS: z
      .enum(["true", "false"], "AUDIT_ALLOW_PRIVATE_TARGETS must be true or false")
      .default("false")
      .transform((value) => value === "true"),
    /**
     * Lets outgoing webhooks reach private, loopback and link-local addresses (a receiver on the
     * intranet, tests). Off: public addresses only. Separate from the audits' switch on purpose.
     */
    WEBHOOK_ALLOW_PRIVATE_TARGETS: z
      .enum(["true", "false"], "WEBHOOK_ALLOW_PRIVATE_TARGETS must be true or false")
      .default("false")
      .transform((value) => value === "true"),
    /**
     * Lets the hosts' CalDAV calendars (issue 34) be reached at private, loopback and link-local
     * addresses (a Radicale or Nextcloud on the intranet, tests). Off: public addresses only. Cloud
     * metadata stays refused either way.
     */
    CALDAV_ALLOW_PRIVATE_TARGETS: z
      .enum(["true", "false"], "CALDAV_ALLOW_PRIVATE_TARGETS must be true or false")
      .default("false")
      .transform((value) => value === "true"),
    /**
     * Cookieless page-view counting (issue 12, ADR 014): `on` counts public page views on the server,
     * `off` counts nothing.
     */
    ANALYTICS: z.enum(["on", "off"], "ANALYTICS must be on or off").default("on"),
    /**
     * Days of raw page views kept besides today (UTC); older days are rolled up into daily totals,
     * kept, and their raw views deleted (features/analytics/rollup.server.ts).
     */
    ANALYTICS_RAW_DAYS: z.coerce
      .number("ANALYTICS_RAW_DAYS must be a whole number of days")
      .int("ANALYTICS_RAW_DAYS must be a whole number of days")
      .min(1, "ANALYTICS_RAW_DAYS must be at least 1")
      .max(3650, "ANALYTICS_RAW_DAYS must be at most 3650")
      .default(PUBLISHED_RETENTION.analyticsRawDays),
    /**
     * Months without activity (submission, status, owner or spam change, note) after which the daily
     * purge anonymises a lead: personal fields cleared, out of the list and the export, still counted
     * (lib/purge.server.ts, features/leads/lead-retention.server.ts).
     */
    LEAD_RETENTION_MONTHS: z.coerce
      .number("LEAD_RETENTION_MONTHS must be a whole number of months")
      .int("LEAD_RETENTION_MONTHS must be a whole number of months")
      .min(1, "LEAD_RETENTION_MONTHS must be at least 1")
      .max(240, "LEAD_RETENTION_MONTHS must be at most 240")
      .default(PUBLISHED_RETENTION.leadMonths),
    /** Days a lead held as spam is kept for review (since it was held or last changed), then deleted. */
    SPAM_RETENTION_DAYS: z.coerce
      .number("SPAM_RETENTION_DAYS must be a whole number of days")
      .int("SPAM_RETENTION_DAYS must be a whole number of days")
      .min(1, "SPAM_RETENTION_DAYS must be at least 1")
      .max(365, "SPAM_RETENTION_DAYS must be at most 365")
      .default(PUBLISHED_RETENTION.spamDays),
    /** Days a sent lead email's outbox row is kept (webhook deliveries follow their own 30-day log). */
    OUTBOX_RETENTION_DAYS: z.coerce
      .number("OUTBOX_RETENTION_DAYS must be a whole number of days")
      .int("OUTBOX_RETENTION_DAYS must be a whole number of days")
      .min(1, "OUTBOX_RETENTION_DAYS must be at least 1")
      .max(3650, "OUTBOX_RETENTION_DAYS must be at most 3650")
      .default(PUBLISHED_RETENTION.outboxSentDays),
    /** Audits (security audits and performance checks) running at once; each audit is a child process. */
    AUDIT_MAX_RUNNING: z.coerce.number().int().min(1).max(16).default(2),
    /** Audits that may wait for a running one to finish; beyond, the answer is 503 "busy, try again". */
    AUDIT_MAX_QUEUED: z.coerce.number().int().min(0).max(100).default(4),
    /** The Chromium the lab check starts (ADR 031); unset, Debian's /usr/bin/chromium. */
    CHROMIUM_PATH: z
      .string()
      .trim()
      .max(4096, "CHROMIUM_PATH must be at most 4096 characters")
      .regex(/^\//, "CHROMIUM_PATH must be an absolute path, e.g. /usr/bin/chromium")
      .optional(),
    /** Seconds between each instance's looks for due watches (issue 25); a run starts at most this late. */
    WATCH_POLL_SECONDS: z.coerce
      .number("WATCH_POLL_SECONDS must be a whole number of seconds")
      .int("WATCH_POLL_SECONDS must be a whole number of seconds")
      .min(1, "WATCH_POLL_SECONDS must be at least 1")
      .max(3600, "WATCH_POLL_SECONDS must be at most 3600")
      .default(30),
  })
  .refine((env) => !env.ADMIN_USERNAME === !env.ADMIN_PASSWORD, {
    message: "ADMIN_USERNAME and ADMIN_PASSWORD go together",
    path: ["ADMIN_PASSWORD"],
  })
  .refine((env) => !env.SMTP_URL || env.LEAD_NOTIFICATION_TO, {
    message: "LEAD_NOTIFICATION_TO is required when SMTP_URL is set",
    path: ["LEAD_NOTIFICATION_TO"],
  });

export type Env = z.infer<typeof EnvSchema>;

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  // Treat empty strings as unset so `PORT=` in a .env file falls back to the default.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = EnvSchema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid environment configuration:\n${problems.join("\n")}`);
  }
  return result.data;
}
