import { randomBytes } from "node:crypto";
import type { Registry } from "prom-client";
import { loadAppSecret } from "#app/db/app-secret.server.ts";
import { type AppDatabase, openDatabase } from "#app/db/database.server.ts";
import { migrateToLatest } from "#app/db/migrate.server.ts";
import { checkReadiness, type Readiness } from "#app/db/readiness.server.ts";
import { type Env, parseEnv } from "#app/env.server.ts";
import {
  type AnalyticsServices,
  analyticsServicesKey,
} from "#app/features/analytics/analytics-context.server.ts";
import { createDailySalts } from "#app/features/analytics/daily-salt.server.ts";
import { createLeadAttribution } from "#app/features/analytics/lead-attribution.server.ts";
import { pageTrafficSince } from "#app/features/analytics/page-traffic.server.ts";
import {
  createPageViewCounter,
  type PageViewCounter,
} from "#app/features/analytics/page-view-counter.server.ts";
import { createRollupJob } from "#app/features/analytics/rollup.server.ts";
import { type AuditServices, auditServicesKey } from "#app/features/audits/audit-context.server.ts";
import { createAuditSlots } from "#app/features/audits/audit-slots.server.ts";
import { hstsPreloadListInfo } from "#app/features/audits/hsts-preload-list.server.ts";
import { runLabCheck } from "#app/features/audits/lab/lab-check.server.ts";
import { chromiumPath, isExecutable } from "#app/features/audits/lab/lab-chromium.server.ts";
import { runTlsCheck } from "#app/features/audits/tls/tls-check.server.ts";
import {
  createAlertEmailSender,
  WATCH_ALERT_EMAIL,
  type WatchAlertEmailPayload,
} from "#app/features/audits/watches/watch-alert-email.server.ts";
import { ALERT_CONDITION_LABELS, type AlertCondition } from "#app/features/audits/watches/watch-alerts.ts";
import { type WatchServices, watchServicesKey } from "#app/features/audits/watches/watch-context.server.ts";
import { type AlertSink, createWatchRunner } from "#app/features/audits/watches/watch-run.server.ts";
import {
  availableChecks,
  type CheckRunners,
  labRunner,
  performanceRunner,
  securityRunner,
  tlsRunner,
} from "#app/features/audits/watches/watch-runners.server.ts";
import { createWatchScheduler } from "#app/features/audits/watches/watch-scheduler.server.ts";
import { type AuthServices, authServicesKey } from "#app/features/auth/auth-context.server.ts";
import { createAuthService } from "#app/features/auth/auth-service.server.ts";
import { readSessionToken } from "#app/features/auth/cookies.server.ts";
import { createHashingQueue } from "#app/features/auth/hashing-queue.server.ts";
import { createLoginThrottle } from "#app/features/auth/login-throttle.server.ts";
import { listStaff } from "#app/features/auth/staff.server.ts";
import { countAdmins, createUser } from "#app/features/auth/users.server.ts";
import { contentFilesForImport } from "#app/features/content/blog.server.ts";
import { createImageProcessor } from "#app/features/content/media/image-worker.server.ts";
import { type MediaServices, mediaServicesKey } from "#app/features/content/media/media-context.server.ts";
import {
  createMediaLibrary,
  UPLOAD_WINDOW_MS,
  UPLOADS_PER_HOUR,
} from "#app/features/content/media/media-library.server.ts";
import { type PostsServices, postsServicesKey } from "#app/features/content/posts/posts-context.server.ts";
import { createPostsService } from "#app/features/content/posts/posts-service.server.ts";
import {
  createPublishedSite,
  type PublishedSite,
} from "#app/features/content/published/published-site.server.ts";
import type { FallenDuePosition } from "#app/features/leads/lead-activities.server.ts";
import { createLeadAdmin, findLeadListItem, type LeadAdmin } from "#app/features/leads/lead-admin.server.ts";
import { compactLeadCounts, LEAD_COUNTS_COMPACT_MS } from "#app/features/leads/lead-counts.server.ts";
import { createLeadIntake } from "#app/features/leads/lead-intake.server.ts";
import { createOutboxSender } from "#app/features/leads/lead-notification.server.ts";
import {
  createLeadService,
  type LeadChangeHook,
  type LeadService,
} from "#app/features/leads/lead-service.server.ts";
import { createLeadSummaryCache } from "#app/features/leads/lead-summary.server.ts";
import { type LeadsServices, leadsServicesKey } from "#app/features/leads/leads-context.server.ts";
import {
  createTaskDigestSender,
  queueTaskDigests,
  TASK_DIGEST_EMAIL,
  TASK_DIGEST_SWEEP_MS,
} from "#app/features/leads/task-digest.server.ts";
import { CALENDAR_EVENT } from "#app/features/meetings/caldav/calendar-connections.server.ts";
import { queueCalendarEvent } from "#app/features/meetings/caldav/calendar-events.server.ts";
import { createCalendarService } from "#app/features/meetings/caldav/calendar-service.server.ts";
import { leadBookingToken } from "#app/features/meetings/manage-link.server.ts";
import { createMeetingEmailSender, MEETING_EMAIL } from "#app/features/meetings/meeting-email.server.ts";
import { queueDueReminders, REMINDER_SWEEP_MS } from "#app/features/meetings/meeting-reminders.server.ts";
import {
  type MeetingStaffServices,
  meetingStaffServicesKey,
} from "#app/features/meetings/meeting-staff-context.server.ts";
import { type MeetingServices, meetingServicesKey } from "#app/features/meetings/meetings-context.server.ts";
import { SLOT_QUERIES_PER_LEAD } from "#app/features/meetings/slot-query.server.ts";
import { staffTimeZones } from "#app/features/meetings/staff-time-zones.server.ts";
import { createNotificationEmailSender } from "#app/features/notifications/notification-email.server.ts";
import {
  type NotificationsServices,
  notificationsServicesKey,
} from "#app/features/notifications/notifications-context.server.ts";
import { type PeopleServices, peopleServicesKey } from "#app/features/people/people-context.server.ts";
import { type WebhookServices, webhookServicesKey } from "#app/features/webhooks/webhook-context.server.ts";
import { createWebhookSender } from "#app/features/webhooks/webhook-sender.server.ts";
import {
  DELIVERY_RETENTION_DAYS,
  forgetLeadDeliveries,
  pruneDeliveries,
  queueEventData,
  queueWebhookEvent,
  WEBHOOK_DELIVERY,
} from "#app/features/webhooks/webhook-store.server.ts";
import { pruneAccessLog } from "#app/lib/access-log.server.ts";
import { createMailTransport, type MailTransport } from "#app/lib/mailer.server.ts";
import {
  metrics,
  registry as metricsRegistry,
  setMetricsSources,
  statusClass,
} from "#app/lib/metrics.server.ts";
import { enqueue, LEAD_NOTIFICATION, NOTIFICATION_EMAIL } from "#app/lib/outbox/outbox.server.ts";
import {
  dispatchByKind,
  type OutboxSend,
  type OutboxWorker,
  startOutboxWorker,
} from "#app/lib/outbox/outbox-worker.server.ts";
import { createDailyPurge } from "#app/lib/purge.server.ts";
import { createRateLimiter } from "#app/lib/rate-limit.server.ts";
import {
  clientAddressContext,
  type ProvidedServices,
  provideFallbackServices,
  provideServices,
  type ServiceKey,
} from "#app/lib/service-context.server.ts";
import { type StaffSessions, staffSessionsKey } from "#app/lib/staff-guard.server.ts";
import { createMeetingChangeHooks } from "./meeting-changes.server.ts";
import { createMeetingLeads } from "./meeting-leads.server.ts";
import {
  createLeadDetails,
  createNotificationProducers,
  notifyFallenDueTasks,
  TASK_DUE_LOOKBACK_MS,
} from "./notifications.server.ts";
import { createPeopleLeads } from "./people-leads.server.ts";
import { retentionCategories, retentionDifferingFromPolicy } from "./retention.server.ts";

