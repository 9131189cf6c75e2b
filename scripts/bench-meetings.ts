// `npm run bench:meetings -- [--requests N] [--bookings N] [--no-postgres]`
// Issue 34's scheduling under a realistic team: 10 hosts (sales accounts, Monday to Friday 09:00-17:00
// London, bookable 120 days ahead, at most 16 a day), 5,000 meetings (half past, half to come), and
// each host's CalDAV calendar connected with its busy times already cached (three busy periods a
// working day), seeded into a fresh database with the production server on it. Measured one request
// at a time (nothing queued behind anything):
// - `GET /api/meetings/slots?type=demo&days=7` from a new day each time (the open times of a week,
//   every host's meetings, blocks and cached busy times read): p50/p95/p99 against 50 ms;
// - `POST /api/meetings` at a free time, a new prospect each (the lead stored, the round robin, the
//   blocks, the e-mail and calendar jobs queued): p50/p95/p99 against 100 ms.
// The calendars' cache is fresh, so no calendar server is asked for the slots; a booking's own
// "read the calendar before confirming" finds a loopback URL the outbound policy refuses (no
// CALDAV_ALLOW_PRIVATE_TARGETS), so it answers from the cache at once, as with a slow server's
// cached times. SQLite first, then PostgreSQL when one is reachable. Only 127.0.0.1.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Insertable } from "kysely";
import { openDatabase } from "../app/db/database.server.ts";
import { migrateToLatest } from "../app/db/migrate.server.ts";
import type { Database } from "../app/db/schema.ts";
import { createUser } from "../app/features/auth/users.server.ts";
import { calendarKey } from "../app/features/meetings/caldav/calendar-connections.server.ts";
import { sealSecret } from "../app/lib/sealed-secret.server.ts";
import { checkPostgres, createPostgresSchema } from "../tests/support/databases.ts";
import { percentile } from "./lib/import-load.ts";
import { runMain } from "./lib/run-main.ts";
import { seededRandom } from "./lib/seeded-random.ts";
import { type RunningServer, startServer } from "./lib/server-process.ts";
import { ensureBuild } from "./page-weight.ts";

const HOSTS = 10;
const MEETINGS = 5_000;
const SLOTS_TARGET_P95_MS = 50;
const BOOKING_TARGET_P95_MS = 100;
const APP_SECRET = "bench-meetings-app-secret-0123456789abcdef";
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

const { values: options } = parseArgs({
  options: {
    requests: { type: "string", default: "300" },
    bookings: { type: "string", default: "200" },
    "no-postgres": { type: "boolean", default: false },
  },
});

const ms = (value: number) => `${value.toFixed(1)} ms`;

/** London working-day starts (09:00 UTC in winter: the bench runs its times in UTC for simplicity). */
function weekdaysFrom(start: number, days: number): number[] {
  const result: number[] = [];
  for (let day = 0; day < days; day++) {
    const midnight = Math.floor(start / DAY_MS) * DAY_MS + day * DAY_MS;
    const weekday = new Date(midnight).getUTCDay();
    if (weekday !== 0 && weekday !== 6) result.push(midnight);
  }
  return result;
}

