import { isTimeZone, offsetAt, toInstant } from "#app/lib/time-zones.ts";
import { withDeadline } from "#app/lib/with-deadline.ts";
import type { Interval } from "../availability.ts";
import { type BusyTimes, hostById } from "../meeting-store.server.ts";
import type { BusyTime } from "./busy-parse.ts";
import { parseBusyAnswer } from "./busy-parse-worker.server.ts";
import { caldavExchange, describeCaldavError } from "./caldav-http.server.ts";
import { type CalendarDeps, connectionOf, recordCalendarError } from "./calendar-connections.server.ts";

// A host's busy times from their calendar (issue 34): read with a calendar-query REPORT over the
// host's booking horizon, kept in `calendar_busy` (replaced as a whole), and read from there by every
// slot query. A cache older than a few minutes is refreshed when a slot query meets it (and by the
// background work), and before a booking is confirmed; either waits for the calendar at most a few
// seconds, then goes on with the cache. A refresh that fails (the server hangs, answers 500 or sends
// something that is not a calendar) keeps the cache and records the error on the connection, which
// staff see. `attempted_at` is claimed with a conditional UPDATE, so of several instances meeting the
// same stale cache one reads the calendar.

export type BusyOptions = CalendarDeps & {
  /** A cache older than this is refreshed when read (5 minutes). */
  refreshEveryMs: number;
  /** Before a booking: a read this recent counts as fresh (10 s: a booking's checks read twice). */
  freshWithinMs: number;
  /** The longest a slot query or a booking waits for a refresh before using the cache. */
  waitMs: number;
  /** The largest calendar-query answer read. */
  maxAnswerBytes: number;
};

export const MAX_CALENDAR_ANSWER_BYTES = 4 * 1024 * 1024;
const DAY_MS = 86_400_000;

export type RefreshOutcome = "refreshed" | "failed" | "skipped";

/** 20261207T000000Z: the form time-range wants. */
const icalUtc = (instant: number) =>
  new Date(instant)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

function reportBody(from: number, to: number): string {
  const range = `start="${icalUtc(from)}" end="${icalUtc(to)}"`;
  return `<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:prop><c:calendar-data><c:expand ${range}/></c:calendar-data></d:prop>
  <c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"><c:time-range ${range}/></c:comp-filter></c:comp-filter></c:filter>
</c:calendar-query>`;
}

/** A wall time from the calendar as an instant in its zone (or the host's): a time in a spring gap counts from the gap's end. */
function instantOf(time: BusyTime, hostZone: string): number {
  if (typeof time === "number") return time;
  const zone = time.zone && isTimeZone(time.zone) ? time.zone : hostZone;
  const [date = "", clock = ""] = time.wall.split("T");
  const [year, month, day] = date.split("-").map(Number);
  const [hour, minute] = clock.split(":").map(Number);
  const wall = { year: year ?? 0, month: month ?? 1, day: day ?? 1, hour: hour ?? 0, minute: minute ?? 0 };
  const exact = toInstant(wall, zone);
  if (exact !== null) return exact;
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute);
  return asUtc - offsetAt(asUtc, zone);
}