const RATE_LIMIT_PRUNE_MS = 10 * 60 * 1000;
/** A queued audit waits at most this long for one of the running ones to finish. */
const AUDIT_MAX_WAIT_MS = 60_000;

// Start-up hints (no admin yet, a stale preload list, retention settings) are plain lines on
// stderr: stdout carries the JSON log alone (issue 22).

/**
 * There are no default credentials. ADMIN_USERNAME/ADMIN_PASSWORD create the first admin once, on a
 * database without one; otherwise start-up says how to create one.
 */
async function ensureFirstAdmin(database: AppDatabase, env: Env): Promise<void> {
  if ((await countAdmins(database.db)) > 0) return;
  if (env.ADMIN_USERNAME && env.ADMIN_PASSWORD) {
    try {
      await createUser(database.db, {
        username: env.ADMIN_USERNAME,
        password: env.ADMIN_PASSWORD,
        isAdmin: true,
      });
    } catch (error) {
      // Several instances starting together: one of them created it first.
      if ((await countAdmins(database.db)) > 0) return;
      throw error;
    }
    if (env.LOG_LEVEL !== "silent") {
      console.error(
        `Created the admin "${env.ADMIN_USERNAME}" from ADMIN_USERNAME; remove ADMIN_PASSWORD from the environment.`,
      );
    }
    return;
  }
  if (env.LOG_LEVEL !== "silent") {
    console.error(
      "No admin account yet: create one with `npm run admin:create -- <username>` (it asks for the password).",
    );
  }
}

