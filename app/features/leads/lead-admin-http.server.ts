import type { RouterContextProvider } from "react-router";
import { z } from "zod";
import { assertSameOrigin, requireAdminApi } from "#app/features/auth/guard.server.ts";
import { readJsonObject } from "#app/lib/http.server.ts";
import { breaksTextRule } from "#app/lib/text-rules.ts";
import { getServices } from "#app/services.server.ts";
import {
  deleteLead,
  isLeadStatus,
  type LeadListQuery,
  leadHistory,
  listLeads,
  updateLeadStatus,
} from "./lead-admin.server.ts";
import { exportFileName, leadsCsvStream } from "./lead-csv.server.ts";
import { findLead, LEAD_STATUSES } from "./lead-repository.server.ts";

// /api/admin/leads… (SPEC section 7): every handler checks the admin session first, and mutations
// also refuse cross-site requests.

type Context = Readonly<RouterContextProvider>;

export const DEFAULT_API_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 500;

const ListQuerySchema = z.object({
  status: z.enum(LEAD_STATUSES).optional(),
  q: z
    .string()
    .trim()
    .max(100)
    .refine((value) => !breaksTextRule(value, "one-line"), "The search may not contain control characters.")
    .optional(),
  spam: z.enum(["exclude", "only", "include"]).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_API_PAGE_SIZE),
});

/** The list's query string as a LeadListQuery, or the 400 to answer. */
export function parseListQuery(
  url: URL,
  defaults: { pageSize?: number } = {},
): { ok: true; query: LeadListQuery } | { ok: false; response: Response } {
  const raw = Object.fromEntries([...url.searchParams].filter(([, value]) => value !== ""));
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
  return { ok: true, query: parsed.data };
}

function leadId(raw: string | undefined): number | null {
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const notFound = () => Response.json({ message: "Lead not found." }, { status: 404 });

/** GET /api/admin/leads: the array of leads; the total count in X-Total-Count. */
export async function handleListLeads(request: Request, context: Context): Promise<Response> {
  await requireAdminApi(request, context);
  const parsed = parseListQuery(new URL(request.url));
  if (!parsed.ok) return parsed.response;
  const { database } = await getServices(context);
  const { leads, total } = await listLeads(database.db, parsed.query);
  return Response.json(leads, { headers: { "X-Total-Count": String(total) } });
}

/** GET /api/admin/leads/:id: the lead with its status history. */
export async function handleGetLead(request: Request, context: Context, rawId: string | undefined) {
  await requireAdminApi(request, context);
  const id = leadId(rawId);
  if (id === null) return notFound();
  const { database } = await getServices(context);
  const lead = await findLead(database.db, id);
  if (!lead) return notFound();
  return Response.json({ ...lead, history: await leadHistory(database.db, id) });
}

/** PATCH /api/admin/leads/:id { status }: one of SPEC section 4's five (400 otherwise, 404 unknown). */
export async function handlePatchLead(request: Request, context: Context, rawId: string | undefined) {
  const user = await requireAdminApi(request, context);
  assertSameOrigin(request);
  const body = await readJsonObject(request, 1024);
  if (!body.ok) return body.response;
  const status = body.value.status;
  if (!isLeadStatus(status)) {
    return Response.json(
      {
        message: `Status must be one of: ${LEAD_STATUSES.join(", ")}.`,
        errors: { status: "Invalid status" },
      },
      { status: 400 },
    );
  }
  const id = leadId(rawId);
  if (id === null) return notFound();
  const { database } = await getServices(context);
  const lead = await updateLeadStatus(database.db, id, status, user);
  return lead ? Response.json(lead) : notFound();
}

/** DELETE /api/admin/leads/:id: erases the lead and its history. */
export async function handleDeleteLead(request: Request, context: Context, rawId: string | undefined) {
  await requireAdminApi(request, context);
  assertSameOrigin(request);
  const id = leadId(rawId);
  if (id === null) return notFound();
  const { database } = await getServices(context);
  return (await deleteLead(database.db, id)) ? new Response(null, { status: 204 }) : notFound();
}

/** True when Accept-Encoding lists gzip (or *) without refusing it with q=0. */
export function acceptsGzip(header: string | null): boolean {
  return (header ?? "").split(",").some((part) => {
    const [name = "", ...params] = part.trim().toLowerCase().split(";");
    const refused = params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
    return (name === "gzip" || name === "*") && !refused;
  });
}

/** GET /api/admin/leads/export: the leads (same filters as the list, no paging) as a CSV download. */
export async function handleExportLeads(request: Request, context: Context): Promise<Response> {
  await requireAdminApi(request, context);
  const parsed = parseListQuery(new URL(request.url));
  if (!parsed.ok) return parsed.response;
  const { database } = await getServices(context);
  const { page: _page, pageSize: _pageSize, ...filter } = parsed.query;
  const csv = leadsCsvStream(database.db, filter);
  const headers: Record<string, string> = {
    "Content-Type": "text/csv; charset=utf-8",
    "Content-Disposition": `attachment; filename="${exportFileName()}"`,
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
