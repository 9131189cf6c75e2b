import { type ChangeEvent, useEffect, useState } from "react";
import { Form, useRevalidator } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { failureMessage, NETWORK_ERROR, sendJson } from "#app/lib/api-client.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { StaffMember } from "../lead-admin.server.ts";

/**
 * A lead's owner on the list, as a compact select. With JavaScript a change is sent at once
 * (PATCH /api/admin/leads/:id { ownerId }) and the list reloaded; without it the select and an
 * Assign button post `intent=owner` to the page's own action.
 */
export function LeadOwnerControl({
  lead,
  staff,
  action,
}: {
  lead: { id: number; fullName: string; ownerId: number | null };
  staff: StaffMember[];
  action: string;
}) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const current = lead.ownerId === null ? "" : String(lead.ownerId);
  const [value, setValue] = useState(current);
  const [pending, setPending] = useState(false);
  const selectId = `lead-${lead.id}-owner`;

  useEffect(() => setValue(current), [current]);

  async function onChange(event: ChangeEvent<HTMLSelectElement>) {
    const next = event.currentTarget.value;
    setValue(next);
    setPending(true);
    try {
      const response = await sendJson(`/api/admin/leads/${lead.id}`, "PATCH", {
        ownerId: next === "" ? null : Number(next),
      });
      if (!response.ok) {
        setValue(current);
        toast({
          title: "Assignment failed",
          description: await failureMessage(response),
          variant: "destructive",
        });
        return;
      }
      toast({ title: "Owner changed", description: "The lead's owner has been updated." });
      await revalidator.revalidate();
    } catch {
      setValue(current);
      toast({ title: "Assignment failed", description: NETWORK_ERROR, variant: "destructive" });
    } finally {
      setPending(false);
    }
  }

  return (
    <Form
      method="post"
      action={action}
      className="flex min-w-0 items-center gap-2"
      onSubmit={hydrated ? (event) => event.preventDefault() : undefined}
    >
      <input type="hidden" name="intent" value="owner" />
      <input type="hidden" name="id" value={lead.id} />
      <label htmlFor={selectId} className="sr-only">
        Owner of {lead.fullName}
      </label>
      <select
        id={selectId}
        name="ownerId"
        data-owner-control
        className="block h-8 w-full min-w-0 rounded-md border border-line bg-white pr-7 pl-2 text-sm text-ink hover:border-ink-muted focus-visible:border-brand focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand max-md:w-auto max-md:max-w-full md:field-sizing-content md:w-auto md:max-w-40 md:pr-2"
        value={value}
        onChange={onChange}
        aria-busy={pending || undefined}
      >
        <option value="">Unassigned</option>
        {staff
          .filter((member) => !member.disabled || member.id === lead.ownerId)
          .map((member) => (
            <option key={member.id} value={member.id} disabled={member.disabled}>
              {member.username}
              {member.disabled ? " (disabled)" : ""}
            </option>
          ))}
      </select>
      {hydrated ? null : (
        <Button type="submit" size="sm" variant="outline">
          Assign<span className="sr-only"> {lead.fullName}</span>
        </Button>
      )}
    </Form>
  );
}