async function seed(url: string): Promise<void> {
  const database = openDatabase(url, { poolSize: 4 });
  const random = seededRandom(34);
  try {
    await migrateToLatest(database.db);
    const now = Date.now();
    const hostIds: number[] = [];
    for (let i = 1; i <= HOSTS; i++)
      hostIds.push(
        (
          await createUser(database.db, {
            username: `bench-host-${i}`,
            password: "bench host passphrase",
            role: "sales",
          })
        ).id,
      );
    const workday = [{ start: "09:00", end: "17:00" }];
    const profile = {
      timeZone: "Europe/London",
      weeklyHours: JSON.stringify({
        mon: workday,
        tue: workday,
        wed: workday,
        thu: workday,
        fri: workday,
        sat: [],
        sun: [],
      }),
      daysOff: "[]",
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      minimumNoticeMinutes: 120,
      horizonDays: 120,
      maxPerDay: 16,
      updatedAt: new Date(now).toISOString(),
    };
    await database.db
      .insertInto("bookingProfiles")
      .values(hostIds.map((userId) => ({ userId, ...profile })))
      .execute();
    const type = await database.db
      .selectFrom("meetingTypes")
      .select("id")
      .where("slug", "=", "demo")
      .executeTakeFirstOrThrow();

    // 5,000 meetings: each host 500, half in the 90 days before today and half in the 120 after, at
    // distinct half hours of their working days (their blocks never overlap).
    const past = weekdaysFrom(now - 90 * DAY_MS, 90);
    const future = weekdaysFrom(now + DAY_MS, 119);
    const perHost = MEETINGS / HOSTS;
    for (const hostId of hostIds) {
      const rows: Insertable<Database["meetings"]>[] = [];
      const taken = new Set<number>();
      while (rows.length < perHost) {
        const days = rows.length < perHost / 2 ? past : future;
        const day = days[Math.floor(random.next() * days.length)] ?? past[0] ?? now;
        // Only in the mornings (09:00-12:30 UTC): the afternoons stay open to book.
        const start = day + 9 * 60 * MINUTE_MS + Math.floor(random.next() * 8) * 30 * MINUTE_MS;
        if (taken.has(start)) continue;
        taken.add(start);
        const iso = new Date(start).toISOString();
        rows.push({
          typeId: type.id,
          hostId,
          leadId: null,
          status: start < now ? (random.next() < 0.8 ? "held" : "no_show") : "booked",
          startAt: iso,
          endAt: new Date(start + 30 * MINUTE_MS).toISOString(),
          uid: `bench-${hostId}-${start}@clausebridge`,
          sequence: 0,
          fullName: `Prospect ${hostId}-${rows.length}`,
          email: `prospect-${hostId}-${rows.length}@example.com`,
          company: "Bench Build Ltd",
          phone: null,
          timeZone: "Europe/London",
          source: "api",
          createdAt: iso,
          updatedAt: iso,
        });
      }
      for (let i = 0; i < rows.length; i += 100) {
        const inserted = await database.db
          .insertInto("meetings")
          .values(rows.slice(i, i + 100))
          .returning(["id", "startAt"])
          .execute();
        const blocks = inserted.flatMap(({ id, startAt }) =>
          Array.from({ length: 6 }, (_, b) => ({
            hostId,
            blockStart: new Date(Date.parse(startAt) + b * 5 * MINUTE_MS).toISOString(),
            meetingId: id,
          })),
        );
        await database.db.insertInto("meetingBlocks").values(blocks).execute();
      }
    }

    // Each host's calendar, connected and freshly read: three busy periods a working day ahead.
    await database.db
      .insertInto("calendarConnections")
      .values(
        hostIds.map((userId) => ({
          userId,
          url: "http://127.0.0.1:9/calendars/bench/",
          username: "bench",
          passwordSealed: sealSecret("bench app password", calendarKey(APP_SECRET)),
          connectedAt: new Date(now).toISOString(),
          attemptedAt: new Date(now).toISOString(),
          refreshedAt: new Date(now).toISOString(),
        })),
      )
      .execute();
    for (const hostId of hostIds) {
      const busy = future.flatMap((day) =>
        [13, 14.5, 16].map((hour) => ({
          hostId,
          startAt: new Date(day + hour * 60 * MINUTE_MS).toISOString(),
          endAt: new Date(day + (hour + 0.5) * 60 * MINUTE_MS).toISOString(),
        })),
      );
      for (let i = 0; i < busy.length; i += 200)
        await database.db
          .insertInto("calendarBusy")
          .values(busy.slice(i, i + 200))
          .execute();
    }
  } finally {
    await database.close();
  }
}

let running: RunningServer | undefined;

