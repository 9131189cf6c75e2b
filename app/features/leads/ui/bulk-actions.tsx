import { type FormEvent, useEffect, useState } from "react";
import { Form, useSubmit } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { StaffMember } from "../lead-admin.server.ts";
import { LEAD_STATUS_OPTIONS, statusLabel } from "./lead-format.ts";

/** The bulk form's id: the table's row boxes belong to it from outside it (`form=`). */
export const BULK_FORM = "bulk-form";

/** The CSV download of the selected leads (a resource route, not a page). */
const EXPORT_ACTION = "/api/admin/leads/export";

/**
 * One action for every selected lead: a status, an owner, or the spam verdict; or an export of just
 * those. With JavaScript the bar appears only once a row is selected, and no action is chosen until
 * the person chooses one (issue 35); without it the bar stays in view and the boxes are posted as
 * they are (the server refuses a missing action with a message).
 */
export function BulkActions({
  action,
  staff,
  selectedCount,
  onClear,
}: {
  /** The page's URL (with its query), whose action takes `intent=bulk`, `ids` and `do`. */
  action: string;
  staff: StaffMember[];
  selectedCount: number;
  /** Clears the selection (with JavaScript). */
  onClear: () => void;
}) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const [chosen, setChosen] = useState("");
  // A selection emptied (applied, cleared, another page): the next one starts with no action.
  useEffect(() => {
    if (selectedCount === 0) setChosen("");
  }, [selectedCount]);
  // NOTE: the router cannot follow a submission to a file download: it fetches the export as route
  // data and shows a blank page (issue 22), ignoring formTarget. So the form is the browser's own
  // (`reloadDocument`) and only the bulk action is handed to the router; the export stays a plain
  // GET whose attachment downloads while the dashboard stays open, as it does without JavaScript.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (submitter?.getAttribute("formaction") === EXPORT_ACTION) return;
    event.preventDefault();
    submit(submitter instanceof HTMLButtonElement ? submitter : event.currentTarget);
  };
  const hidden = hydrated && selectedCount === 0;
  return (
    <Form
      id={BULK_FORM}
      method="post"
      action={action}
      reloadDocument
      onSubmit={onSubmit}
      hidden={hidden}
      aria-label="Bulk actions"
      data-bulk-bar
      className="flex flex-wrap items-center gap-2 rounded-lg border border-brand/30 bg-brand-soft/60 px-3 py-2"
    >
      <input type="hidden" name="intent" value="bulk" />
      <p className="text-sm font-semibold tabular-nums" aria-live="polite">
        {hydrated ? `${selectedCount} selected` : "With the selected leads:"}
      </p>
      <div className="grid gap-1">
        <label htmlFor="bulk-do" className="sr-only">
          Action for the selected leads
        </label>
        <NativeSelect
          id="bulk-do"
          name="do"
          compact
          className="w-52 bg-white"
          placeholder="Choose an action"
          {...(hydrated
            ? { value: chosen, onChange: (event) => setChosen(event.currentTarget.value) }
            : { defaultValue: "" })}
        >
          <optgroup label="Set status">
            {LEAD_STATUS_OPTIONS.map((status) => (
              <option key={status} value={`status:${status}`}>
                Status: {statusLabel(status)}
              </option>
            ))}
          </optgroup>
          <optgroup label="Assign">
            {staff
              .filter((member) => !member.disabled)
              .map((member) => (
                <option key={member.id} value={`owner:${member.id}`}>
                  Assign to {member.username}
                </option>
              ))}
            <option value="owner:none">Unassign</option>
          </optgroup>
          <optgroup label="Spam">
            <option value="spam:true">Mark as spam</option>
            <option value="spam:false">Not spam</option>
          </optgroup>
        </NativeSelect>
      </div>
      <Button type="submit" size="sm" disabled={hydrated && (selectedCount === 0 || chosen === "")}>
        Apply
      </Button>
      <Button
        type="submit"
        size="sm"
        variant="outline"
        formMethod="get"
        formAction={EXPORT_ACTION}
        disabled={hydrated && selectedCount === 0}
      >
        Export selected
      </Button>
      {hydrated ? (
        <Button type="button" size="sm" variant="ghost" onClick={onClear}>
          Clear selection
        </Button>
      ) : null}
    </Form>
  );
}
