import type { Kysely } from "kysely";
import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import type { Database } from "#app/db/schema.ts";
import { recordAccess } from "#app/lib/access-log.server.ts";
import {
  ATTRIBUTION_COLUMNS,
  CHANNELS,
  channelFromSlug,
  channelSlug,
  toLeadAttribution,
} from "#app/lib/attribution.ts";
import { DEFAULT_BODY_LIMIT, LEAD_BODY_LIMIT } from "#app/lib/body-limits.ts";
import { readJsonObject } from "#app/lib/http.server.ts";
import { leadOriginSql } from "#app/lib/lead-origin.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { DeadlineError, withDeadline } from "#app/lib/with-deadline.ts";
import { EXPORT_FILTER_PARAMS } from "./export-log-words.ts";
import {
  type BulkAction,
  ContactEditRefused,
  LEAD_SORTS,
  type LeadListQuery,
  leadHistory,
  listLeads,
  UnknownOwnerError,
} from "./lead-admin.server.ts";
import {
  CONTACT_FIELDS,
  type ContactEdit,
  hasContactFields,
  parseContactEdit,
} from "./lead-contact-schema.ts";
import { emailKeyOf, otherSubmissions } from "./lead-contacts.server.ts";
import { exportFileName, leadsCsvStream } from "./lead-csv.server.ts";
import { addNote, listNotes, NoteBodySchema } from "./lead-notes.server.ts";
import { findLead, LEAD_STATUSES, type Lead } from "./lead-repository.server.ts";
import { MESSAGES } from "./lead-schema.ts";
import { leadTimeline } from "./lead-timeline.server.ts";
import { type LeadsServices, leadsServices } from "./leads-context.server.ts";

// /api/admin/leads… (SPEC section 7): every handler checks the admin session first, and mutations
// also refuse cross-site requests.

type Context = Readonly<RouterContextProvider>;

export const DEFAULT_API_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

const DATE = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "use YYYY-MM-DD")
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
      new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    "not a date",
  );

/** Up to this many ids in one export of ticked rows or one bulk action. */
export const MAX_IDS = 500;
const ID = z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER);

const ListQuerySchema = z
  .object({
    status: z.enum(LEAD_STATUSES).optional(),
    q: z
      .string()
      .trim()
      .max(100)
      .refine((value) => !breaksTextRule(value, "one-line"), "The search may not contain control characters.")
      .optional(),
    spam: z.enum(["exclude", "only", "include"]).optional(),
    sort: z.enum(LEAD_SORTS).optional(),
    order: z.enum(["asc", "desc"]).optional(),
    owner: z.union([z.literal("me"), z.literal("none"), ID]).optional(),
    type: z.enum(["demo", "investor"]).optional(),
    from: DATE.optional(),
    to: DATE.optional(),
    channel: z
      .string()
      .transform((value) => channelFromSlug(value))
      .refine((value) => value !== undefined, `one of ${CHANNELS.map(channelSlug).join(", ")}`)
      .optional(),
    campaign: z
      .string()
      .trim()
      .max(200)
      .refine(
        (value) => !breaksTextRule(value, "one-line"),
        "The campaign may not contain control characters.",
      )
      .optional(),
    ids: z
      .string()
      .regex(/^\d{1,15}(,\d{1,15})*$/, "a comma-separated list of lead ids")
      .transform((value) => value.split(",").map(Number))
      .refine((ids) => ids.length <= MAX_IDS, `at most ${MAX_IDS} ids`)
      .optional(),
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_API_PAGE_SIZE),
  })
  .refine((query) => !query.from || !query.to || query.from <= query.to, {
    message: "the start date is after the end date",
    path: ["from"],
  });

/** The list's query string as a LeadListQuery, or the 400 to answer. `owner=me` needs the user's id. */
export function parseListQuery(
  url: URL,
  defaults: { pageSize?: number; userId?: number } = {},
): { ok: true; query: LeadListQuery } | { ok: false; response: Response } {
  const raw: Record<string, string> = Object.fromEntries(
    [...url.searchParams].filter(([, value]) => value !== ""),
  );
  // `ids=1,2,3`, or one `ids` per ticked checkbox when the dashboard's form sends them.
  const ids = url.searchParams.getAll("ids").filter(Boolean);
  if (ids.length > 0) raw.ids = ids.join(",");
  const parsed = ListQuerySchema.safeParse({ pageSize: defaults.pageSize, ...raw });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      response: Response.json(
        { message: `Invalid ${String(issue?.path[0] ?? "query")}: ${issue?.message ?? "bad value"}` },
        { status: 400 },
      ),
    };
  }
  const { owner, channel, campaign, ...query } = parsed.data;
  const ownerId = owner === "me" ? (defaults.userId ?? -1) : owner === "none" ? null : owner;
  return { ok: true, query: { ...query, ownerId, channel, campaign: campaign || undefined } };
}

