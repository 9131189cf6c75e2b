import type { RouterContextProvider } from "react-router";
import { IMPORT_BODY_LIMIT, LEAD_BODY_LIMIT } from "#app/lib/body-limits.ts";
import { readJsonObject, readMultipart } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { ImportBusyError, parseCsvOffThread } from "./import/csv-worker.server.ts";
import { guessMapping, type ImportMapping, readMapping } from "./import/import-mapping.ts";
import {
  IMPORT_BUSY_MESSAGE,
  IMPORT_RETRY_AFTER_SECONDS,
  importSlots,
} from "./import/import-slots.server.ts";
import { type ImportPlan, ImportStateError } from "./import/lead-import.server.ts";
import { UnknownOwnerError } from "./lead-admin.server.ts";
import { isStaffSource, type StaffSource } from "./lead-sources.ts";
import { leadsServices } from "./leads-context.server.ts";
import { MANUAL_LEAD_MESSAGES, parseManualLead } from "./manual-lead-schema.ts";

// POST /api/admin/leads (a lead added by hand) and POST /api/admin/leads/import (a CSV, dry run or
// commit), issue 23. Both need an admin session and refuse cross-site requests, like every other
// change the staff API makes.

type Context = Readonly<RouterContextProvider>;

const json = (body: unknown, status = 200) => Response.json(body, { status });

/** POST /api/admin/leads: the lead's fields (as POST /api/demo-request), `source`, optional `ownerId`. */
export async function handleAddLead(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "leads.write");
  assertSameOrigin(request);
  const body = await readJsonObject(request, LEAD_BODY_LIMIT);
  if (!body.ok) return body.response;
  const parsed = parseManualLead(body.value);
  if (!parsed.success)
    return json({ message: "Please check the highlighted fields", errors: parsed.errors }, 400);
  const { leadIntake } = await leadsServices(context);
  try {
    const lead = await leadIntake.add(parsed.data, user, context.get(clientAddressContext));
    return json(lead, 201);
  } catch (error) {
    if (error instanceof UnknownOwnerError)
      return json({ message: error.message, errors: { ownerId: MANUAL_LEAD_MESSAGES.owner } }, 400);
    throw error;
  }
}

/** What a plan answers: the counts, then every row that fails (with why) and every merge (with whom). */
export function describePlan(plan: ImportPlan) {
  return {
    ...plan.counts,
    errors: plan.rows.flatMap((row) => (row.kind === "error" ? [{ row: row.row, errors: row.errors }] : [])),
    merges: plan.rows.flatMap((row) =>
      row.kind === "merge"
        ? [
            {
              row: row.row,
              leadId: row.into.id,
              name: row.into.fullName,
              email: row.into.email,
              changes: row.changes,
            },
          ]
        : [],
    ),
  };
}

/**
 * POST /api/admin/leads/import, multipart: `file` (CSV, UTF-8, at most 5 MB and 10,000 rows),
 * optional `mapping` (JSON: field → column header or index; guessed from the header otherwise),
 * optional `source` (default "event") and `ownerId`; `commit=true` to import, otherwise a dry run.
 */
export async function handleImport(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "leads.write");
  assertSameOrigin(request);
  // A place in the imports' line before a byte of the file is read (issue 32).
  const slot = importSlots.reserve();
  if (!slot)
    return Response.json(
      { message: IMPORT_BUSY_MESSAGE, errors: {} },
      { status: 503, headers: { "Retry-After": String(IMPORT_RETRY_AFTER_SECONDS) } },
    );
  try {
    return await importWithSlot(request, context, user, slot.ready);
  } finally {
    slot.release();
  }
}