/** Chromium ships a new list every few weeks; past this a refresh is suggested at start-up. */
const PRELOAD_LIST_STALE_DAYS = 45;

/** Says at start-up when the audits cannot give the Observatory's preload credit, or soon give stale credit. */
async function reportHstsPreloadList(database: AppDatabase, env: Env, now = Date.now()): Promise<void> {
  if (env.LOG_LEVEL === "silent") return;
  const info = await hstsPreloadListInfo(database.db);
  const command = "`npm run audit:update-hsts-preload`";
  if (!info) {
    console.error(
      `Website audits: no HSTS preload list yet, so preloaded sites miss the Observatory's 5 points; download it with ${command}.`,
    );
    return;
  }
  const days = Math.floor((now - Date.parse(info.retrievedAt)) / 86_400_000);
  if (days > PRELOAD_LIST_STALE_DAYS)
    console.error(`Website audits: the HSTS preload list is ${days} days old; refresh it with ${command}.`);
}

/**
 * The privacy policy publishes the retention periods (lib/site/retention-periods.ts): a
 * setting that differs makes it untrue until the policy and its "Changes" are updated.
 */
function reportRetentionSettings(env: Env): void {
  if (env.LOG_LEVEL === "silent") return;
  const differing = retentionDifferingFromPolicy(env);
  if (differing.length > 0)
    console.error(
      `Retention: ${differing.join(", ")}. Update the privacy policy's periods and its "Changes" (app/lib/site/retention-periods.ts, privacy-changes.ts) to match.`,
    );
}

/**
 * What lives longer than a request. Request handlers see only their feature's part of it, through
 * the keys in `provided`; server.ts uses the rest (start-up, background work, shutdown, metrics).
 */
export type Services = {
  /** Each feature's services under its key (features/<name>/<name>-context.server.ts), for every request. */
  provided: ProvidedServices;
  env: Env;
  database: AppDatabase;
  secret: string;
  leads: LeadService;
  /** Staff's changes to leads (status, owner, spam, bulk, erasure), with their history. */
  leadAdmin: LeadAdmin;
  /**
   * Counts public page views (issue 12, ADR 014): the HTTP server asks it about each request and
   * reports each public page it served; views are written in batches. Shutdown calls its stop()
   * once the requests are done and before closing the database.
   */
  pageViews: PageViewCounter;
  /**
   * What readers see of the content studio's posts (issue 24): server/published-pages.ts keeps each
   * page it rendered for the current generation. Its check runs with the background work.
   */
  publishedSite: Pick<PublishedSite, "generation" | "onChange">;
  /**
   * Starts what runs beside the requests: the outbox worker, which always delivers webhooks and also
   * emails new leads when SMTP_URL is set, and the pruning of dead rows. server.ts calls it once;
   * tests leave it alone and drive the outbox themselves. A method rather than an export because
   * server.ts reaches the app only through the build's entry. What the jobs report (the retention
   * purge's counts) goes to `log`: server.ts passes its JSON log, so stdout stays one JSON object a
   * line (issue 22); without one, plain lines on stderr.
   */
  startBackgroundWork(log?: EventLog): BackgroundWork;
  /**
   * Resolves once no write started by a request is still running. A request whose client went away
   * keeps running to its end; shutdown waits for this before closing the database.
   */
  whenIdle(): Promise<void>;
  /** For `GET /readyz`: the database answers within a second and carries every migration. */
  readiness(): Promise<Readiness>;
  /** The process's Prometheus metrics, for `GET /metrics` (server/metrics-endpoint.ts). */
  metricsRegistry: Registry;
  /** The instruments server.ts records requests with (the build's copy, like the registry). */
  metricsInstruments: { metrics: typeof metrics; statusClass: typeof statusClass };
};

/** Where background jobs report what they did: the server's pino log (stdout, JSON). */
export type EventLog = { info(message: string): void };

export type BackgroundWork = {
  /** Waits for a send in progress; call before closing the database. */
  stop(): Promise<void>;
};