export function createBusyTimes(options: BusyOptions) {
  const { db } = options;
  const running = new Map<number, Promise<RefreshOutcome>>();

  /** Reads the calendar into the cache, unless another refresh started after `claimBefore`. */
  async function refreshNow(hostId: number, claimBefore: number): Promise<RefreshOutcome> {
    const now = options.now();
    const claimed = await db
      .updateTable("calendarConnections")
      .set({ attemptedAt: new Date(now).toISOString() })
      .where("userId", "=", hostId)
      .where((eb) =>
        eb.or([eb("attemptedAt", "is", null), eb("attemptedAt", "<", new Date(claimBefore).toISOString())]),
      )
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return "skipped";
    try {
      const connection = await connectionOf(options, hostId);
      if (!connection) return "skipped";
      const host = await hostById(db, hostId);
      const zone = host?.profile.timeZone ?? "Europe/London";
      const from = now - DAY_MS;
      const to = now + ((host?.profile.horizonDays ?? 60) + 2) * DAY_MS;
      const answer = await caldavExchange(
        {
          method: "REPORT",
          url: connection.url,
          username: connection.username,
          password: connection.password,
          headers: { depth: "1", "content-type": "application/xml; charset=utf-8" },
          body: reportBody(from, to),
          timeoutMs: options.requestTimeoutMs,
          maxAnswerBytes: options.maxAnswerBytes,
        },
        options.network,
      );
      if (answer.status === 401 || answer.status === 403)
        throw new Error(`The calendar refused the user name and app password (HTTP ${answer.status}).`);
      if (answer.status !== 207) throw new Error(`The calendar server answered HTTP ${answer.status}.`);
      const parsed = await parseBusyAnswer(answer.body, from, to);
      if (!parsed.ok) throw new Error(parsed.error);
      const rows = parsed.busy
        .map((piece) => ({ start: instantOf(piece.start, zone), end: instantOf(piece.end, zone) }))
        .filter((piece) => piece.end > piece.start && piece.end > from && piece.start < to)
        .map((piece) => ({
          hostId,
          startAt: new Date(piece.start).toISOString(),
          endAt: new Date(piece.end).toISOString(),
        }));
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom("calendarBusy").where("hostId", "=", hostId).execute();
        for (let at = 0; at < rows.length; at += 500)
          await trx
            .insertInto("calendarBusy")
            .values(rows.slice(at, at + 500))
            .execute();
        await trx
          .updateTable("calendarConnections")
          .set({ refreshedAt: new Date(options.now()).toISOString(), lastError: null, lastErrorAt: null })
          .where("userId", "=", hostId)
          .execute();
      });
      return "refreshed";
    } catch (error) {
      await recordCalendarError(
        db,
        hostId,
        `Reading busy times failed: ${describeCaldavError(error)}`,
        options.now(),
      );
      return "failed";
    }
  }

  /** One refresh per host at a time in this process; a second caller shares the first's. */
  function refreshOnce(hostId: number, claimBefore: number): Promise<RefreshOutcome> {
    const current = running.get(hostId);
    if (current) return current;
    const started = refreshNow(hostId, claimBefore).finally(() => running.delete(hostId));
    running.set(hostId, started);
    return started;
  }

  async function readCache(hostId: number, from: number, to: number): Promise<Interval[]> {
    const rows = await db
      .selectFrom("calendarBusy")
      .select(["startAt", "endAt"])
      .where("hostId", "=", hostId)
      .where("startAt", "<", new Date(to).toISOString())
      .where("endAt", ">", new Date(from).toISOString())
      .execute();
    return rows.map((row) => ({ start: Date.parse(row.startAt), end: Date.parse(row.endAt) }));
  }

  /** Waits for a refresh at most `waitMs`; the refresh goes on after that and fills the cache for later. */
  async function waitBriefly(refresh: Promise<RefreshOutcome>): Promise<void> {
    await withDeadline(refresh, options.waitMs, "calendar refresh").catch(() => {});
  }

  const cached =
    (maxAgeMs: () => number): BusyTimes =>
    async (hostId, from, to) => {
      const connection = await db
        .selectFrom("calendarConnections")
        .select(["attemptedAt", "refreshedAt"])
        .where("userId", "=", hostId)
        .executeTakeFirst();
      if (!connection) return [];
      const cutoff = options.now() - maxAgeMs();
      // Stale, and nobody (on any instance) has tried since: a calendar that keeps failing is tried
      // once per period, not at every query.
      const older = (at: string | null) => !at || Date.parse(at) < cutoff;
      const stale = older(connection.refreshedAt) && older(connection.attemptedAt);
      if (stale) await waitBriefly(refreshOnce(hostId, cutoff));
      return readCache(hostId, from, to);
    };

  return {
    /** For slot queries: the cache, refreshed first (within `waitMs`) when older than `refreshEveryMs`. */
    busyTimes: cached(() => options.refreshEveryMs),
    /** Before a booking is confirmed: refreshed first (within `waitMs`) unless read in the last `freshWithinMs`. */
    busyTimesBeforeBooking: cached(() => options.freshWithinMs),
    /** Reads `hostId`'s calendar now (unless a refresh is running), waiting for the outcome. */
    refresh: (hostId: number) => refreshOnce(hostId, options.now() + 1),
    /**
     * The background's pass: refreshes every calendar whose last attempt is older than `olderThanMs`,
     * one after another. Resolves with how many were read.
     */
    async refreshDue(olderThanMs: number, shouldStop: () => boolean = () => false): Promise<number> {
      const cutoff = options.now() - olderThanMs;
      const due = await db
        .selectFrom("calendarConnections")
        .select("userId")
        .where((eb) =>
          eb.or([eb("attemptedAt", "is", null), eb("attemptedAt", "<", new Date(cutoff).toISOString())]),
        )
        .orderBy("attemptedAt")
        .limit(100)
        .execute();
      let read = 0;
      for (const { userId } of due) {
        if (shouldStop()) break;
        if ((await refreshOnce(userId, cutoff)) === "refreshed") read++;
      }
      return read;
    },
    /** Resolves when no refresh of this process is running (shutdown, tests). */
    async settle(): Promise<void> {
      while (running.size > 0) await Promise.allSettled([...running.values()]);
    },
  };
}

export type CalendarBusy = ReturnType<typeof createBusyTimes>;
