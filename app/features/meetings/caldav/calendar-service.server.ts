import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { OutboxSend } from "#app/lib/outbox/outbox-worker.server.ts";
import type { BusyTimes } from "../meeting-store.server.ts";
import type { CaldavNetwork } from "./caldav-http.server.ts";
import { createBusyTimes, MAX_CALENDAR_ANSWER_BYTES, type RefreshOutcome } from "./calendar-busy.server.ts";
import {
  type CalendarDeps,
  type CalendarStatus,
  type ConnectInput,
  type ConnectOutcome,
  calendarStatus,
  connectCalendar,
  disconnectCalendar,
} from "./calendar-connections.server.ts";
import { createCalendarEventSender } from "./calendar-events.server.ts";

// The hosts' CalDAV calendars as one service (issue 34), wired by the composition root: busy times
// for the slot engine, the outbox sender that writes meetings into calendars, the background refresh,
// and the three calls staff pages make (connect, disconnect, status).

export type CalendarTiming = {
  refreshEveryMs: number;
  backgroundEveryMs: number;
  freshWithinMs: number;
  waitMs: number;
  requestTimeoutMs: number;
};

export const CALENDAR_TIMING: CalendarTiming = {
  /** Busy times older than this are read again (by the background work, or a slot query meeting them). */
  refreshEveryMs: 5 * 60_000,
  /** How often the background looks for calendars due a refresh. */
  backgroundEveryMs: 60_000,
  /** Before a booking is confirmed the calendar is read again unless read this recently. */
  freshWithinMs: 10_000,
  /** The longest a page or a booking waits for a calendar; then the cache answers. */
  waitMs: 3_000,
  /** One exchange's deadline (a refresh goes on in the background after waitMs). */
  requestTimeoutMs: 8_000,
};

export type CalendarServiceOptions = {
  db: Kysely<Database>;
  secret: string;
  network: CaldavNetwork;
  now?: () => number;
  /** PUBLIC_URL: the lead's link in events queued without a request (connecting a calendar). */
  publicUrl?: string;
  /** The organizer's address for a host without one (MAIL_FROM's). */
  fallbackAddress: string;
  timing?: Partial<CalendarTiming>;
  maxAnswerBytes?: number;
};

export type CalendarService = {
  /** Stores the host's calendar once the server answers the credentials as a calendar (PROPFIND). */
  connect(hostId: number, input: ConnectInput): Promise<ConnectOutcome>;
  /** Forgets the host's calendar and its busy times; false when none was connected. */
  disconnect(hostId: number): Promise<boolean>;
  /** The connection's URL, user name, last refresh and last error; null when none. */
  status(hostId: number): Promise<CalendarStatus | null>;
  /** Reads the host's calendar now and waits for it (a "refresh now" button, tests). */
  refresh(hostId: number): Promise<RefreshOutcome>;
  busyTimes: BusyTimes;
  busyTimesBeforeBooking: BusyTimes;
  /** The outbox sender of CALENDAR_EVENT messages. */
  eventSender: OutboxSend;
  /** Starts the background refresh; stop() waits for a refresh in progress. */
  startBackground(logError: (message: string) => void): { stop(): Promise<void> };
  /** Resolves when no refresh of this process is running. */
  settle(): Promise<void>;
};

export function createCalendarService(options: CalendarServiceOptions): CalendarService {
  const timing = { ...CALENDAR_TIMING, ...options.timing };
  const deps: CalendarDeps = {
    db: options.db,
    secret: options.secret,
    network: options.network,
    now: options.now ?? (() => Date.now()),
    requestTimeoutMs: timing.requestTimeoutMs,
  };
  const busy = createBusyTimes({
    ...deps,
    refreshEveryMs: timing.refreshEveryMs,
    freshWithinMs: timing.freshWithinMs,
    waitMs: timing.waitMs,
    maxAnswerBytes: options.maxAnswerBytes ?? MAX_CALENDAR_ANSWER_BYTES,
  });
  return {
    connect: (hostId, input) => connectCalendar(deps, hostId, input),
    disconnect: (hostId) => disconnectCalendar(deps.db, hostId),
    status: (hostId) => calendarStatus(deps.db, hostId),
    refresh: busy.refresh,
    busyTimes: busy.busyTimes,
    busyTimesBeforeBooking: busy.busyTimesBeforeBooking,
    eventSender: createCalendarEventSender({
      ...deps,
      publicUrl: options.publicUrl,
      fallbackAddress: options.fallbackAddress,
    }),
    startBackground(logError) {
      let stopped = false;
      let pass: Promise<unknown> = Promise.resolve();
      // A little before the slot queries would find them stale, so a visitor rarely waits for one.
      const olderThan = Math.max(0, timing.refreshEveryMs - timing.backgroundEveryMs);
      const run = () => {
        pass = pass.then(() =>
          busy
            .refreshDue(olderThan, () => stopped)
            .catch((error: Error) => logError(`Refreshing calendars failed: ${error.message}`)),
        );
      };
      const timer = setInterval(run, timing.backgroundEveryMs);
      timer.unref();
      run();
      return {
        async stop() {
          stopped = true;
          clearInterval(timer);
          await pass;
          await busy.settle();
        },
      };
    },
    settle: busy.settle,
  };
}
