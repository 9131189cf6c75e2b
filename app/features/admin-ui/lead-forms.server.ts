import type { Kysely } from "kysely";
import type { Database } from "#app/db/schema.ts";
import type { PublicUser } from "#app/features/auth/users.server.ts";
import { deleteLead, isLeadStatus, updateLeadStatus } from "#app/features/leads/lead-admin.server.ts";
import { LEAD_STATUSES } from "#app/features/leads/lead-repository.server.ts";

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
  db: Kysely<Database>,
  id: number | null,
  form: URLSearchParams,
  actor: PublicUser,
): Promise<FormOutcome> {
  const status = form.get("status");
  if (!isLeadStatus(status)) {
    return { ok: false, status: 400, message: `Status must be one of: ${LEAD_STATUSES.join(", ")}.` };
  }
  if (id === null) return NOT_FOUND;
  return (await updateLeadStatus(db, id, status, actor)) ? { ok: true } : NOT_FOUND;
}

export async function deleteFromForm(db: Kysely<Database>, id: number | null): Promise<FormOutcome> {
  if (id === null) return NOT_FOUND;
  return (await deleteLead(db, id)) ? { ok: true } : NOT_FOUND;
}

/** A notice a no-JavaScript redirect carries in its query (`?notice=`). */
export const NOTICE_PARAM = "notice";
export type Notice = "updated" | "deleted";

export function readNotice(url: URL): Notice | null {
  const value = url.searchParams.get(NOTICE_PARAM);
  return value === "updated" || value === "deleted" ? value : null;
}

/** The page the form was posted from, with a notice for the redirect after the post. */
export function withNotice(path: string, notice: Notice): string {
  const url = new URL(path, "http://admin.invalid");
  url.searchParams.delete("index");
  url.searchParams.set(NOTICE_PARAM, notice);
  return url.pathname + url.search;
}
