import { useState } from "react";
import { Form, Link, useNavigate } from "react-router";
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogTrigger,
} from "#app/components/ui/alert-dialog.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { failureMessage, NETWORK_ERROR, sendJson } from "#app/lib/api-client.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";

export const CONFIRM_DELETE_PARAM = "confirm-delete";

const CONFIRM_TITLE = "Delete this lead?";
const confirmText = (name: string) =>
  `This permanently erases ${name}'s request and its status history. It cannot be undone.`;
export const DELETED_TOAST = {
  title: "Lead deleted",
  description: "The lead and its history have been erased.",
};

/**
 * Erasure of a lead (a data-subject request), an item of the lead's "More actions" menu. With
 * JavaScript: a confirmation dialog, then DELETE /api/admin/leads/:id and back to `afterDelete` (the
 * list the lead was opened from). Without: a link to the page's confirmation step (`confirmHref`).
 */
export function DeleteLeadMenuItem({
  lead,
  confirmHref,
  afterDelete = DASHBOARD_PATH,
  className,
}: {
  lead: { id: number; fullName: string };
  confirmHref: string;
  afterDelete?: string;
  className?: string;
}) {
  const hydrated = useHydrated();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [pending, setPending] = useState(false);

  if (!hydrated) {
    return (
      <Link to={confirmHref} className={className}>
        Delete lead
      </Link>
    );
  }

  async function confirm() {
    if (pending) return;
    setPending(true);
    const failed = (description: string) => {
      setPending(false);
      setOpen(false);
      toast({ title: "Delete failed", description, variant: "destructive" });
    };
    try {
      const response = await sendJson(`/api/admin/leads/${lead.id}`, "DELETE");
      if (!response.ok) {
        failed(await failureMessage(response));
        return;
      }
    } catch {
      failed(NETWORK_ERROR);
      return;
    }
    toast(DELETED_TOAST);
    navigate(afterDelete, { replace: true });
  }

  return (
    <AlertDialog open={open} onOpenChange={(next) => !pending && setOpen(next)}>
      <AlertDialogTrigger asChild>
        <button type="button" className={className}>
          Delete lead
        </button>
      </AlertDialogTrigger>
      <AlertDialogContent title={CONFIRM_TITLE} description={confirmText(lead.fullName)}>
        <AlertDialogCancel asChild>
          <Button variant="outline">Cancel</Button>
        </AlertDialogCancel>
        <Button variant="danger" onClick={confirm} aria-busy={pending || undefined}>
          {pending ? "Deleting..." : "Delete permanently"}
        </Button>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** The confirmation step without JavaScript (`?confirm-delete=1`): a form posting `intent=delete`. */
export function DeleteLeadConfirmation({
  lead,
  action,
  cancelHref = ".",
}: {
  lead: { fullName: string };
  action: string;
  /** The page without its confirmation step (its list state kept). */
  cancelHref?: string;
}) {
  return (
    <section
      aria-labelledby="confirm-delete-heading"
      className="rounded-xl border-2 border-danger bg-white p-6 shadow-sm"
    >
      <h2 id="confirm-delete-heading" className="text-lg font-semibold text-danger">
        {CONFIRM_TITLE}
      </h2>
      <p className="mt-2 leading-6">{confirmText(lead.fullName)}</p>
      <Form method="post" action={action} className="mt-4 flex flex-wrap gap-3">
        <input type="hidden" name="intent" value="delete" />
        <Button type="submit" variant="danger">
          Delete permanently
        </Button>
        <Button asChild variant="outline">
          <Link to={cancelHref}>Cancel</Link>
        </Button>
      </Form>
    </section>
  );
}
