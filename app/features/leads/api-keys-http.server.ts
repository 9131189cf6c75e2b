import type { RouterContextProvider } from "react-router";
import { DEFAULT_BODY_LIMIT } from "#app/lib/body-limits.ts";
import { readJsonObject } from "#app/lib/http.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { ApiKeyInputError, createApiKey, listApiKeys, revokeApiKey } from "./api-keys.server.ts";
import { leadsServices } from "./leads-context.server.ts";

// /api/admin/api-keys…: staff only, changes refused cross-site, like the rest of /api/admin.

type Context = Readonly<RouterContextProvider>;

/** GET /api/admin/api-keys: every key (never the key itself: only its first characters). */
export async function handleListApiKeys(request: Request, context: Context): Promise<Response> {
  await requireApiPermission(request, context, "apiKeys.manage");
  const { database } = await leadsServices(context);
  return Response.json(await listApiKeys(database.db));
}

/** POST /api/admin/api-keys { name }: 201 { id, name, key, … }; the key is shown only here. */
export async function handleCreateApiKey(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "apiKeys.manage");
  assertSameOrigin(request);
  const body = await readJsonObject(request, DEFAULT_BODY_LIMIT);
  if (!body.ok) return body.response;
  const { database } = await leadsServices(context);
  try {
    return Response.json(await createApiKey(database.db, body.value.name, user), { status: 201 });
  } catch (error) {
    if (error instanceof ApiKeyInputError)
      return Response.json({ message: error.message, errors: { name: error.message } }, { status: 400 });
    throw error;
  }
}

/** DELETE /api/admin/api-keys/:id: revokes the key at once (204); 404 when unknown. */
export async function handleRevokeApiKey(request: Request, context: Context, rawId: string | undefined) {
  const user = await requireApiPermission(request, context, "apiKeys.manage");
  assertSameOrigin(request);
  const id = Number(rawId);
  const notFound = () => Response.json({ message: "API key not found." }, { status: 404 });
  if (!Number.isSafeInteger(id) || id < 1) return notFound();
  const { database } = await leadsServices(context);
  return (await revokeApiKey(database.db, id, user)) ? new Response(null, { status: 204 }) : notFound();
}
