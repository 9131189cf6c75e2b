import { data, type RouterContextProvider, redirect } from "react-router";
import { readForm } from "#app/lib/http.server.ts";
import { parseWebhookId } from "./webhook-api.server.ts";
import { webhookServices } from "./webhook-context.server.ts";
import { NOTICE_PARAM, WEBHOOKS_PATH, type WebhookNotice } from "./webhook-notices.ts";
import { TEST_EVENTS, type TestEventType, type WebhookFieldErrors } from "./webhook-schema.ts";
import { createWebhook } from "./webhook-service.server.ts";
import { deleteWebhook, queueTestEvent, rotateWebhookSecret } from "./webhook-store.server.ts";

// The /admin/webhooks forms as they arrive, with or without JavaScript (the page's <Form>s post
// here either way). A one-time secret is shown in the answer to the POST itself, never carried by a
// redirect (it would sit in the address bar and the history); everything else redirects with a notice.

export type WebhookActionData =
  | { kind: "secret"; webhookId: number; secret: string; reason: "created" | "rotated" }
  | {
      kind: "create-error";
      message: string;
      errors: WebhookFieldErrors;
      values: { url: string; events: string[] };
    }
  | { kind: "error"; message: string };

const withNotice = (notice: WebhookNotice, anchor = "") =>
  `${WEBHOOKS_PATH}?${NOTICE_PARAM}=${notice}${anchor}`;

/** Runs the posted intent: create, test, rotate or delete. Throws redirects; returns the page's data. */
export async function webhookFormAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  /** The signed-in admin, named in the webhook it creates. */
  user: { username: string },
) {
  const form = await readForm(request);
  const services = await webhookServices(context);
  const db = services.database.db;
  const intent = form.get("intent");
  if (intent === "create") {
    const values = { url: form.get("url") ?? "", events: form.getAll("events") };
    const outcome = await createWebhook(db, values, user.username, {
      allowPrivate: services.env.WEBHOOK_ALLOW_PRIVATE_TARGETS,
    });
    if (!outcome.ok) {
      return data<WebhookActionData>(
        { kind: "create-error", message: outcome.message, errors: outcome.errors, values },
        { status: outcome.status },
      );
    }
    return data<WebhookActionData>({
      kind: "secret",
      webhookId: outcome.webhook.id,
      secret: outcome.webhook.secret,
      reason: "created",
    });
  }

  const id = parseWebhookId(form.get("id"));
  const gone = () =>
    data<WebhookActionData>({ kind: "error", message: "Webhook not found." }, { status: 404 });
  if (intent === "test") {
    const event = form.get("event") ?? "ping";
    if (!TEST_EVENTS.includes(event as TestEventType)) {
      return data<WebhookActionData>({ kind: "error", message: "Unknown test event." }, { status: 400 });
    }
    if (id === null) return gone();
    const queued = await queueTestEvent(db, id, event as TestEventType);
    if (!queued) return gone();
    services.notifyOutbox();
    throw redirect(withNotice("test-queued", `#webhook-${id}`));
  }
  if (intent === "rotate") {
    if (id === null) return gone();
    const secret = await rotateWebhookSecret(db, id);
    if (!secret) return gone();
    return data<WebhookActionData>({ kind: "secret", webhookId: id, secret, reason: "rotated" });
  }
  if (intent === "delete") {
    if (id === null || !(await deleteWebhook(db, id))) return gone();
    throw redirect(withNotice("deleted"));
  }
  return data<WebhookActionData>({ kind: "error", message: "Unknown action." }, { status: 400 });
}
