import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import { signToken, verifyToken } from "#app/lib/signed-token.server.ts";
import { PROFILE_LIMITS } from "./booking-profile.ts";
import { calendarText, invitationEvent } from "./invitation.server.ts";

// A host's private, read-only iCalendar feed of their meetings (issue 34), for calendar apps without
// CalDAV (Outlook, a phone's "subscribe to calendar"): GET /meetings/feed/<token>.ics. The token is
// `<userId>.0.<signature>` (lib/signed-token.server.ts) signed with the app secret and the host's feed
// version (`meeting_feeds`, migration 035): "Reset feed link" adds one to the version, so every link
// handed out before stops working at once, on every instance. The feed holds the host's booked and
// held meetings from 30 days ago to the furthest any booking can be (PROFILE_LIMITS.horizonDays), one
// VEVENT each with the invitations' UID and SEQUENCE, so a calendar that also got the invitation
// shows one event. The attendee's phone is left out: the link is a secret, but one that travels.

type Db = Kysely<Database>;

const FEED_PURPOSE = "meeting-feed:v1";
/** How far back the feed reaches: last month's meetings stay visible in the calendar. */
export const FEED_PAST_DAYS = 30;
/** More than any host books in the window; a feed stays a bounded answer. */
const FEED_MAX_EVENTS = 2000;
const DAY_MS = 86_400_000;

const purpose = (version: number) => `${FEED_PURPOSE}:${version}`;

/** The host's current feed version (0 until the link is first reset). */
export async function feedVersion(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom("meetingFeeds")
    .select("version")
    .where("userId", "=", userId)
    .executeTakeFirst();
  return row ? Number(row.version) : 0;
}

/** The feed's path for `userId` at `version`: `/meetings/feed/<token>.ics`. */
export function feedPath(secret: string, userId: number, version: number): string {
  return `/meetings/feed/${signToken(secret, purpose(version), userId)}.ics`;
}

/** The host's current feed path. */
export async function currentFeedPath(db: Db, secret: string, userId: number): Promise<string> {
  return feedPath(secret, userId, await feedVersion(db, userId));
}

/** Invalidates every feed link of `userId` handed out so far; answers the new path. */
export async function resetFeed(db: Db, secret: string, userId: number, now = Date.now()): Promise<string> {
  const resetAt = new Date(now).toISOString();
  const row = await db
    .insertInto("meetingFeeds")
    .values({ userId, version: 1, resetAt })
    .onConflict((conflict) =>
      conflict.column("userId").doUpdateSet((eb) => ({
        version: eb(eb.ref("meetingFeeds.version"), "+", 1),
        resetAt,
      })),
    )
    .returning("version")
    .executeTakeFirstOrThrow();
  return feedPath(secret, userId, Number(row.version));
}

/** The host a feed file name (`<token>.ics`) names while it is valid: enabled, hosting, current version. */
export async function feedHost(db: Db, secret: string, fileName: string): Promise<number | null> {
  const match = /^(\d{1,15})\.0\.([A-Za-z0-9_-]{22})\.ics$/.exec(fileName);
  if (!match) return null;
  const userId = Number(match[1]);
  if (!Number.isSafeInteger(userId) || userId < 1) return null;
  const user = await db
    .selectFrom("users")
    .leftJoin("meetingFeeds", "meetingFeeds.userId", "users.id")
    .select(["users.disabled", "users.role", "meetingFeeds.version"])
    .where("users.id", "=", userId)
    .executeTakeFirst();
  if (!user || user.disabled || (user.role !== "admin" && user.role !== "sales")) return null;
  const token = fileName.slice(0, -".ics".length);
  const check = verifyToken(secret, purpose(Number(user.version ?? 0)), token);
  return check.ok && check.id === userId ? userId : null;
}

/** The iCalendar text of `hostId`'s feed at `now`; `origin` for the lead links in descriptions ("" for none). */
export async function feedCalendar(
  db: Db,
  hostId: number,
  origin: string,
  now = Date.now(),
): Promise<string> {
  const host = await db
    .selectFrom("users")
    .select(["username", "email"])
    .where("id", "=", hostId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom("meetings")
    .innerJoin("meetingTypes", "meetingTypes.id", "meetings.typeId")
    .select([
      "meetings.leadId",
      "meetings.startAt",
      "meetings.endAt",
      "meetings.uid",
      "meetings.sequence",
      "meetings.fullName",
      "meetings.email",
      "meetings.company",
      "meetingTypes.name as typeName",
    ])
    .where("meetings.hostId", "=", hostId)
    .where("meetings.status", "in", ["booked", "held"])
    .where("meetings.endAt", ">=", new Date(now - FEED_PAST_DAYS * DAY_MS).toISOString())
    .where("meetings.startAt", "<=", new Date(now + PROFILE_LIMITS.horizonDays * DAY_MS).toISOString())
    .orderBy("meetings.startAt")
    .limit(FEED_MAX_EVENTS)
    .execute();
  const base = origin.replace(/\/+$/, "");
  const events = rows.map((row) => {
    const lines = [
      `${row.fullName}, ${row.company}`,
      `E-mail: ${row.email}`,
      ...(row.leadId && base ? [`The lead: ${base}/admin/leads/${row.leadId}`] : []),
    ];
    const event = invitationEvent({
      method: null,
      uid: row.uid,
      sequence: Number(row.sequence),
      start: Date.parse(row.startAt),
      end: Date.parse(row.endAt),
      stamp: now,
      summary: `${row.typeName}: ${row.fullName} (${row.company})`,
      description: lines.join("\n"),
      organizer: { name: host.username, email: host.email ?? "" },
      attendee: { name: row.fullName, email: row.email },
    });
    // Without an address of the host's own there is no organizer to name.
    if (!host.email) event.removeProperty("organizer");
    return event;
  });
  return calendarText(events, null, { "x-wr-calname": `Meetings of ${host.username} (Clausebridge)` });
}

const NOT_FOUND = () =>
  new Response("Not found\n", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8" },
  });

/**
 * GET /meetings/feed/<file>: the host's calendar, or 404 for a malformed, forged or reset link.
 * NOTE: no Cache-Control here: server.ts marks every dynamic response `private, no-store` already.
 */
export async function answerMeetingFeed(
  request: Request,
  file: string | undefined,
  services: { database: { db: Db }; secret: string; publicUrl: string | undefined; now(): number },
): Promise<Response> {
  const hostId = await feedHost(services.database.db, services.secret, file ?? "");
  if (hostId === null) return NOT_FOUND();
  const origin = services.publicUrl ?? new URL(request.url).origin;
  const text = await feedCalendar(services.database.db, hostId, origin, services.now());
  return new Response(text, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="meetings.ics"',
      "X-Robots-Tag": "noindex, nofollow",
      "Referrer-Policy": "no-referrer",
    },
  });
}
