import { useEffect } from "react";
import { Link, useRevalidator } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { CreateWebhookForm } from "#app/features/webhooks/ui/create-webhook-form.tsx";
import { SecretReveal } from "#app/features/webhooks/ui/secret-reveal.tsx";
import { WebhookCard, type WebhookCardData } from "#app/features/webhooks/ui/webhook-card.tsx";
import { formatDeliveryTime } from "#app/features/webhooks/ui/webhook-format.ts";
import { webhookServices } from "#app/features/webhooks/webhook-context.server.ts";
import { webhookFormAction } from "#app/features/webhooks/webhook-forms.server.ts";
import {
  CONFIRM_DELETE_PARAM,
  readWebhookNotice,
  WEBHOOK_NOTICES,
  WEBHOOKS_PATH,
} from "#app/features/webhooks/webhook-notices.ts";
import { MAX_WEBHOOKS } from "#app/features/webhooks/webhook-schema.ts";
import { listDeliveries, listWebhooks } from "#app/features/webhooks/webhook-store.server.ts";
import { adminUser } from "#app/lib/admin-guard.server.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/webhooks";

// Issue 10: outgoing webhooks. Admins add an endpoint (the signing secret is shown once, on the
// page that answers the post), send test events, rotate the secret, delete, and read each
// webhook's delivery log. Every form works without JavaScript; with it, the log refreshes itself
// while deliveries are on their way.

export const meta: Route.MetaFunction = () => adminMeta("Webhooks");

/** Deliveries per webhook on the page; the API gives more (GET /api/admin/webhooks/:id/deliveries). */
const LOG_LENGTH = 10;
/** How often the script reloads the log while a delivery is queued or waiting for a retry. */
const REFRESH_MS = 3000;

export async function loader({ request, context }: Route.LoaderArgs) {
  const { database } = await webhookServices(context);
  const url = new URL(request.url);
  const webhooks = await listWebhooks(database.db);
  const now = new Date();
  const cards: WebhookCardData[] = await Promise.all(
    webhooks.map(async (webhook) => {
      const deliveries = await listDeliveries(database.db, webhook.id, { limit: LOG_LENGTH, now });
      return {
        id: webhook.id,
        url: webhook.url,
        events: webhook.events,
        createdBy: webhook.createdBy,
        // Formatted here so the browser hydrates exactly the server's text.
        created: formatDeliveryTime(webhook.createdAt) ?? "",
        rotated: formatDeliveryTime(webhook.secretRotatedAt),
        deliveries: deliveries.map(({ createdAt, lastAttemptAt, nextAttemptAt, ...delivery }) => ({
          ...delivery,
          when: formatDeliveryTime(createdAt) ?? "",
          lastAttempt: formatDeliveryTime(lastAttemptAt),
          nextAttempt: formatDeliveryTime(nextAttemptAt),
        })),
      };
    }),
  );
  return {
    webhooks: cards,
    notice: readWebhookNotice(url),
    confirmDelete: Number(url.searchParams.get(CONFIRM_DELETE_PARAM)) || null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  return webhookFormAction(request, context, adminUser(context));
}

export default function Webhooks({ loaderData, actionData }: Route.ComponentProps) {
  const { webhooks, notice, confirmDelete } = loaderData;
  const revalidator = useRevalidator();
  const inFlight = webhooks.some((webhook) =>
    webhook.deliveries.some((delivery) => delivery.status === "queued" || delivery.status === "retrying"),
  );
  useEffect(() => {
    if (!inFlight || revalidator.state !== "idle") return;
    const timer = setTimeout(() => revalidator.revalidate(), REFRESH_MS);
    return () => clearTimeout(timer);
  }, [inFlight, revalidator]);

  const secret = actionData?.kind === "secret" ? actionData : null;
  const secretFor = secret ? webhooks.find((webhook) => webhook.id === secret.webhookId) : undefined;
  const createError = actionData?.kind === "create-error" ? actionData : null;
  const noticeText = notice ? WEBHOOK_NOTICES[notice] : null;

  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-8 px-4 py-8 sm:px-6">
      <PageHeader
        title="Webhooks"
        description={
          <>
            Send each new or changed lead, and each booked, moved or cancelled meeting, to another system (a
            CRM, a chat, an automation) as a signed JSON POST, following Standard Webhooks. Failed deliveries
            are retried with backoff for about four hours. How a receiver verifies the signature is in the
            README, "Webhooks".
          </>
        }
      />

      {secret ? (
        <SecretReveal
          key={secret.secret}
          secret={secret.secret}
          reason={secret.reason}
          url={secretFor?.url ?? ""}
        />
      ) : null}
      {actionData?.kind === "error" ? <Banner tone="error">{actionData.message}</Banner> : null}
      {createError && !createError.errors.url && !createError.errors.events ? (
        <Banner tone="error">{createError.message}</Banner>
      ) : null}
      {noticeText && !actionData ? (
        <Banner tone="success">
          <strong className="font-semibold">{noticeText.title}.</strong> {noticeText.text}
        </Banner>
      ) : null}

      <section aria-labelledby="webhooks-heading" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="webhooks-heading" className="text-2xl font-bold tracking-tight">
            Endpoints
          </h2>
          <Link to={WEBHOOKS_PATH} className="text-sm font-semibold text-brand underline underline-offset-2">
            Refresh the logs
          </Link>
        </div>
        {webhooks.length === 0 ? (
          <p className="rounded-xl border border-line bg-white px-6 py-10 text-center text-ink-muted">
            No webhooks yet. Add the first one below.
          </p>
        ) : (
          webhooks.map((webhook) => (
            <WebhookCard
              key={webhook.id}
              webhook={webhook}
              action={WEBHOOKS_PATH}
              confirmDeleteHref={`${WEBHOOKS_PATH}?${CONFIRM_DELETE_PARAM}=${webhook.id}#webhook-${webhook.id}`}
              confirmingDelete={confirmDelete === webhook.id}
            />
          ))
        )}
      </section>

      <section aria-labelledby="add-webhook-heading" className="flex flex-col gap-4">
        <h2 id="add-webhook-heading" className="text-2xl font-bold tracking-tight">
          Add a webhook
        </h2>
        {webhooks.length >= MAX_WEBHOOKS ? (
          <p className="text-ink-muted">
            The most webhooks allowed ({MAX_WEBHOOKS}) exist; delete one to add another.
          </p>
        ) : (
          <CreateWebhookForm
            // A fresh form after a successful creation, the entered values after a refusal.
            key={secret ? `created-${secret.webhookId}` : "form"}
            action={WEBHOOKS_PATH}
            serverErrors={createError?.errors}
            values={createError?.values}
          />
        )}
      </section>
    </div>
  );
}
