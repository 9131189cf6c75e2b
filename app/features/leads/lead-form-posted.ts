import { useActionData, useLocation } from "react-router";
import { type PostedLeadForm, SUBMITTED_PARAM } from "./lead-form-client.ts";
import type { LeadFormActionData } from "./lead-http.server.ts";
import type { RequestType } from "./lead-schema.ts";

/**
 * For the page that renders a lead form (on the server): what its no-JavaScript POST left, to hand to
 * the form's island. The island itself runs without React Router (ADR 013).
 */
export function usePostedLeadForm(requestType: RequestType): PostedLeadForm {
  const actionData = useActionData<LeadFormActionData>();
  const { search } = useLocation();
  return { actionData, submitted: new URLSearchParams(search).get(SUBMITTED_PARAM) === requestType };
}
