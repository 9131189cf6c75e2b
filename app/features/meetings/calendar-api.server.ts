import type { RouterContextProvider } from "react-router";
import { readJsonObject } from "#app/lib/http.server.ts";
import { assertSameOrigin, requireApiPermission, type StaffUser } from "#app/lib/staff-guard.server.ts";
import { manageableHost } from "./availability-admin.server.ts";
import { AVAILABILITY_MESSAGES } from "./availability-api.server.ts";
import { currentFeedPath } from "./meeting-feed.server.ts";
import { meetingServices } from "./meetings-context.server.ts";

// GET/PUT/DELETE /api/admin/availability/calendar[?userId=] (issue 34): a host's CalDAV calendar, as
// the Availability page shows it. Your own, or (an admin) anyone's who hosts meetings, the
// availability's rule. GET answers the connection's status (never its password) and the host's
// private feed URL; PUT { url, username, password } connects (the server must answer as a calendar);
// DELETE disconnects.

type Context = Readonly<RouterContextProvider>;

/** A URL (2,000), a user name and an app password (200 each), with room for JSON's escapes. */
const CALENDAR_BODY_LIMIT = 8 * 1024;

export const CALENDAR_API_MESSAGES = {
  unavailable: "Calendars are not available on this server.",
} as const;

/** A `userId` as text: the account's id, null when absent, NaN when malformed. */
function userIdOf(value: string | null): number | null {
  if (value === null || value === "") return null;
  const id = /^\d{1,15}$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : Number.NaN;
}

/** The host the request names (its `userId`, else the caller), or the answer refusing it. */
async function hostOf(
  request: Request,
  context: Context,
): Promise<{ ok: true; user: StaffUser; hostId: number } | { ok: false; response: Response }> {
  const user = await requireApiPermission(request, context, "meetings.availability");
  if (request.method !== "GET" && request.method !== "HEAD") assertSameOrigin(request);
  const id = userIdOf(new URL(request.url).searchParams.get("userId"));
  if (Number.isNaN(id))
    return { ok: false, response: Response.json({ message: AVAILABILITY_MESSAGES.userId }, { status: 400 }) };
  const { database } = await meetingServices(context);
  const host = await manageableHost(database.db, user, id ?? user.id);
  if ("kind" in host) {
    const forbidden = host.kind === "forbidden";
    return {
      ok: false,
      response: Response.json(
        { message: forbidden ? AVAILABILITY_MESSAGES.forbidden : AVAILABILITY_MESSAGES.notFound },
        { status: forbidden ? 403 : 404 },
      ),
    };
  }
  return { ok: true, user, hostId: host.id };
}

const unavailable = () => Response.json({ message: CALENDAR_API_MESSAGES.unavailable }, { status: 503 });

async function feedUrl(request: Request, context: Context, hostId: number): Promise<string> {
  const { database, secret, publicUrl } = await meetingServices(context);
  const origin = (publicUrl ?? new URL(request.url).origin).replace(/\/+$/, "");
  return `${origin}${await currentFeedPath(database.db, secret, hostId)}`;
}

/** GET: `{ userId, calendar: status | null, feedUrl }`. */
export async function handleGetCalendar(request: Request, context: Context): Promise<Response> {
  const host = await hostOf(request, context);
  if (!host.ok) return host.response;
  const { calendars } = await meetingServices(context);
  if (!calendars) return unavailable();
  return Response.json({
    userId: host.hostId,
    calendar: await calendars.status(host.hostId),
    feedUrl: await feedUrl(request, context, host.hostId),
  });
}

/** PUT { url, username, password }: 200 with the status, or 400 with `errors` by field. */
export async function handlePutCalendar(request: Request, context: Context): Promise<Response> {
  const host = await hostOf(request, context);
  if (!host.ok) return host.response;
  const body = await readJsonObject(request, CALENDAR_BODY_LIMIT);
  if (!body.ok) return body.response;
  const { calendars } = await meetingServices(context);
  if (!calendars) return unavailable();
  const { url, username, password } = body.value;
  const outcome = await calendars.connect(host.hostId, { url, username, password });
  if (!outcome.ok)
    return Response.json({ message: outcome.message, errors: outcome.errors }, { status: 400 });
  return Response.json({
    userId: host.hostId,
    calendar: outcome.status,
    feedUrl: await feedUrl(request, context, host.hostId),
  });
}

/** DELETE: `{ userId, disconnected }` (false when none was connected). */
export async function handleDeleteCalendar(request: Request, context: Context): Promise<Response> {
  const host = await hostOf(request, context);
  if (!host.ok) return host.response;
  const { calendars } = await meetingServices(context);
  if (!calendars) return unavailable();
  return Response.json({ userId: host.hostId, disconnected: await calendars.disconnect(host.hostId) });
}