function leadId(raw: string | undefined): number | null {
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const notFound = () => Response.json({ message: "Lead not found." }, { status: 404 });
const badRequest = (message: string, field?: string) =>
  Response.json({ message, errors: field ? { [field]: message } : {} }, { status: 400 });

/** A read waits at most this long for attributions to settle (a backlog after an outage). */
const SETTLE_WAIT_MS = 1000;

/**
 * Before staff read leads: settles the attribution of every lead whose visit has had time to be
 * written (issue 12), so what they see, filter and export is final. One indexed read when there is
 * nothing to settle. A backlog (thousands due after an outage) goes on in the background past
 * SETTLE_WAIT_MS: the read shows those leads as still pending rather than waiting. A failure leaves
 * the rows pending for the next reader and is not the read's.
 */
export async function settleAttributions(services: Pick<LeadsServices, "settleAttributions">): Promise<void> {
  try {
    await withDeadline(services.settleAttributions(), SETTLE_WAIT_MS, "settling attributions");
  } catch (error) {
    if (error instanceof DeadlineError) return;
    console.error("Settling lead attributions failed:", (error as Error).message.split("\n")[0]);
  }
}

/** GET /api/admin/leads: the array of leads; the total count in X-Total-Count. */
export async function handleListLeads(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "leads.read");
  const parsed = parseListQuery(new URL(request.url), { userId: user.id });
  if (!parsed.ok) return parsed.response;
  const services = await leadsServices(context);
  // Not waited for, as on the dashboard (lead-dashboard.server.ts): the list shows a lead still
  // being linked as pending; GET /api/admin/leads/:id and the export wait for it.
  void settleAttributions(services);
  const { leads, total } = await listLeads(services.database.db, parsed.query);
  return Response.json(leads, { headers: { "X-Total-Count": String(total) } });
}

/**
 * Everything the lead's page shows: the lead, its status history (SPEC section 7's shape), notes,
 * timeline, the person's other submissions and the spam verdict behind it.
 */
export async function leadDetail(db: Kysely<Database>, id: number) {
  const lead = await findLead(db, id);
  if (!lead) return undefined;
  const emailKey = (await emailKeyOf(db, id)) ?? "";
  const [history, notes, timeline, others, attribution, origin] = await Promise.all([
    leadHistory(db, id),
    listNotes(db, id),
    leadTimeline(db, lead),
    otherSubmissions(db, { id, emailKey }),
    db.selectFrom("leadAttributions").select(ATTRIBUTION_COLUMNS).where("leadId", "=", id).executeTakeFirst(),
    db
      .selectFrom("leads")
      .select(leadOriginSql("leads").as("origin"))
      .where("id", "=", id)
      .executeTakeFirst(),
  ]);
  return {
    ...lead,
    origin: origin?.origin ?? ("website" as const),
    returning: others.some((other) => other.id < id && !other.isSpam),
    attribution: toLeadAttribution(attribution),
    history,
    notes,
    timeline,
    otherSubmissions: others,
  };
}

/** GET /api/admin/leads/:id: the lead with its history, notes, timeline and other submissions. */
export async function handleGetLead(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "leads.read");
  const id = leadId(rawId);
  if (id === null) return notFound();
  const services = await leadsServices(context);
  await settleAttributions(services);
  const detail = await leadDetail(services.database.db, id);
  return detail ? Response.json(detail) : notFound();
}

const PatchSchema = z
  .object({
    status: z.enum(LEAD_STATUSES, `Status must be one of: ${LEAD_STATUSES.join(", ")}.`).optional(),
    ownerId: z
      .union(
        [z.number().int().min(1).max(Number.MAX_SAFE_INTEGER), z.null()],
        "ownerId must be a user id or null.",
      )
      .optional(),
    spam: z.boolean("spam must be true or false.").optional(),
  })
  .loose()
  .refine(
    (body) =>
      body.status !== undefined ||
      body.ownerId !== undefined ||
      body.spam !== undefined ||
      hasContactFields(body),
    { message: `Send at least one of status, ownerId, spam, ${CONTACT_FIELDS.join(", ")}.` },
  );

