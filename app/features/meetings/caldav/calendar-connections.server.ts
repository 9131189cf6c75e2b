import type { Kysely } from "kysely";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import { enqueue } from "#app/lib/outbox/outbox.server.ts";
import { deriveSecretKey, openSecret, sealSecret } from "#app/lib/sealed-secret.server.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import {
  type CaldavNetwork,
  caldavExchange,
  describeCaldavError,
  parseCalendarUrl,
} from "./caldav-http.server.ts";

// A host's CalDAV calendar (issue 34, real calendars): what staff pages call to connect one (its URL,
// a user name and an app password, as iCloud, Fastmail, Nextcloud, Google and Radicale offer), to
// disconnect it and to see how it is doing. The password is sealed with AES-256-GCM under a key
// derived from the app secret (lib/sealed-secret.server.ts) and never leaves this module in an answer.

type Db = Kysely<Database>;

/** What the calendar functions need: the database, the app secret, the outbound policy and a clock. */
export type CalendarDeps = {
  db: Db;
  /** APP_SECRET or the one kept in the database: the app passwords' key is derived from it. */
  secret: string;
  network: CaldavNetwork;
  now: () => number;
  /** One exchange's deadline (DNS, connect, TLS and the whole answer). */
  requestTimeoutMs: number;
};

export const CALENDAR_MESSAGES = {
  url: "Enter the calendar's full address, starting with https://.",
  username: "Enter the user name on one line (at most 200 characters).",
  password: "Enter the app password (at most 200 characters).",
  refused: "The calendar refused this user name and app password.",
  notFound: "There is no calendar at this address.",
  notCalendar:
    "This address is not a calendar. Use the calendar's own address (CalDAV URL), which usually ends with its name.",
  redirected:
    "The calendar server sent us elsewhere (a redirect): use the calendar's own address, as its settings show it.",
} as const;

const connectSchema = z.object({
  url: z.string(CALENDAR_MESSAGES.url).trim().min(1, CALENDAR_MESSAGES.url).max(2000, CALENDAR_MESSAGES.url),
  username: z
    .string(CALENDAR_MESSAGES.username)
    .trim()
    .min(1, CALENDAR_MESSAGES.username)
    .max(200, CALENDAR_MESSAGES.username)
    .refine((value) => !breaksTextRule(value, "one-line"), CALENDAR_MESSAGES.username),
  // An app password is used as given (no trim): some services show it with spaces that count.
  password: z
    .string(CALENDAR_MESSAGES.password)
    .min(1, CALENDAR_MESSAGES.password)
    .max(200, CALENDAR_MESSAGES.password)
    .refine((value) => !breaksTextRule(value, "one-line"), CALENDAR_MESSAGES.password),
});

export type ConnectInput = { url?: unknown; username?: unknown; password?: unknown };

export type CalendarStatus = {
  url: string;
  username: string;
  connectedAt: string;
  /** The last refresh that read the calendar (ISO 8601), null before the first. */
  refreshedAt: string | null;
  /** The last failure (reading busy times or writing a meeting), for staff; null once a refresh succeeds. */
  lastError: string | null;
  lastErrorAt: string | null;
};

export type ConnectOutcome =
  | { ok: true; status: CalendarStatus }
  | { ok: false; message: string; errors: Partial<Record<"url" | "username" | "password", string>> };

/** The key the app passwords are sealed with. */
export function calendarKey(secret: string): Buffer {
  return deriveSecretKey(secret, "clausebridge-calendars", "caldav-app-password");
}

/** Meetings written into calendars are queued under this outbox kind (calendar-events.server.ts sends them). */
export const CALENDAR_EVENT = "calendar-event";
export type CalendarEventPayload = { meetingId: number; origin: string };

/** A host's connection with its password opened, or null when the host has none (or it cannot be opened). */
export async function connectionOf(
  deps: Pick<CalendarDeps, "db" | "secret">,
  hostId: number,
): Promise<{ url: URL; username: string; password: string } | null> {
  const row = await deps.db
    .selectFrom("calendarConnections")
    .select(["url", "username", "passwordSealed"])
    .where("userId", "=", hostId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    url: new URL(row.url),
    username: row.username,
    password: openSecret(row.passwordSealed, calendarKey(deps.secret), "calendar app password"),
  };
}

const PROPFIND_BODY = `<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
  <d:prop><d:resourcetype/><d:displayname/><c:supported-calendar-component-set/></d:prop>
</d:propfind>`;

/** A calendar collection's resourcetype holds <C:calendar/> (RFC 4791 §4.2). */
const CALENDAR_RESOURCE = /<resourcetype\b[^>]*>[\s\S]{0,2000}?<([\w.-]+:)?calendar[\s/>]/i;

