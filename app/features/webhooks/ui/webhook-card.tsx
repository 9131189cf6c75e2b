import { Form, Link, useNavigation } from "react-router";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogTrigger,
} from "#app/components/ui/alert-dialog.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { Webhook } from "../webhook-types.ts";
import { DeliveryLog, type DeliveryRow } from "./delivery-log.tsx";

export type WebhookCardData = Omit<Webhook, "createdAt" | "secretRotatedAt"> & {
  created: string;
  rotated: string | null;
  deliveries: DeliveryRow[];
};

const CONFIRM_TITLE = "Delete this webhook?";
const confirmText = (url: string) => (
  <>
    <span className="break-all">{url}</span> will receive no more events, and its delivery log is erased.
    Deliveries still queued are dropped.
  </>
);

/** One webhook: what it receives, its actions and its delivery log. */
export function WebhookCard({
  webhook,
  action,
  confirmDeleteHref,
  confirmingDelete,
}: {
  webhook: WebhookCardData;
  action: string;
  confirmDeleteHref: string;
  confirmingDelete: boolean;
}) {
  const navigation = useNavigation();
  const submitting = (intent: string) =>
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData?.get("id") === String(webhook.id);
  const headingId = `webhook-${webhook.id}-heading`;
  const logId = `webhook-${webhook.id}-log`;

  return (
    <article
      id={`webhook-${webhook.id}`}
      aria-labelledby={headingId}
      data-testid="webhook-card"
      className="grid min-w-0 gap-4 rounded-xl border border-line bg-white p-5 shadow-sm sm:p-6"
    >
      <div className="min-w-0">
        <h3 id={headingId} className="font-mono text-base font-semibold break-all">
          {webhook.url}
        </h3>
        <ul className="mt-2 flex flex-wrap gap-2" aria-label="Events">
          {webhook.events.map((event) => (
            <li
              key={event}
              className="rounded-full bg-brand-soft px-2.5 py-0.5 text-xs font-semibold text-brand"
            >
              {event}
            </li>
          ))}
        </ul>
        <p className="mt-2 text-sm text-ink-muted">
          Added {webhook.created} by {webhook.createdBy}
          {webhook.rotated ? ` · secret rotated ${webhook.rotated}` : ""}
        </p>
      </div>

      <div className="flex flex-wrap items-end gap-3">
        <Form method="post" action={action} className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="intent" value="test" />
          <input type="hidden" name="id" value={webhook.id} />
          <div className="grid gap-1">
            <label htmlFor={`test-event-${webhook.id}`} className="text-sm font-semibold">
              Test event
            </label>
            <NativeSelect id={`test-event-${webhook.id}`} name="event" compact defaultValue="ping">
              <option value="ping">ping</option>
              <option value="lead.created">lead.created (sample lead)</option>
            </NativeSelect>
          </div>
          <Button type="submit" size="sm" aria-busy={submitting("test") || undefined}>
            {submitting("test") ? "Sending..." : "Send test event"}
          </Button>
        </Form>
        <Form method="post" action={action}>
          <input type="hidden" name="intent" value="rotate" />
          <input type="hidden" name="id" value={webhook.id} />
          <Button type="submit" size="sm" variant="outline" aria-busy={submitting("rotate") || undefined}>
            {submitting("rotate") ? "Rotating..." : "Rotate secret"}
          </Button>
        </Form>
        <DeleteWebhook webhook={webhook} action={action} confirmDeleteHref={confirmDeleteHref} />
      </div>

      {confirmingDelete ? (
        <section
          aria-labelledby={`confirm-delete-${webhook.id}`}
          className="rounded-lg border-2 border-danger bg-white p-4"
        >
          <h4 id={`confirm-delete-${webhook.id}`} className="font-semibold text-danger">
            {CONFIRM_TITLE}
          </h4>
          <p className="mt-1 leading-6">{confirmText(webhook.url)}</p>
          <Form method="post" action={action} className="mt-3 flex flex-wrap gap-3">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={webhook.id} />
            <Button type="submit" variant="danger" size="sm">
              Delete permanently
            </Button>
            <Button asChild variant="outline" size="sm">
              <Link to={`${action}#webhook-${webhook.id}`}>Cancel</Link>
            </Button>
          </Form>
        </section>
      ) : null}

      <section aria-labelledby={logId} className="grid gap-2">
        <h4 id={logId} className="font-semibold">
          Delivery log
        </h4>
        <DeliveryLog deliveries={webhook.deliveries} headingId={logId} />
      </section>
    </article>
  );
}

/** With JavaScript a dialog asks first; without, a link opens the confirmation step in the card. */
function DeleteWebhook({
  webhook,
  action,
  confirmDeleteHref,
}: {
  webhook: WebhookCardData;
  action: string;
  confirmDeleteHref: string;
}) {
  const hydrated = useHydrated();
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "delete" &&
    navigation.formData?.get("id") === String(webhook.id);
  if (!hydrated) {
    return (
      <Button asChild size="sm" variant="danger">
        <Link to={confirmDeleteHref}>Delete</Link>
      </Button>
    );
  }
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button size="sm" variant="danger">
          Delete
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent title={CONFIRM_TITLE} description={confirmText(webhook.url)}>
        <AlertDialogCancel asChild>
          <Button variant="outline">Cancel</Button>
        </AlertDialogCancel>
        <Form method="post" action={action}>
          <input type="hidden" name="intent" value="delete" />
          <input type="hidden" name="id" value={webhook.id} />
          <Button type="submit" variant="danger" aria-busy={pending || undefined}>
            {pending ? "Deleting..." : "Delete permanently"}
          </Button>
        </Form>
      </AlertDialogContent>
    </AlertDialog>
  );
}
