import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { readJsonObject } from "#app/lib/http.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import {
  listNotifications,
  MAX_LIST,
  MAX_READ_IDS,
  markAllRead,
  markRead,
  unreadCount,
} from "./notification-store.server.ts";
import { notificationsServices } from "./notifications-context.server.ts";

// Issue 35: the caller's notifications through the JSON API. Every signed-in role has its own
// (account.self); nobody reads or marks another person's. Marking read refuses cross-site requests.

type Context = Readonly<RouterContextProvider>;

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_LIST).default(20),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});

/**
 * GET /api/admin/notifications?limit=&offset=: `{ unread, total, items }`, unread first; an item's
 * `lead` and `detail` only for a role that reads leads.
 */
export async function handleListNotifications(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "account.self");
  const params = new URL(request.url).searchParams;
  const query = listQuery.safeParse({
    limit: params.get("limit") ?? undefined,
    offset: params.get("offset") ?? undefined,
  });
  if (!query.success)
    return Response.json(
      { message: `Ask for a limit of 1 to ${MAX_LIST} and an offset of 0 or more.` },
      { status: 400 },
    );
  const { database, leadDetails } = await notificationsServices(context);
  // The caller's role decides whether a lead's name and a task's words are added (leads.read).
  return Response.json(await listNotifications(database.db, user, { ...query.data, details: leadDetails }));
}

const readBody = z.union([
  z.object({ ids: z.array(z.number().int().positive()).min(1).max(MAX_READ_IDS) }).strict(),
  z.object({ all: z.literal(true) }).strict(),
]);

/** POST /api/admin/notifications/read `{ ids }` or `{ all: true }`: `{ marked, unread }`. */
export async function handleMarkRead(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "account.self");
  assertSameOrigin(request);
  const body = await readJsonObject(request, 8 * 1024);
  if (!body.ok) return body.response;
  const parsed = readBody.safeParse(body.value);
  if (!parsed.success)
    return Response.json(
      { message: `Send { "ids": [...] } with 1 to ${MAX_READ_IDS} notification ids, or { "all": true }.` },
      { status: 400 },
    );
  const { database } = await notificationsServices(context);
  const marked =
    "all" in parsed.data
      ? await markAllRead(database.db, user.id)
      : await markRead(database.db, user.id, parsed.data.ids);
  return Response.json({ marked, unread: await unreadCount(database.db, user.id) });
}
