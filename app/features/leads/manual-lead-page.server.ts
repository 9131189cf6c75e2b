import { data, type RouterContextProvider, redirect } from "react-router";
import { readForm } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import type { ManualLeadValues } from "./intake-ui/manual-lead-form.tsx";
import { assignableStaff, UnknownOwnerError } from "./lead-admin.server.ts";
import type { Actor } from "./lead-events.server.ts";
import { withNotice } from "./lead-forms.server.ts";
import { leadsServices } from "./leads-context.server.ts";
import { MANUAL_LEAD_MESSAGES, parseManualLead } from "./manual-lead-schema.ts";

// /admin/leads/new without JavaScript: the form posts here; a refusal answers 400 with every
// field's message and what was typed, a success goes to the new lead's page.

type Context = Readonly<RouterContextProvider>;

const FIELDS = ["fullName", "email", "company", "phone", "message", "source", "ownerId"] as const;

export async function loadManualLeadPage(context: Context) {
  const { database } = await leadsServices(context);
  const staff = (await assignableStaff(database.db)).filter((member) => !member.disabled);
  return { staff: staff.map(({ id, username }) => ({ id, username })) };
}

export async function manualLeadAction(request: Request, context: Context, actor: Actor) {
  const form = await readForm(request);
  const values: ManualLeadValues = Object.fromEntries(FIELDS.map((field) => [field, form.get(field) ?? ""]));
  const parsed = parseManualLead(values);
  if (!parsed.success) return data({ errors: parsed.errors, values }, { status: 400 });
  const { leadIntake } = await leadsServices(context);
  try {
    const lead = await leadIntake.add(parsed.data, actor, context.get(clientAddressContext));
    throw redirect(withNotice(`/admin/leads/${lead.id}`, "added"));
  } catch (error) {
    if (error instanceof UnknownOwnerError)
      return data({ errors: { ownerId: MANUAL_LEAD_MESSAGES.owner }, values }, { status: 400 });
    throw error;
  }
}