/**
 * PATCH /api/admin/leads/:id { status?, ownerId?, spam?, fullName?, email?, company?, phone?,
 * message?, investorType?, otherDetails? }: status one of SPEC section 4's five, ownerId a staff
 * member's id or null (unassigned), spam true or false; the contact fields by the rules of the form
 * the lead came from (issue 35), each change on its timeline. 400 with `errors` per field otherwise,
 * 404 unknown. The contact fields are checked before anything changes, and the changes are made in
 * one transaction: a refused owner (or address) saves none of them.
 */
export async function handlePatchLead(request: Request, context: Context, rawId: string | undefined) {
  const user = await requireApiPermission(request, context, "leads.write");
  assertSameOrigin(request);
  const body = await readJsonObject(request, LEAD_BODY_LIMIT);
  if (!body.ok) return body.response;
  const parsed = PatchSchema.safeParse(body.value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return badRequest(issue?.message ?? "Invalid change.", String(issue?.path[0] ?? "") || undefined);
  }
  const id = leadId(rawId);
  if (id === null) return notFound();
  const { leadAdmin, database } = await leadsServices(context);
  const { status, ownerId, spam } = parsed.data;
  let edit: ContactEdit | undefined;
  if (hasContactFields(body.value)) {
    const current = await findLead(database.db, id);
    if (!current) return notFound();
    const contact = parseContactEdit(current.requestType, body.value);
    if (!contact.success)
      return Response.json({ message: MESSAGES.invalid, errors: contact.errors }, { status: 400 });
    edit = contact.data;
  }
  let lead: Lead | undefined;
  try {
    // One transaction: a refused owner or address leaves the lead as it was, every part unsaved.
    lead = await leadAdmin.update(id, { contact: edit, status, ownerId, spam }, user);
  } catch (error) {
    if (error instanceof UnknownOwnerError) return badRequest(error.message, "ownerId");
    if (error instanceof ContactEditRefused) return badRequest(error.message, error.field);
    throw error;
  }
  return lead ? Response.json(lead) : notFound();
}

/** DELETE /api/admin/leads/:id: erases the lead and its history. */
export async function handleDeleteLead(request: Request, context: Context, rawId: string | undefined) {
  const user = await requireApiPermission(request, context, "leads.write");
  assertSameOrigin(request);
  const id = leadId(rawId);
  if (id === null) return notFound();
  const { leadAdmin } = await leadsServices(context);
  return (await leadAdmin.remove(id, user, context.get(clientAddressContext)))
    ? new Response(null, { status: 204 })
    : notFound();
}

/** POST /api/admin/leads/:id/notes { body }: 201 with the note. */
export async function handleAddNote(request: Request, context: Context, rawId: string | undefined) {
  const user = await requireApiPermission(request, context, "leads.write");
  assertSameOrigin(request);
  const body = await readJsonObject(request, DEFAULT_BODY_LIMIT);
  if (!body.ok) return body.response;
  const parsed = NoteBodySchema.safeParse(body.value.body);
  if (!parsed.success) return badRequest(parsed.error.issues[0]?.message ?? "Invalid note.", "body");
  const id = leadId(rawId);
  if (id === null) return notFound();
  const { database } = await leadsServices(context);
  const note = await addNote(database.db, id, parsed.data, user);
  return note ? Response.json(note, { status: 201 }) : notFound();
}

const BulkSchema = z.discriminatedUnion(
  "action",
  [
    z.object({
      ids: z.array(ID, "ids must be a list of lead ids.").min(1, "Select at least one lead.").max(MAX_IDS),
      action: z.literal("status"),
      value: z.enum(LEAD_STATUSES, `Status must be one of: ${LEAD_STATUSES.join(", ")}.`),
    }),
    z.object({
      ids: z.array(ID, "ids must be a list of lead ids.").min(1, "Select at least one lead.").max(MAX_IDS),
      action: z.literal("owner"),
      value: z.union([ID, z.null()], "value must be a user id or null."),
    }),
    z.object({
      ids: z.array(ID, "ids must be a list of lead ids.").min(1, "Select at least one lead.").max(MAX_IDS),
      action: z.literal("spam"),
      value: z.boolean("value must be true or false."),
    }),
  ],
  "action must be status, owner or spam.",
);

