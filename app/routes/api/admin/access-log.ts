import { authServices } from "#app/features/auth/auth-context.server.ts";
import { ACCESS_KINDS, isAccessKind, listAccessLog } from "#app/lib/access-log.server.ts";
import { methodNotAllowed } from "#app/lib/http.server.ts";
import { requireApiPermission } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/access-log";

// Issue 13: GET /api/admin/access-log?kind=&before= — the staff access log, newest first, 50 a page
// (kind `content`: publishing, scheduling, unpublishing, restoring and deleting posts, issue 24).
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireApiPermission(request, context, "accessLog.read");
  const url = new URL(request.url);
  const kind = url.searchParams.get("kind");
  const before = url.searchParams.get("before");
  if (kind !== null && kind !== "" && !isAccessKind(kind))
    return Response.json(
      { message: `kind must be one of ${Object.keys(ACCESS_KINDS).join(", ")}.` },
      { status: 400 },
    );
  const beforeId = before === null ? undefined : Number(before);
  if (beforeId !== undefined && !(Number.isSafeInteger(beforeId) && beforeId > 0))
    return Response.json({ message: "before must be an entry id." }, { status: 400 });
  const { database } = await authServices(context);
  return Response.json(
    await listAccessLog(database.db, { kind: isAccessKind(kind) ? kind : undefined, before: beforeId }),
  );
}

export const action = () => methodNotAllowed("GET");