async function measure(label: string, url: string): Promise<{ slotsP95: number; bookingP95: number }> {
  await seed(url);
  const server = await startServer({
    DATABASE_URL: url,
    APP_SECRET,
    TRUST_PROXY: "1",
    LEAD_MIN_FILL_SECONDS: "0",
    // The per-address limits are measured elsewhere; here every request is one prospect's.
    LEAD_RATE_LIMIT: "0",
    LOG_LEVEL: "error",
    ...(process.env.BENCH_SERVER_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_SERVER_NODE_OPTIONS } : {}),
  });
  running = server;
  try {
    const requests = Number(options.requests);
    const slotTimes: number[] = [];
    const today = Date.now();
    let free: string[] = [];
    for (let i = 0; i < requests; i++) {
      const from = new Date(today + (i % 100) * DAY_MS).toISOString().slice(0, 10);
      const started = performance.now();
      const response = await fetch(`${server.url}/api/meetings/slots?type=demo&days=7&from=${from}`);
      const body = (await response.json()) as { slots: { start: string }[] };
      slotTimes.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`slots answered ${response.status}`);
      if (i === 0) free = body.slots.map((slot) => slot.start);
    }
    // Bookings at free times of the coming weeks, each a new prospect: a time is booked until nobody
    // is free at it any more (its 409 is the race's answer, not a failure), then the next one.
    const bookings = Number(options.bookings);
    const wide = (await (await fetch(`${server.url}/api/meetings/slots?type=demo&days=31`)).json()) as {
      slots: { start: string }[];
    };
    free = wide.slots.map((slot) => slot.start);
    const bookingTimes: number[] = [];
    let failures = 0;
    let full = 0;
    let next = 0;
    for (let i = 0; bookingTimes.length < bookings && next < free.length; i++) {
      const start = free[next];
      const started = performance.now();
      const response = await fetch(`${server.url}/api/meetings`, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Forwarded-For": `198.18.${(i >> 8) & 255}.${i & 255}`,
        },
        body: JSON.stringify({
          type: "demo",
          start,
          fullName: `Bench Prospect ${i}`,
          email: `bench-prospect-${i}@example.com`,
          company: "Bench Prospects Ltd",
          phone: "020 7946 0000",
        }),
      });
      const answer = await response.text();
      const elapsed = performance.now() - started;
      if (response.status === 201) bookingTimes.push(elapsed);
      else if (response.status === 409) {
        full++;
        next++;
      } else {
        failures++;
        if (failures === 1)
          console.log(`${label}: a booking failed: ${response.status} ${answer.slice(0, 300)}`);
      }
    }
    const line = (name: string, times: number[], target: number) =>
      `${label.padEnd(11)} ${name.padEnd(9)} n ${String(times.length).padStart(4)}  p50 ${ms(percentile(times, 50))}  p95 ${ms(percentile(times, 95))}  p99 ${ms(percentile(times, 99))}  (target p95 < ${target} ms: ${percentile(times, 95) < target ? "met" : "NOT met"})`;
    console.log(line("slots", slotTimes, SLOTS_TARGET_P95_MS));
    console.log(line("bookings", bookingTimes, BOOKING_TARGET_P95_MS));
    console.log(`${label.padEnd(11)} ${full} times filled up on the way (409), ${failures} failures`);
    return { slotsP95: percentile(slotTimes, 95), bookingP95: percentile(bookingTimes, 95) };
  } finally {
    await server.stop();
    running = undefined;
  }
}

await runMain(
  "bench:meetings",
  async () => {
    ensureBuild();
    console.log(
      `bench:meetings: ${HOSTS} hosts, ${MEETINGS} meetings, cached CalDAV busy times, one request at a time`,
    );
    const dir = mkdtempSync(join(tmpdir(), "bench-meetings-"));
    try {
      await measure("SQLite", join(dir, "bench.sqlite"));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    if (!options["no-postgres"] && (await checkPostgres())) {
      const schema = await createPostgresSchema();
      try {
        await measure("PostgreSQL", schema.url);
      } finally {
        await schema.drop();
      }
    }
    return 0;
  },
  async () => {
    await running?.stop();
  },
);