/**
 * Connects `hostId`'s calendar: checks the URL against the outbound policy, asks the server for the
 * collection with the credentials (PROPFIND), and only when it answers as a calendar stores the
 * connection (replacing one there was), with the password sealed. The host's upcoming meetings are
 * queued to be written into it. The busy times are read by the first slot query or refresh.
 */
export async function connectCalendar(
  deps: CalendarDeps,
  hostId: number,
  input: ConnectInput,
): Promise<ConnectOutcome> {
  const parsed = connectSchema.safeParse(input);
  if (!parsed.success) {
    const errors: Partial<Record<"url" | "username" | "password", string>> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (field === "url" || field === "username" || field === "password") errors[field] ??= issue.message;
    }
    return { ok: false, message: Object.values(errors).join(" "), errors };
  }
  const { username, password } = parsed.data;
  const url = parseCalendarUrl(parsed.data.url);
  if (!url.ok) return { ok: false, message: url.message, errors: { url: url.message } };

  let answer: Awaited<ReturnType<typeof caldavExchange>>;
  try {
    answer = await caldavExchange(
      {
        method: "PROPFIND",
        url: url.url,
        username,
        password,
        headers: { depth: "0", "content-type": "application/xml; charset=utf-8" },
        body: PROPFIND_BODY,
        timeoutMs: deps.requestTimeoutMs,
      },
      deps.network,
    );
  } catch (error) {
    const message = describeCaldavError(error);
    return { ok: false, message, errors: { url: message } };
  }
  const refuse = (field: "url" | "password", message: string): ConnectOutcome => ({
    ok: false,
    message,
    errors: { [field]: message },
  });
  if (answer.status === 401 || answer.status === 403) return refuse("password", CALENDAR_MESSAGES.refused);
  if (answer.status === 404) return refuse("url", CALENDAR_MESSAGES.notFound);
  if (answer.status >= 300 && answer.status < 400) return refuse("url", CALENDAR_MESSAGES.redirected);
  if (answer.status !== 207)
    return refuse("url", `The calendar server answered HTTP ${answer.status} to PROPFIND.`);
  if (!CALENDAR_RESOURCE.test(answer.body)) return refuse("url", CALENDAR_MESSAGES.notCalendar);

  const now = new Date(deps.now()).toISOString();
  const row = {
    url: url.url.href,
    username,
    passwordSealed: sealSecret(password, calendarKey(deps.secret)),
    connectedAt: now,
    attemptedAt: null,
    refreshedAt: null,
    lastError: null,
    lastErrorAt: null,
  };
  await deps.db.transaction().execute(async (trx) => {
    await trx
      .insertInto("calendarConnections")
      .values({ userId: hostId, ...row })
      .onConflict((conflict) => conflict.column("userId").doUpdateSet(row))
      .execute();
    // Another calendar's busy times and events are not this one's.
    await trx.deleteFrom("calendarBusy").where("hostId", "=", hostId).execute();
    await trx.deleteFrom("calendarEvents").where("hostId", "=", hostId).execute();
    const upcoming = await trx
      .selectFrom("meetings")
      .select("id")
      .where("hostId", "=", hostId)
      .where("status", "=", "booked")
      .where("endAt", ">", now)
      .orderBy("startAt")
      .limit(500)
      .execute();
    for (const meeting of upcoming)
      await enqueue(
        trx,
        CALENDAR_EVENT,
        { meetingId: meeting.id, origin: "" } satisfies CalendarEventPayload,
        new Date(deps.now()),
      );
  });
  const status = await calendarStatus(deps.db, hostId);
  if (!status) throw new Error("A calendar just connected was not found");
  return { ok: true, status };
}

/**
 * Forgets `hostId`'s calendar: the connection, its password and its busy times. Events already
 * written stay in the calendar (the password to remove them is gone with the connection). False when
 * there was none.
 */
export async function disconnectCalendar(db: Db, hostId: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx.deleteFrom("calendarBusy").where("hostId", "=", hostId).execute();
    await trx.deleteFrom("calendarEvents").where("hostId", "=", hostId).execute();
    const deleted = await trx
      .deleteFrom("calendarConnections")
      .where("userId", "=", hostId)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows) > 0;
  });
}

/** How `hostId`'s calendar is doing (never its password), or null when none is connected. */
export async function calendarStatus(db: Db, hostId: number): Promise<CalendarStatus | null> {
  const row = await db
    .selectFrom("calendarConnections")
    .select(["url", "username", "connectedAt", "refreshedAt", "lastError", "lastErrorAt"])
    .where("userId", "=", hostId)
    .executeTakeFirst();
  return row ?? null;
}

/** Records a failure on the connection for staff (a refresh's or a write's). */
export async function recordCalendarError(
  db: Db,
  hostId: number,
  message: string,
  at: number,
): Promise<void> {
  await db
    .updateTable("calendarConnections")
    .set({ lastError: message.slice(0, 500), lastErrorAt: new Date(at).toISOString() })
    .where("userId", "=", hostId)
    .execute();
}
