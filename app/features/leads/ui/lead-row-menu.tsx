import { useState } from "react";
import { Form, Link, useRevalidator } from "react-router";
import { AlertDialog, AlertDialogCancel, AlertDialogContent } from "#app/components/ui/alert-dialog.tsx";
import { Button } from "#app/components/ui/button.tsx";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "#app/components/ui/dropdown-menu.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { failureMessage, NETWORK_ERROR, sendJson } from "#app/lib/api-client.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { CONFIRM_DELETE_PARAM, DELETED_TOAST } from "./delete-lead.tsx";
import { LEAD_STATUS_OPTIONS, statusLabel } from "./lead-format.ts";

// The list's "Actions" column (SPEC section 2, filled in issue 35): each row's menu. Open the lead,
// take it, plan its next step, set its status, delete it (after a confirmation). With JavaScript a
// Radix menu whose changes go through the JSON API, as the row's own controls do; without it a
// native disclosure of links and forms posting to the page's action.

type MenuLead = { id: number; fullName: string; status: string; ownerId: number | null };

const leadPath = (id: number) => `/admin/leads/${id}`;
/** The lead page's next-step form (the tasks of issue 35 on the lead's page). */
const nextStepPath = (id: number) => `${leadPath(id)}#next-step`;

const triggerClass =
  "grid size-8 cursor-pointer place-items-center rounded-md text-ink-muted hover:bg-surface-muted hover:text-ink focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand data-[state=open]:bg-surface-muted data-[state=open]:text-ink";

function DotsIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 16 16" className="size-4 fill-current">
      <circle cx="3" cy="8" r="1.5" />
      <circle cx="8" cy="8" r="1.5" />
      <circle cx="13" cy="8" r="1.5" />
    </svg>
  );
}

export function LeadRowMenu({ lead, meId, action }: { lead: MenuLead; meId: number; action: string }) {
  const hydrated = useHydrated();
  return hydrated ? (
    <ScriptedMenu lead={lead} meId={meId} />
  ) : (
    <PlainMenu lead={lead} meId={meId} action={action} />
  );
}

function ScriptedMenu({ lead, meId }: { lead: MenuLead; meId: number }) {
  const revalidator = useRevalidator();
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);
  const mine = lead.ownerId === meId;

  async function change(body: Record<string, unknown>, done: { title: string; description: string }) {
    try {
      const response = await sendJson(`/api/admin/leads/${lead.id}`, "PATCH", body);
      if (!response.ok) {
        toast({
          title: "Update failed",
          description: await failureMessage(response),
          variant: "destructive",
        });
        return;
      }
      toast(done);
      await revalidator.revalidate();
    } catch {
      toast({ title: "Update failed", description: NETWORK_ERROR, variant: "destructive" });
    }
  }

  async function remove() {
    if (pending) return;
    setPending(true);
    try {
      const response = await sendJson(`/api/admin/leads/${lead.id}`, "DELETE");
      if (!response.ok) {
        toast({
          title: "Delete failed",
          description: await failureMessage(response),
          variant: "destructive",
        });
        return;
      }
      toast(DELETED_TOAST);
      setConfirming(false);
      await revalidator.revalidate();
    } catch {
      toast({ title: "Delete failed", description: NETWORK_ERROR, variant: "destructive" });
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      {/* Not modal: the confirmation opened from it must get the page's focus and pointer back. */}
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger
          className={triggerClass}
          aria-label={`Actions for ${lead.fullName}`}
          data-row-menu
        >
          <DotsIcon />
        </DropdownMenuTrigger>
        <DropdownMenuContent aria-label={`Actions for ${lead.fullName}`}>
          <DropdownMenuItem asChild>
            <Link to={leadPath(lead.id)}>Open</Link>
          </DropdownMenuItem>
          <DropdownMenuItem
            disabled={mine}
            onSelect={() =>
              void change(
                { ownerId: meId },
                { title: "Owner changed", description: `${lead.fullName} is assigned to you.` },
              )
            }
          >
            {mine ? "Assigned to you" : "Assign to me"}
          </DropdownMenuItem>
          <DropdownMenuItem asChild>
            <Link to={nextStepPath(lead.id)}>Set next step</Link>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          <DropdownMenuLabel>Mark status</DropdownMenuLabel>
          <DropdownMenuRadioGroup
            value={lead.status}
            onValueChange={(status) =>
              void change(
                { status },
                { title: "Lead updated", description: `${lead.fullName} is now ${statusLabel(status)}.` },
              )
            }
          >
            {LEAD_STATUS_OPTIONS.map((status) => (
              <DropdownMenuRadioItem key={status} value={status}>
                {statusLabel(status)}
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          <DropdownMenuItem tone="danger" onSelect={() => setConfirming(true)}>
            Delete…
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <AlertDialog open={confirming} onOpenChange={(open) => !pending && setConfirming(open)}>
        <AlertDialogContent
          title="Delete this lead?"
          description={`This permanently erases ${lead.fullName}'s request and its status history. It cannot be undone.`}
        >
          <AlertDialogCancel asChild>
            <Button variant="outline">Cancel</Button>
          </AlertDialogCancel>
          <Button variant="danger" onClick={remove} aria-busy={pending || undefined}>
            {pending ? "Deleting..." : "Delete permanently"}
          </Button>
        </AlertDialogContent>
      </AlertDialog>
    </>
  );
}

/** Without JavaScript: a disclosure of links and forms (delete goes to the lead page's confirmation). */
function PlainMenu({ lead, meId, action }: { lead: MenuLead; meId: number; action: string }) {
  const entry = "flex h-9 w-full items-center rounded-md px-2.5 text-left text-sm hover:bg-brand-soft";
  return (
    <details className="relative" data-popover>
      <summary className={`${triggerClass} list-none [&::-webkit-details-marker]:hidden`}>
        <DotsIcon />
        <span className="sr-only">Actions for {lead.fullName}</span>
      </summary>
      <div className="absolute right-0 z-30 mt-1 grid w-48 gap-0.5 rounded-lg border border-line bg-white p-1 shadow-lg">
        <Link to={leadPath(lead.id)} className={entry}>
          Open
        </Link>
        {lead.ownerId === meId ? null : (
          <Form method="post" action={action}>
            <input type="hidden" name="intent" value="owner" />
            <input type="hidden" name="id" value={lead.id} />
            <input type="hidden" name="ownerId" value={meId} />
            <button type="submit" className={entry}>
              Assign to me
            </button>
          </Form>
        )}
        <Link to={nextStepPath(lead.id)} className={entry}>
          Set next step
        </Link>
        <Form method="post" action={action} className="grid gap-0.5 border-t border-line pt-1">
          <input type="hidden" name="intent" value="status" />
          <input type="hidden" name="id" value={lead.id} />
          <p className="px-2.5 pt-1 text-xs font-semibold text-ink-muted">Mark status</p>
          {LEAD_STATUS_OPTIONS.map((status) => (
            <button
              key={status}
              type="submit"
              name="status"
              value={status}
              aria-pressed={status === lead.status}
              className={`${entry} aria-pressed:font-semibold`}
            >
              {statusLabel(status)}
            </button>
          ))}
        </Form>
        <Link
          to={`${leadPath(lead.id)}?${CONFIRM_DELETE_PARAM}=1`}
          className={`${entry} border-t border-line text-danger`}
        >
          Delete…
        </Link>
      </div>
    </details>
  );
}
