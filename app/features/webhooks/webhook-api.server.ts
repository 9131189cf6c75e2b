import type { RouterContextProvider } from "react-router";
import { readJsonObject } from "#app/lib/http.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { webhookServices } from "./webhook-context.server.ts";
import { TEST_EVENTS, type TestEventType } from "./webhook-schema.ts";
import { createWebhook } from "./webhook-service.server.ts";
import {
  deleteWebhook,
  findWebhook,
  listDeliveries,
  listWebhooks,
  queueTestEvent,
  rotateWebhookSecret,
} from "./webhook-store.server.ts";

// /api/admin/webhooks… (issue 10): staff only (401/403), state changes refused cross-site. A secret
// appears in exactly two answers: creation and rotation.

type Context = Readonly<RouterContextProvider>;

/** A webhook's fields and events in JSON: far below the shared 64 KB limit. */
const WEBHOOK_BODY_LIMIT = 8 * 1024;
const MAX_LOG_LIMIT = 200;

const notFound = () => Response.json({ message: "Webhook not found." }, { status: 404 });

export function parseWebhookId(raw: string | null | undefined): number | null {
  const id = typeof raw === "string" && /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** GET /api/admin/webhooks: every webhook, oldest first, without secrets. */
export async function handleListWebhooks(request: Request, context: Context): Promise<Response> {
  await requireApiPermission(request, context, "webhooks.manage");
  const { database } = await webhookServices(context);
  return Response.json(await listWebhooks(database.db));
}

/** POST /api/admin/webhooks { url, events }: 201 { id, url, events, secret } (the secret only here). */
export async function handleCreateWebhook(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "webhooks.manage");
  assertSameOrigin(request);
  const body = await readJsonObject(request, WEBHOOK_BODY_LIMIT);
  if (!body.ok) return body.response;
  const { database, env } = await webhookServices(context);
  const outcome = await createWebhook(database.db, body.value, user.username, {
    allowPrivate: env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
  });
  if (!outcome.ok) {
    return Response.json({ message: outcome.message, errors: outcome.errors }, { status: outcome.status });
  }
  const { id, url, events, secret } = outcome.webhook;
  return Response.json({ id, url, events, secret }, { status: 201 });
}

/** DELETE /api/admin/webhooks/:id: 204; its log and queued deliveries go with it. */
export async function handleDeleteWebhook(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "webhooks.manage");
  assertSameOrigin(request);
  const id = parseWebhookId(rawId);
  if (id === null) return notFound();
  const { database } = await webhookServices(context);
  return (await deleteWebhook(database.db, id)) ? new Response(null, { status: 204 }) : notFound();
}

/** GET /api/admin/webhooks/:id/deliveries[?limit=]: the delivery log, newest first (50 by default). */
export async function handleListDeliveries(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "webhooks.manage");
  const id = parseWebhookId(rawId);
  if (id === null) return notFound();
  const rawLimit = new URL(request.url).searchParams.get("limit");
  const limit = rawLimit === null || rawLimit === "" ? 50 : Number(rawLimit);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LOG_LIMIT) {
    return Response.json(
      { message: `Invalid limit: a whole number from 1 to ${MAX_LOG_LIMIT}.` },
      { status: 400 },
    );
  }
  const { database } = await webhookServices(context);
  if (!(await findWebhook(database.db, id))) return notFound();
  return Response.json(await listDeliveries(database.db, id, { limit }));
}

/** POST /api/admin/webhooks/:id/test [{ event: "ping" | "lead.created" }]: 202 { deliveryId, eventId }. */
export async function handleTestWebhook(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "webhooks.manage");
  assertSameOrigin(request);
  let event: TestEventType = "ping";
  // The body is optional: a bare POST sends a ping.
  if (request.headers.get("content-length") !== "0" && request.body) {
    const body = await readJsonObject(request, WEBHOOK_BODY_LIMIT);
    if (!body.ok) return body.response;
    const requested = body.value.event ?? "ping";
    if (!TEST_EVENTS.includes(requested as TestEventType)) {
      return Response.json(
        {
          message: `Test event must be one of: ${TEST_EVENTS.join(", ")}.`,
          errors: { event: "Invalid event" },
        },
        { status: 400 },
      );
    }
    event = requested as TestEventType;
  }
  const id = parseWebhookId(rawId);
  if (id === null) return notFound();
  const services = await webhookServices(context);
  const queued = await queueTestEvent(services.database.db, id, event);
  if (!queued) return notFound();
  services.notifyOutbox();
  return Response.json(queued, { status: 202 });
}

/** POST /api/admin/webhooks/:id/rotate-secret: { id, secret }, the new secret shown this once. */
export async function handleRotateSecret(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "webhooks.manage");
  assertSameOrigin(request);
  const id = parseWebhookId(rawId);
  if (id === null) return notFound();
  const { database } = await webhookServices(context);
  const secret = await rotateWebhookSecret(database.db, id);
  return secret ? Response.json({ id, secret }) : notFound();
}
