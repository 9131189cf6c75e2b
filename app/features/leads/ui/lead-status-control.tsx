import { type ChangeEvent, useEffect, useState } from "react";
import { Form, useRevalidator } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { failureMessage, NETWORK_ERROR, sendJson } from "#app/lib/api-client.ts";
import { cn } from "#app/lib/cn.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { LEAD_STATUS_OPTIONS, statusBadgeClass, statusLabel } from "./lead-format.ts";

/**
 * The list's status control looks like the status badge it replaces (status shows once a row), as
 * wide as the status it shows (not its longest option), so the list fits beside the sidebar.
 */
const BADGE_SELECT =
  "field-sizing-content h-8 cursor-pointer rounded-full border border-transparent pr-2 pl-3 text-xs font-semibold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand";

const UPDATED = { title: "Lead updated", description: "The lead status has been updated successfully." };
const UPDATE_FAILED = "Update failed";

/**
 * A lead's status dropdown (SPEC sections 4 and 8). With JavaScript a change is sent at once
 * (PATCH /api/admin/leads/:id) and the page's data reloaded; without it the select and an Update
 * button post to the page's own action (`action`), which answers with a redirect.
 */
export function LeadStatusControl({
  lead,
  action,
  badge = false,
}: {
  lead: { id: number; fullName: string; status: string };
  /** The page's URL (with its query), whose action takes `intent=status`, `id` and `status`. */
  action: string;
  /** Shown as the status badge (the list), rather than as a form field (the lead's page). */
  badge?: boolean;
}) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [value, setValue] = useState(lead.status);
  const [pending, setPending] = useState(false);
  const selectId = `lead-${lead.id}-status`;

  // Reloaded data (this change, or someone else's) is the truth once it arrives.
  useEffect(() => setValue(lead.status), [lead.status]);

  async function onChange(event: ChangeEvent<HTMLSelectElement>) {
    const status = event.currentTarget.value;
    setValue(status);
    const failed = (description: string) => {
      setValue(lead.status);
      toast({ title: UPDATE_FAILED, description, variant: "destructive" });
    };
    setPending(true);
    try {
      const response = await sendJson(`/api/admin/leads/${lead.id}`, "PATCH", { status });
      if (!response.ok) {
        failed(await failureMessage(response));
        return;
      }
      toast(UPDATED);
      await revalidator.revalidate();
    } catch {
      failed(NETWORK_ERROR);
    } finally {
      setPending(false);
    }
  }

  return (
    <Form
      method="post"
      action={action}
      className="flex items-center gap-2"
      onSubmit={hydrated ? (event) => event.preventDefault() : undefined}
    >
      <input type="hidden" name="intent" value="status" />
      <input type="hidden" name="id" value={lead.id} />
      <label htmlFor={selectId} className="sr-only">
        Status of {lead.fullName}
      </label>
      {badge ? (
        <select
          id={selectId}
          name="status"
          data-status-control
          data-status={value}
          className={cn(BADGE_SELECT, statusBadgeClass(value))}
          value={value}
          onChange={onChange}
          aria-busy={pending || undefined}
        >
          {LEAD_STATUS_OPTIONS.map((status) => (
            <option key={status} value={status} className="bg-white text-ink">
              {statusLabel(status)}
            </option>
          ))}
        </select>
      ) : (
        <NativeSelect
          id={selectId}
          name="status"
          compact
          className="min-w-36"
          value={value}
          onChange={onChange}
          aria-busy={pending || undefined}
        >
          {LEAD_STATUS_OPTIONS.map((status) => (
            <option key={status} value={status}>
              {statusLabel(status)}
            </option>
          ))}
        </NativeSelect>
      )}
      {hydrated ? null : (
        <Button type="submit" size="sm" variant="outline">
          Update<span className="sr-only"> status of {lead.fullName}</span>
        </Button>
      )}
    </Form>
  );
}