/**
 * Opens the database, applies pending migrations (a failure throws a MigrationError and start-up
 * stops) and wires the services. server.ts calls this once per process.
 */
export async function createServices(env: Env, { timeTrap = true } = {}): Promise<Services> {
  const database = openDatabase(env.DATABASE_URL, {
    sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
    poolSize: env.DATABASE_POOL_SIZE,
    waitMs: env.DATABASE_WAIT_MS,
  });
  try {
    await migrateToLatest(database.db);
    setMetricsSources({
      outbox: async () => {
        const rows = await database.db
          .selectFrom("outbox")
          .select(["status", (eb) => eb.fn.countAll().as("count")])
          .where("status", "in", ["pending", "failed"])
          .groupBy("status")
          .execute();
        const count = (status: string) => Number(rows.find((row) => row.status === status)?.count ?? 0);
        return { pending: count("pending"), failed: count("failed") };
      },
      poolUse: database.poolUse,
    });
    const secret = await loadAppSecret(database.db, env.APP_SECRET);
    const rateLimiter = createRateLimiter(database.db, {
      limit: env.LEAD_RATE_LIMIT,
      windowMs: env.LEAD_RATE_WINDOW_SECONDS * 1000,
    });
    // Slot queries are cheaper than a lead and a visitor browses weeks: six times the forms' limit in
    // the same window, off with it (LEAD_RATE_LIMIT=0).
    const slotQueries = createRateLimiter(database.db, {
      limit: env.LEAD_RATE_LIMIT * SLOT_QUERIES_PER_LEAD,
      windowMs: env.LEAD_RATE_WINDOW_SECONDS * 1000,
    });
    const logError = env.LOG_LEVEL === "silent" ? () => {} : (message: string) => console.error(message);
    // One salt per day for page views and leads alike: a lead's visitor id is its page views'.
    const salts = createDailySalts(database.db);
    const leadAttribution = createLeadAttribution({
      db: database.db,
      salts,
      enabled: env.ANALYTICS === "on",
      logger: { error: logError },
    });
    // Issue 35: the bell's notifications, produced in the transactions of the changes they report.
    const notifications = createNotificationProducers({ email: Boolean(env.SMTP_URL) });
    const leadDetails = createLeadDetails(database.db);
    // Every change to a lead queues its webhook deliveries in the change's own transaction; the lead
    // as the staff API returns it in its list is loaded only when a webhook subscribes to the event.
    const onLeadChange: LeadChangeHook = async (trx, change) => {
      // An erased lead's earlier deliveries that have not gone out yet carry a copy of it: dropped.
      // (Its notifications go in the erasure itself, eraseLeads, which the spam purge uses too.)
      if (change.type === "lead.deleted") await forgetLeadDeliveries(trx, change.leadId);
      // Its new owner hears of it (and gets an e-mail if they chose to, which onQueued sends).
      if (change.assigned)
        await notifications.leadAssigned(trx, {
          leadId: change.leadId,
          occurredAt: change.occurredAt,
          ...change.assigned,
        });
      return queueWebhookEvent(trx, {
        type: change.type,
        webhooks: change.webhooks,
        lead: () => findLeadListItem(trx, change.leadId),
        occurredAt: change.occurredAt,
      });
    };
    const leadService = createLeadService({
      db: database.db,
      secret,
      rateLimiter,
      apiKeyRateLimiter:
        env.API_KEY_RATE_LIMIT > 0
          ? createRateLimiter(database.db, { limit: env.API_KEY_RATE_LIMIT, windowMs: 60_000 })
          : undefined,
      notify: Boolean(env.SMTP_URL),
      onLeadChange,
      minFillMs: env.LEAD_MIN_FILL_SECONDS * 1000,
      timeTrap,
      attribution: leadAttribution,
    });
    const auth = createAuthService({
      db: database.db,
      policy: { idleMs: env.SESSION_IDLE_MINUTES * 60_000, absoluteMs: env.SESSION_MAX_HOURS * 3_600_000 },
      throttle: createLoginThrottle({ db: database.db, secret }),
      hashing: createHashingQueue(),
      secret,
      twoFactorRequired: env.STAFF_2FA_REQUIRED,
    });
    await ensureFirstAdmin(database, env);
    const media = createMediaLibrary({
      db: database.db,
      processor: createImageProcessor(),
      uploadLimiter: createRateLimiter(database.db, {
        limit: UPLOADS_PER_HOUR,
        windowMs: UPLOAD_WINDOW_MS,
      }),
    });
    // What readers see, checked once a second on every instance (started with the background work).
    const publishedSite = createPublishedSite({
      db: database.db,
      image: (id) => media.get(id),
      logger: { error: logError },
    });
    // A change made here shows on this instance's pages before its call answers (the others within
    // a second, by their own check).
    const posts = createPostsService({ db: database.db, secret, afterChange: () => publishedSite.refresh() });
    // Issue 24: the files of content/ become posts on first start (each file once, ADR 025).
    await posts.importContent(contentFilesForImport());
    await reportHstsPreloadList(database, env);
    reportRetentionSettings(env);
    // The hosts' CalDAV calendars (issue 34): busy times for the slots, meetings written as events.
    const calendars = createCalendarService({
      db: database.db,
      secret,
      network: { allowPrivate: env.CALDAV_ALLOW_PRIVATE_TARGETS },
      publicUrl: env.PUBLIC_URL,
      fallbackAddress: /<([^>]+)>/.exec(env.MAIL_FROM)?.[1] ?? env.MAIL_FROM.trim(),
    });
    const inFlight = createInFlightTracker();
    let outboxWorker: OutboxWorker | undefined;
    const leads: LeadService = {
      ...leadService,
      async submit(body, context) {
        const result = await inFlight.track(leadService.submit(body, context));
        // The email goes out within moments instead of at the next poll; the visitor's answer does
        // not wait for it (notify() only schedules the worker).
        // Only when something was queued: a wake-up is a claim attempt, a write, and at hundreds of
        // leads a second those writes would cost more than the leads themselves.
        if (result.kind === "stored" && result.queued) outboxWorker?.notify();
        return result;
      },
    };
    // One worker for every kind of message. Lead emails are claimed only when SMTP is configured: a
    // lead email queued by an instance that has SMTP waits, pending, for one that can send it.
    const startOutbox = (): BackgroundWork => {
      if (outboxWorker) return { stop: async () => {} };
      const senders: Record<string, OutboxSend> = {
        [WEBHOOK_DELIVERY]: createWebhookSender({
          db: database.db,
          allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
        }),
        [CALENDAR_EVENT]: calendars.eventSender,
      };
      let transport: MailTransport | undefined;
      if (env.SMTP_URL) {
        transport = createMailTransport(env.SMTP_URL);
        if (env.LEAD_NOTIFICATION_TO)
          senders[LEAD_NOTIFICATION] = createOutboxSender({
            db: database.db,
            transport,
            mail: { from: env.MAIL_FROM, to: env.LEAD_NOTIFICATION_TO, publicUrl: env.PUBLIC_URL },
          });
        senders[MEETING_EMAIL] = createMeetingEmailSender({
          db: database.db,
          transport,
          settings: { from: env.MAIL_FROM, secret },
        });
        senders[TASK_DIGEST_EMAIL] = createTaskDigestSender({
          db: database.db,
          transport,
          settings: { from: env.MAIL_FROM, publicUrl: env.PUBLIC_URL },
          timeZonesOf: (userIds) => staffTimeZones(database.db, userIds),
        });
        senders[NOTIFICATION_EMAIL] = createNotificationEmailSender({
          db: database.db,
          transport,
          settings: { from: env.MAIL_FROM, publicUrl: env.PUBLIC_URL },
          details: leadDetails,
        });
        senders[WATCH_ALERT_EMAIL] = createAlertEmailSender({
          db: database.db,
          transport,
          settings: { from: env.MAIL_FROM, publicUrl: env.PUBLIC_URL },
        });
      }
      const worker = startOutboxWorker({
        db: database.db,
        dialect: database.dialect,
        ...dispatchByKind(senders),
        logger: { error: logError },
      });
      outboxWorker = worker;
      return {
        async stop() {
          await worker.stop();
          outboxWorker = undefined;
          transport?.close();
        },
      };
    };
    const pageViews = createPageViewCounter({
      db: database.db,
      salts,
      enabled: env.ANALYTICS === "on",
      logger: { error: logError },
    });
    const settleAttributions = () => {
      leadAttribution
        .settleDue()
        .catch((error: Error) => logError(`Settling lead attributions failed: ${error.message}`));
    };
    const startBackgroundWork = (
      log: EventLog = {
        info: env.LOG_LEVEL === "info" ? (message) => console.error(message) : () => {},
      },
    ): BackgroundWork => {
      // Raw page views past ANALYTICS_RAW_DAYS become daily counts (one instance at a time).
      const rollup = createRollupJob({
        db: database.db,
        rawDays: env.ANALYTICS_RAW_DAYS,
        logger: { error: logError },
      });
      // The retention purge (issue 13): once a day, on one instance at a time; it logs counts only.
      const purge = createDailyPurge({
        db: database.db,
        categories: retentionCategories(database.db, env),
        logger: { info: (message) => log.info(message), error: logError },
      });
      // Rate-limit rows whose hits all left their window are dead: drop them now and then (any instance may).
      const prune = setInterval(() => {
        rateLimiter.prune().catch((error: Error) => logError(`Pruning rate limits failed: ${error.message}`));
        auth.prune().catch((error: Error) => logError(`Pruning sessions failed: ${error.message}`));
        pruneAccessLog(database.db, env.ACCESS_LOG_DAYS).catch((error: Error) =>
          logError(`Pruning the access log failed: ${error.message}`),
        );
        pruneDeliveries(database.db, new Date(Date.now() - DELIVERY_RETENTION_DAYS * 86_400_000)).catch(
          (error: Error) => logError(`Pruning webhook deliveries failed: ${error.message}`),
        );
        // Salts are also pruned when a day's salt is first loaded; this covers an instance with no visits.
        if (pageViews.enabled)
          pageViews
            .prune()
            .catch((error: Error) => logError(`Pruning analytics salts failed: ${error.message}`));
        settleAttributions();
        void rollup.run();
        void purge.run();
      }, RATE_LIMIT_PRUNE_MS);
      prune.unref();
      // lead_counts' rows per database session (migration 032) folded together, so reading a count
      // sums a few rows however many sessions have come and gone (PostgreSQL; nothing on SQLite).
      // One pass at a time, and the one in flight is awaited at stop (before the database closes).
      let compacting: Promise<unknown> = Promise.resolve();
      const compactCounts = setInterval(() => {
        compacting = compacting.then(() =>
          compactLeadCounts(database.db).catch((error: Error) =>
            logError(`Compacting lead counts failed: ${error.message}`),
          ),
        );
      }, LEAD_COUNTS_COMPACT_MS);
      compactCounts.unref();
      // Meeting reminders (issue 34), 24 hours and one hour before: every instance sweeps each minute,
      // each reminder's claim lets one of them queue it. One pass at a time, awaited at stop.
      let sweeping: Promise<unknown> = Promise.resolve();
      const reminders = setInterval(() => {
        sweeping = sweeping.then(() =>
          queueDueReminders(database.db, { now: Date.now(), publicUrl: env.PUBLIC_URL })
            .then((queued) => {
              if (queued > 0) notifyOutbox();
            })
            .catch((error: Error) => logError(`Queueing meeting reminders failed: ${error.message}`)),
        );
      }, REMINDER_SWEEP_MS);
      reminders.unref();
      // The morning e-mail of people's tasks (issue 35), at 07:00 in each person's zone: every
      // instance sweeps each minute, each person's day is claimed once. In the same chain, awaited at stop.
      const taskDigests = setInterval(() => {
        sweeping = sweeping.then(() =>
          queueTaskDigests(database.db, {
            now: new Date(),
            timeZonesOf: (userIds) => staffTimeZones(database.db, userIds),
          })
            .then((queued) => {
              if (queued > 0) notifyOutbox();
            })
            .catch((error: Error) => logError(`Queueing task e-mails failed: ${error.message}`)),
        );
      }, TASK_DIGEST_SWEEP_MS);
      taskDigests.unref();
      // Tasks falling due (issue 35) reach their assignees' bells: each instance sweeps each minute
      // from where it left off (a day back after a start); the dedupe key keeps one per task and time.
      let dueFrom: FallenDuePosition = { at: new Date(Date.now() - TASK_DUE_LOOKBACK_MS), id: null };
      const dueTasks = setInterval(() => {
        sweeping = sweeping.then(() =>
          notifyFallenDueTasks(database.db, notifications, { after: dueFrom, until: new Date() })
            .then(({ next, stored }) => {
              dueFrom = next;
              if (stored > 0) notifyOutbox();
            })
            .catch((error: Error) => logError(`Notifying due tasks failed: ${error.message}`)),
        );
      }, TASK_DIGEST_SWEEP_MS);
      dueTasks.unref();
      // Leads another instance stored and could not settle (it stopped): settled now, not at a read.
      settleAttributions();
      void rollup.run();
      void purge.run();
      const outbox = startOutbox();
      // Busy times read again a little before the slot queries would find them stale.
      const calendarRefresh = calendars.startBackground(logError);
      publishedSite.start();
      // Watches (issue 25): each instance looks for due ones; a watch's lease picks the one that runs it.
      const watchScheduler = createWatchScheduler({
        db: database.db,
        runWatch,
        pollMs: env.WATCH_POLL_SECONDS * 1000,
        logger: { error: logError },
      });
      watchScheduler.start();
      return {
        async stop() {
          clearInterval(prune);
          clearInterval(compactCounts);
          clearInterval(reminders);
          clearInterval(taskDigests);
          clearInterval(dueTasks);
          publishedSite.stop();
          // A watch run in progress finishes beside the rest of the shutdown; one that outlasts the
          // server's grace period is abandoned and retried elsewhere once its lease runs out.
          const watchesStopped = watchScheduler.stop();
          await leadAttribution.stop();
          await rollup.stop();
          await purge.stop();
          await compacting;
          await sweeping;
          await outbox.stop();
          await calendarRefresh.stop();
          await watchesStopped;
        },
      };
    };
    const leadSummary = createLeadSummaryCache(database.db);
    const leadAdmin = createLeadAdmin({
      db: database.db,
      secret,
      notify: Boolean(env.SMTP_URL),
      onLeadChange,
      onQueued: () => {
        outboxWorker?.notify();
        leadSummary.invalidate();
      },
    });
    const leadIntake = createLeadIntake({
      db: database.db,
      secret,
      onLeadChange,
      onQueued: () => {
        outboxWorker?.notify();
        leadSummary.invalidate();
      },
    });
    const auditSlots = createAuditSlots({
      maxRunning: env.AUDIT_MAX_RUNNING,
      maxQueued: env.AUDIT_MAX_QUEUED,
      maxWaitMs: AUDIT_MAX_WAIT_MS,
    });
    const notifyOutbox = () => outboxWorker?.notify();
    // Watches (issue 25, ADR 030). The checks a watch can run are the runners registered here; the lab
    // check (ADR 031) is offered when this server has a Chromium to run it with.
    const runnerOptions = { slots: auditSlots, allowPrivate: env.AUDIT_ALLOW_PRIVATE_TARGETS };
    const labBrowser = chromiumPath(env);
    const checkRunners: CheckRunners = {
      security: securityRunner(database.db, runnerOptions),
      performance: performanceRunner(runnerOptions),
      tls: tlsRunner(runTlsCheck, runnerOptions),
      ...(isExecutable(labBrowser)
        ? {
            lab: labRunner(
              (url, options) => runLabCheck(url, { ...options, chromiumPath: labBrowser }),
              runnerOptions,
            ),
          }
        : {}),
    };
    // An alert's notices are queued in its own transaction: the `audit.alert` webhooks and, when this
    // installation sends email, the alert email to the watch's recipients.
    const alertSink: AlertSink = {
      async raise(trx, event) {
        const { alert, watch } = event;
        const webhooks = await queueEventData(trx, {
          type: "audit.alert",
          data: {
            alert: {
              id: alert.id,
              status: event.type,
              condition: alert.condition,
              label: ALERT_CONDITION_LABELS[alert.condition as AlertCondition] ?? alert.condition,
              message: alert.message,
              openedAt: alert.openedAt,
              resolvedAt: alert.resolvedAt,
              resolvedMessage: alert.resolvedMessage,
              detail: alert.detail,
            },
            watch: { id: watch.id, url: watch.url },
          },
          occurredAt: event.occurredAt,
        });
        // Issue 35: an alert that opened is in the bell of everyone who uses the audits.
        if (event.type === "opened")
          await notifications.watchAlert(
            trx,
            {
              id: alert.id,
              label: ALERT_CONDITION_LABELS[alert.condition as AlertCondition] ?? alert.condition,
            },
            watch,
            event.occurredAt,
          );
        if (!env.SMTP_URL || watch.recipients.length === 0) return webhooks;
        const payload: WatchAlertEmailPayload = { alertId: alert.id, type: event.type };
        await enqueue(trx, WATCH_ALERT_EMAIL, payload, event.occurredAt);
        return webhooks + 1;
      },
      afterCommit: notifyOutbox,
    };
    const runWatch = createWatchRunner({
      db: database.db,
      runners: checkRunners,
      sink: alertSink,
      owner: `${process.pid}-${randomBytes(6).toString("hex")}`,
    });
    // A meeting's change and a recorded outcome reach the lead's timeline, its owner and the webhooks.
    const meetingHooks = createMeetingChangeHooks({ onLeadChange, notifications });
    // Each feature gets what it declared it needs, no more (issue 23): the guard the signed-in
    // person, leads their services and a way to settle attributions (owned by analytics), and so on.
    const provided: ProvidedServices = [
      provide<StaffSessions>(staffSessionsKey, {
        currentUser: (request) => auth.currentUser(readSessionToken(request)),
      }),
      provide<AuthServices>(authServicesKey, { auth, database, env }),
      provide<LeadsServices>(leadsServicesKey, {
        database,
        secret,
        env,
        leads,
        leadAdmin,
        leadIntake,
        leadSummary,
        settleAttributions: () => leadAttribution.settleDue(),
        bookingToken: (leadId) => leadBookingToken(secret, leadId),
        timeZonesOf: (userIds) => staffTimeZones(database.db, userIds),
      }),
      provide<PeopleServices>(peopleServicesKey, {
        database,
        leads: createPeopleLeads(database.db, secret, leadAdmin, notifyOutbox),
      }),
      provide<NotificationsServices>(notificationsServicesKey, { database, leadDetails }),
      provide<AuditServices>(auditServicesKey, { database, env, auditSlots }),
      provide<WatchServices>(watchServicesKey, {
        database,
        allowPrivate: env.AUDIT_ALLOW_PRIVATE_TARGETS,
        checks: availableChecks(checkRunners),
        runWatch,
      }),
      provide<WebhookServices>(webhookServicesKey, { database, env, notifyOutbox }),
      provide<MeetingServices>(meetingServicesKey, {
        database,
        slotQueries,
        busyTimes: calendars.busyTimes,
        busyTimesBeforeBooking: calendars.busyTimesBeforeBooking,
        calendars,
        now: () => Date.now(),
        secret,
        publicUrl: env.PUBLIC_URL,
        leads: createMeetingLeads(database.db, leads),
        // Its e-mails, the lead's timeline and webhooks, and its host's calendar event, queued in the
        // change's own transaction.
        onMeetingChange: async (trx, change) => {
          await meetingHooks.onMeetingChange(trx, change);
          await queueCalendarEvent(trx, change);
        },
        meetingChanged: notifyOutbox,
      }),
      provide<MeetingStaffServices>(meetingStaffServicesKey, {
        database,
        now: () => Date.now(),
        onMeetingOutcome: meetingHooks.onMeetingOutcome,
      }),
      provide<AnalyticsServices>(analyticsServicesKey, { database, env, leadAttribution }),
      provide<MediaServices>(mediaServicesKey, { media }),
      provide<PostsServices>(postsServicesKey, {
        posts,
        site: publishedSite,
        // The studio's list shows each post's views and leads; analytics owns them (ADR 026).
        pageTraffic: (paths, since) => pageTrafficSince(database.db, paths, since),
        staffAuthors: async () =>
          (await listStaff(database.db))
            .filter((member) => !member.disabled && member.role !== null)
            .map(({ id, username }) => ({ id, username })),
        publicUrl: env.PUBLIC_URL,
      }),
    ];
    return {
      provided,
      env,
      database,
      secret,
      leads,
      leadAdmin,
      pageViews,
      publishedSite,
      startBackgroundWork,
      whenIdle: inFlight.whenIdle,
      readiness: () => checkReadiness(database.db),
      metricsRegistry,
      metricsInstruments: { metrics, statusClass },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Counts running promises and tells when none is left. */
function createInFlightTracker() {
  let running = 0;
  const waiters: (() => void)[] = [];
  return {
    async track<T>(work: Promise<T>): Promise<T> {
      running++;
      try {
        return await work;
      } finally {
        running--;
        if (running === 0) for (const resolve of waiters.splice(0)) resolve();
      }
    },
    whenIdle(): Promise<void> {
      if (running === 0) return Promise.resolve();
      return new Promise((resolve) => waiters.push(resolve));
    },
  };
}

/** A feature's services under its key, typed together so the root cannot give a feature the wrong shape. */
function provide<T>(key: ServiceKey<T>, value: T): readonly [ServiceKey<unknown>, unknown] {
  return [key as ServiceKey<unknown>, value];
}

export { clientAddressContext, provideServices };

// Under `react-router dev` there is no server.ts to put the services into each request's context:
// they are created once from the environment, with their background work, when a handler first asks.
let devServices: Promise<Services> | undefined;
provideFallbackServices(async () => {
  // The time trap needs the cookie server.ts adds to pages; the Vite dev server does not add it.
  devServices ??= createServices(parseEnv(), { timeTrap: false }).then((services) => {
    services.startBackgroundWork();
    return services;
  });
  return (await devServices).provided;
});
