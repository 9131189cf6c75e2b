import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import type { StaffMember } from "../lead-admin.server.ts";

/**
 * Who works the lead, posted as `intent=owner`. A disabled colleague is offered only while they
 * still own it (shown, not choosable), so the current owner is never silently dropped.
 */
export function LeadOwnerForm({
  ownerId,
  staff,
  action,
}: {
  ownerId: number | null;
  staff: StaffMember[];
  action: string;
}) {
  const busy = usePendingIntent("owner");
  return (
    <Form method="post" action={action} className="grid gap-1.5">
      <input type="hidden" name="intent" value="owner" />
      <label htmlFor="lead-owner" className="font-semibold">
        Owner
      </label>
      <div className="flex flex-wrap gap-2">
        <NativeSelect
          id="lead-owner"
          name="ownerId"
          compact
          className="min-w-40 flex-1"
          defaultValue={ownerId ?? ""}
          key={ownerId ?? "none"}
        >
          <option value="">Unassigned</option>
          {staff
            .filter((member) => !member.disabled || member.id === ownerId)
            .map((member) => (
              <option key={member.id} value={member.id} disabled={member.disabled}>
                {member.username}
                {member.disabled ? " (disabled)" : ""}
              </option>
            ))}
        </NativeSelect>
        <Button type="submit" size="sm" variant="outline" disabled={busy}>
          {busy ? "Saving..." : "Assign"}
        </Button>
      </div>
    </Form>
  );
}