async function importWithSlot(
  request: Request,
  context: Context,
  user: Awaited<ReturnType<typeof requireApiPermission>>,
  turn: Promise<void>,
): Promise<Response> {
  // The file is read in this import's turn: until then it waits in the connection.
  await turn;
  const body = await readMultipart(request, IMPORT_BODY_LIMIT);
  if (!body.ok) return json({ message: body.message, errors: {} }, body.status);
  const { form } = body;
  const file = form.get("file");
  if (!(file instanceof File))
    return json({ message: "Attach the CSV file as `file`.", errors: { file: "Required" } }, 400);
  const source = String(form.get("source") ?? "event");
  if (!isStaffSource(source))
    return json(
      { message: MANUAL_LEAD_MESSAGES.source, errors: { source: MANUAL_LEAD_MESSAGES.source } },
      400,
    );
  const rawOwner = String(form.get("ownerId") ?? "");
  const ownerId = rawOwner === "" ? null : Number(rawOwner);
  if (ownerId !== null && !(Number.isSafeInteger(ownerId) && ownerId > 0))
    return json(
      { message: MANUAL_LEAD_MESSAGES.owner, errors: { ownerId: MANUAL_LEAD_MESSAGES.owner } },
      400,
    );

  let parsed: Awaited<ReturnType<typeof parseCsvOffThread>>;
  try {
    parsed = await parseCsvOffThread(await file.bytes());
  } catch (error) {
    if (error instanceof ImportBusyError)
      return Response.json({ message: error.message }, { status: 503, headers: { "Retry-After": "5" } });
    throw error;
  }
  if (!parsed.ok) return json({ message: parsed.message, errors: { file: parsed.message } }, 422);

  let mapping: ImportMapping = guessMapping(parsed.header);
  const rawMapping = form.get("mapping");
  let requested: Record<string, unknown> = mapping;
  if (typeof rawMapping === "string" && rawMapping.trim() !== "") {
    try {
      const value: unknown = JSON.parse(rawMapping);
      if (typeof value !== "object" || value === null || Array.isArray(value))
        throw new Error("not an object");
      requested = value as Record<string, unknown>;
    } catch {
      return json(
        { message: "mapping must be a JSON object: field → column.", errors: { mapping: "Invalid JSON" } },
        400,
      );
    }
  }
  const read = readMapping(requested, parsed.header);
  if (!read.ok) return json({ message: read.message, errors: { mapping: read.message } }, 400);
  mapping = read.mapping;

  const { leadIntake } = await leadsServices(context);
  const plan = await leadIntake.plan(parsed, mapping);
  const mappingByHeader = Object.fromEntries(
    Object.entries(mapping).map(([field, index]) => [field, index === null ? null : parsed.header[index]]),
  );
  if (form.get("commit") !== "true")
    return json({ dryRun: true, mapping: mappingByHeader, ...describePlan(plan) });
  try {
    const result = await leadIntake.commit(plan, {
      fileName: fileNameOf(file.name),
      source: source as StaffSource,
      ownerId,
      actor: user,
      clientAddress: context.get(clientAddressContext),
    });
    return json(
      { dryRun: false, importId: result.importId, mapping: mappingByHeader, ...describePlan(plan) },
      201,
    );
  } catch (error) {
    if (error instanceof ImportStateError) return json({ message: error.message, errors: {} }, 409);
    if (error instanceof UnknownOwnerError)
      return json({ message: error.message, errors: { ownerId: MANUAL_LEAD_MESSAGES.owner } }, 400);
    throw error;
  }
}

/** The uploaded file's name as the page and the timeline show it: its last path part, one line, bounded. */
export function fileNameOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  // Control characters and bidirectional overrides out: the name is shown on pages and in the log.
  const clean = [...base]
    .filter((character) => {
      const code = character.codePointAt(0) ?? 0;
      return (
        code > 0x1f &&
        code !== 0x7f &&
        !(code >= 0x202a && code <= 0x202e) &&
        !(code >= 0x2066 && code <= 0x2069)
      );
    })
    .join("")
    .trim()
    .slice(0, 120);
  return clean || "upload.csv";
}
