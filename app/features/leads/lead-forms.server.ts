import { routePath } from "#app/lib/body-limits.ts";
import { isLeadStatus, type LeadAdmin } from "./lead-admin.server.ts";
import type { Actor } from "./lead-events.server.ts";
import { LEAD_STATUSES } from "./lead-repository.server.ts";

// The back-office forms as they arrive without JavaScript (the JSON API serves the script): each
// answers with what the route's action sends back.

export type FormOutcome = { ok: true } | { ok: false; status: number; message: string };

const NOT_FOUND: FormOutcome = { ok: false, status: 404, message: "Lead not found." };

export function parseLeadId(raw: unknown): number | null {
  const id = typeof raw === "string" && /^\d+$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** `status` from the form, for lead `id`, recorded as changed by `actor`. */
export async function changeStatusFromForm(
  leadAdmin: LeadAdmin,
  id: number | null,
  form: URLSearchParams,
  actor: Actor,
): Promise<FormOutcome> {
  const status = form.get("status");
  if (!isLeadStatus(status)) {
    return { ok: false, status: 400, message: `Status must be one of: ${LEAD_STATUSES.join(", ")}.` };
  }
  if (id === null) return NOT_FOUND;
  return (await leadAdmin.setStatus(id, status, actor)) ? { ok: true } : NOT_FOUND;
}

export async function deleteFromForm(
  leadAdmin: LeadAdmin,
  id: number | null,
  actor: Actor,
  clientAddress: string,
): Promise<FormOutcome> {
  if (id === null) return NOT_FOUND;
  return (await leadAdmin.remove(id, actor, clientAddress)) ? { ok: true } : NOT_FOUND;
}

/** A notice a no-JavaScript redirect carries in its query (`?notice=`). */
export const NOTICE_PARAM = "notice";
export const NOTICES = [
  "updated",
  "deleted",
  "bulk",
  "owner",
  "spam",
  "not-spam",
  "note",
  "view-saved",
  "view-deleted",
  "next-step",
  "next-step-cleared",
  "added",
  "details",
  "call",
  "email",
  "task",
  "task-done",
  "task-reopened",
] as const;
export type Notice = (typeof NOTICES)[number];

export function readNotice(url: URL): Notice | null {
  const value = url.searchParams.get(NOTICE_PARAM);
  return (NOTICES as readonly string[]).includes(value ?? "") ? (value as Notice) : null;
}

/** The page the form was posted from, with a notice for the redirect after the post. */
export function withNotice(path: string, notice: Notice): string {
  const url = new URL(path, "http://admin.invalid");
  // A post from a hydrated page arrives as React Router's data request (`/admin/leads/7.data`):
  // the redirect goes to the page itself.
  url.pathname = routePath(url.pathname);
  url.searchParams.delete("index");
  url.searchParams.set(NOTICE_PARAM, notice);
  return url.pathname + url.search;
}
