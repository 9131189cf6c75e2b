import type { Kysely } from "kysely";
import type { RouterContextProvider } from "react-router";
import type { Database } from "#app/db/schema.ts";
import { recordAccess } from "#app/lib/access-log.server.ts";
import { LEAD_NOTIFICATION } from "#app/lib/outbox/outbox.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { assertSameOrigin, requireApiPermission, type StaffUser } from "#app/lib/staff-guard.server.ts";
import { DEFAULT_ERASURE_REASON } from "./people-constants.ts";
import {
  type FormerLead,
  type PeopleLeads,
  type PersonLead,
  type PersonLeadFields,
  peopleServices,
} from "./people-context.server.ts";
import { parsePersonEmail } from "./person-email.ts";

// /api/admin/people?email= (issue 13): a person's data as JSON (GET, recorded in the access log) and
// their erasure (DELETE). Staff only like the rest of /api/admin; the erasure refuses cross-site requests.

type Context = Readonly<RouterContextProvider>;

type LeadRecord = PersonLead;
type Actor = Pick<StaffUser, "id" | "username">;

export type PersonRecord = {
  email: string;
  /** Each lead as the staff API returns it, with its status history. */
  leads: (Omit<PersonLeadFields, "notes" | "timeline" | "otherSubmissions"> & Record<string, unknown>)[];
  notes: (LeadRecord["notes"][number] & { leadId: number })[];
  timeline: (LeadRecord["timeline"][number] & { leadId: number })[];
  /** The emails and webhook deliveries queued about the person's leads. */
  messages: {
    leadId: number;
    kind: string;
    status: string;
    attempts: number;
    createdAt: string;
    sentAt: string | null;
  }[];
  /**
   * Leads that carried this email before staff replaced it with another (ADR 044): which field, when,
   * and the timeline entries naming it, the other person's value withheld; not the leads themselves,
   * which are the new address's person's.
   */
  formerly: FormerLead[];
  /** When a suppression record says this email was erased before (then asked again). */
  erasedBefore: string | null;
};

/** Everything held on the person with `email` (subject access); null when nothing is. */
export async function findPerson(
  db: Kysely<Database>,
  leads: PeopleLeads,
  email: string,
): Promise<PersonRecord | null> {
  const ids = await leads.leadIdsOf(email);
  const erasedBefore = await leads.erasedOn(email);
  const formerly = await leads.formerLeadsOf(email);
  if (ids.length === 0 && formerly.length === 0)
    return erasedBefore ? emptyRecord(email, erasedBefore) : null;
  const details = (await Promise.all(ids.map((id) => leads.leadRecord(id)))).filter(
    (detail): detail is LeadRecord => detail !== undefined,
  );
  const messages = ids.length > 0 ? await messagesAbout(db, ids) : [];
  return {
    email,
    leads: details.map(({ notes: _notes, timeline: _timeline, otherSubmissions: _others, ...lead }) => lead),
    notes: details.flatMap((detail) => detail.notes.map((note) => ({ ...note, leadId: detail.id }))),
    timeline: details.flatMap((detail) => detail.timeline.map((entry) => ({ ...entry, leadId: detail.id }))),
    messages,
    formerly,
    erasedBefore,
  };
}

const emptyRecord = (email: string, erasedBefore: string): PersonRecord => ({
  email,
  leads: [],
  notes: [],
  timeline: [],
  messages: [],
  formerly: [],
  erasedBefore,
});

/** Outbox rows about these leads: sales notifications (payload `{ leadId }`) and webhook deliveries. */
async function messagesAbout(db: Kysely<Database>, ids: number[]): Promise<PersonRecord["messages"]> {
  const rows = await db
    .selectFrom("outbox")
    .select(["kind", "payload", "status", "attempts", "createdAt", "sentAt"])
    .where("kind", "=", LEAD_NOTIFICATION)
    .where(
      "payload",
      "in",
      ids.map((leadId) => JSON.stringify({ leadId })),
    )
    .orderBy("id")
    .execute();
  return rows.map((row) => ({
    leadId: Number((JSON.parse(row.payload) as { leadId: number }).leadId),
    kind: row.kind,
    status: row.status,
    attempts: Number(row.attempts),
    createdAt: row.createdAt,
    sentAt: row.sentAt,
  }));
}

const BAD_EMAIL = "Give the person's email address as ?email=.";
export const NOTHING_HELD = "Nothing is held on this email address.";

/** Finds the person and records that staff looked them up (page or JSON); null when nothing is held. */
export async function exportPerson(
  context: Context,
  user: Actor,
  email: string,
  format: "json" | "page",
): Promise<PersonRecord | null> {
  const { database, leads } = await peopleServices(context);
  const person = await findPerson(database.db, leads, email);
  // The log says a person's data was shown and how much, never whose (erasure must not leave the email).
  await recordAccess(database.db, {
    action: "person_exported",
    actor: user,
    detail: { format, leads: person?.leads.length ?? 0, formerly: person?.formerly.length ?? 0 },
    clientAddress: context.get(clientAddressContext),
  });
  return person;
}

/**
 * GET /api/admin/people?email=: `{ email, leads, notes, timeline, messages, formerly, erasedBefore }`,
 * or 404.
 */
export async function handleGetPerson(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "people.dataRequests");
  const url = new URL(request.url);
  const email = parsePersonEmail(url.searchParams.get("email"));
  if (!email) return Response.json({ message: BAD_EMAIL }, { status: 400 });
  const person = await exportPerson(context, user, email, "json");
  if (!person) return Response.json({ message: NOTHING_HELD }, { status: 404 });
  const headers: Record<string, string> = {};
  if (url.searchParams.get("download") === "1")
    headers["Content-Disposition"] = 'attachment; filename="person-data.json"';
  return Response.json(person, { headers });
}

/**
 * Erases everything held on the person (the page's form and the API share it): how many of their
 * leads went and how many others carried their address before, or null when nothing is held (no
 * lead carries or carried the address). The reason is trimmed and bounded, with a default.
 */
export async function erasePersonIfHeld(
  context: Context,
  user: Actor,
  email: string,
  reason: string | null,
): Promise<{ leads: number; formerly: number } | null> {
  const { leads } = await peopleServices(context);
  if ((await leads.leadIdsOf(email)).length === 0 && (await leads.formerLeadsOf(email)).length === 0)
    return null;
  return leads.erasePerson({
    email,
    reason: (reason ?? "").trim().slice(0, 200) || DEFAULT_ERASURE_REASON,
    actor: user,
    clientAddress: context.get(clientAddressContext),
  });
}

/** DELETE /api/admin/people?email=: erases everything on the person (204), 404 when nothing is held. */
export async function handleErasePerson(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "people.dataRequests");
  assertSameOrigin(request);
  const url = new URL(request.url);
  const email = parsePersonEmail(url.searchParams.get("email"));
  if (!email) return Response.json({ message: BAD_EMAIL }, { status: 400 });
  const erased = await erasePersonIfHeld(context, user, email, url.searchParams.get("reason"));
  return erased === null
    ? Response.json({ message: NOTHING_HELD }, { status: 404 })
    : new Response(null, { status: 204 });
}