export type BulkRequest = z.infer<typeof BulkSchema>;

/** Validates a bulk request from the API or the dashboard's form. */
export function parseBulk(value: unknown): { ok: true; bulk: BulkRequest } | { ok: false; message: string } {
  const parsed = BulkSchema.safeParse(value);
  return parsed.success
    ? { ok: true, bulk: parsed.data }
    : { ok: false, message: parsed.error.issues[0]?.message ?? "Invalid bulk action." };
}

/** POST /api/admin/leads/bulk { ids, action, value }: 200 { changed, missing }. */
export async function handleBulk(request: Request, context: Context) {
  const user = await requireApiPermission(request, context, "leads.write");
  assertSameOrigin(request);
  const body = await readJsonObject(request, DEFAULT_BODY_LIMIT);
  if (!body.ok) return body.response;
  const parsed = parseBulk(body.value);
  if (!parsed.ok) return badRequest(parsed.message);
  const { leadAdmin } = await leadsServices(context);
  try {
    const { ids, action, value } = parsed.bulk;
    return Response.json(await leadAdmin.bulk(ids, { action, value } as BulkAction, user));
  } catch (error) {
    if (error instanceof UnknownOwnerError) return badRequest(error.message, "value");
    throw error;
  }
}

/** True when Accept-Encoding lists gzip (or *) without refusing it with q=0. */
export function acceptsGzip(header: string | null): boolean {
  return (header ?? "").split(",").some((part) => {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const refused = params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
    return (name === "gzip" || name === "*") && !refused;
  });
}

/**
 * The export's query as the access log keeps it: its filter parameters, bounded, with no search
 * text. Others are left out: the dashboard's "Export ticked" also sends its form's bulk fields.
 */
function describeExportFilter(url: URL): string {
  const kept = new URLSearchParams();
  for (const [name, value] of url.searchParams) {
    if (!(EXPORT_FILTER_PARAMS as readonly string[]).includes(name) || value === "") continue;
    // A search term may be a person's name or email: the log says a search was used, not what.
    kept.append(name, name === "q" ? "(search)" : value.slice(0, 200));
  }
  return kept.toString().slice(0, 1000) || "all leads";
}

/** GET /api/admin/leads/export: the leads (same filters as the list, no paging) as a CSV download. */
export async function handleExportLeads(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "leads.export");
  const url = new URL(request.url);
  const parsed = parseListQuery(url, { userId: user.id });
  if (!parsed.ok) return parsed.response;
  const services = await leadsServices(context);
  await settleAttributions(services);
  const { page: _page, pageSize: _pageSize, sort: _sort, order: _order, ...filter } = parsed.query;
  // Recorded once the download ends: who, the filter as asked, how many rows, and whether it ran to
  // the end. A failure to record is logged; the download itself is already on its way.
  const csv = leadsCsvStream(services.database.db, filter, (rows, complete) => {
    recordAccess(services.database.db, {
      action: "export",
      actor: user,
      detail: { filter: describeExportFilter(url), rows, complete },
      clientAddress: context.get(clientAddressContext),
    }).catch((error: Error) =>
      console.error(`Recording an export in the access log failed: ${error.message}`),
    );
  });
  const spam = filter.spam ?? "exclude";
  const headers: Record<string, string> = {
    "Content-Type": "text/csv; charset=utf-8",
    // The file's name says whether held spam is in it; so does this header, for scripts.
    "Content-Disposition": `attachment; filename="${exportFileName(new Date(), spam)}"`,
    "X-Spam-Included": spam === "exclude" ? "no" : spam === "only" ? "only" : "yes",
    Vary: "Accept-Encoding",
  };
  // CSV shrinks about tenfold; compressed here, batch by batch, so memory stays flat.
  if (acceptsGzip(request.headers.get("accept-encoding"))) {
    headers["Content-Encoding"] = "gzip";
    // NOTE: the cast bridges TypeScript's DOM and Node stream typings, which disagree on buffer types.
    const gzip = new CompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>;
    return new Response(csv.pipeThrough(gzip), { headers });
  }
  return new Response(csv, { headers });
}
