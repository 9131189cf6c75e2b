import type { AuditRow } from "./ui/audit-view.ts";

// The /admin/audit page's address and its query, shared by its server side and its components.

export const AUDIT_PATH = "/admin/audit";
/** `?details=<id>`: the page opens that stored audit's details. */
export const DETAILS_PARAM = "details";

export const detailsHref = (audit: Pick<AuditRow, "id">) =>
  `${AUDIT_PATH}?${DETAILS_PARAM}=${encodeURIComponent(String(audit.id))}#audit-details`;
