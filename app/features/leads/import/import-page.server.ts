import { data, type RouterContextProvider, redirect } from "react-router";
import { IMPORT_BODY_LIMIT } from "#app/lib/body-limits.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm, readMultipart } from "#app/lib/http.server.ts";
import { clientAddressContext } from "#app/lib/service-context.server.ts";
import { assignableStaff, UnknownOwnerError } from "../lead-admin.server.ts";
import type { Actor } from "../lead-events.server.ts";
import { fileNameOf } from "../lead-intake-http.server.ts";
import { isStaffSource } from "../lead-sources.ts";
import { leadsServices } from "../leads-context.server.ts";
import { ImportBusyError, parseCsvOffThread } from "./csv-worker.server.ts";
import { createDraft, findDraft, listImports } from "./import-batches.server.ts";
import { guessMapping, IMPORT_FIELD_KEYS, readMapping } from "./import-mapping.ts";
import { IMPORT_BUSY_MESSAGE, IMPORT_RETRY_AFTER_SECONDS, importSlots } from "./import-slots.server.ts";
import { ImportStateError, importCell } from "./lead-import.server.ts";

// /admin/leads/import without JavaScript, in three form posts: upload (multipart; the file is kept
// as a draft), match the columns (a GET form: the preview is the draft's page with `map.<field>`),
// import (a POST of the previewed mapping). Every row's error and every merge shows before the commit.

type Context = Readonly<RouterContextProvider>;

export const IMPORT_PATH = "/admin/leads/import";
const PREVIEW_ROWS = 5;
const encoder = new TextEncoder();

function positiveId(raw: unknown): number | null {
  const id = typeof raw === "string" && /^\d{1,15}$/.test(raw) ? Number(raw) : Number.NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** `map.<field>` from a query or a form; null when none is there (the header's guess applies). */
function mappingParams(params: URLSearchParams): Record<string, string> | null {
  const raw: Record<string, string> = {};
  for (const field of IMPORT_FIELD_KEYS) {
    const value = params.get(`map.${field}`);
    if (value !== null) raw[field] = value;
  }
  return Object.keys(raw).length > 0 ? raw : null;
}

async function readDraftTable(context: Context, draftId: number, actor: Actor) {
  const { database } = await leadsServices(context);
  const draft = await findDraft(database.db, draftId);
  if (!draft || (await draftOwner(context, draftId)) !== actor.id) return undefined;
  const parsed = await parseCsvOffThread(encoder.encode(draft.content));
  return parsed.ok ? { draft, table: parsed } : undefined;
}

async function draftOwner(context: Context, draftId: number): Promise<number | null> {
  const { database } = await leadsServices(context);
  const row = await database.db
    .selectFrom("leadImports")
    .select("createdByUserId")
    .where("id", "=", draftId)
    .executeTakeFirst();
  return row?.createdByUserId === null || row?.createdByUserId === undefined
    ? null
    : Number(row.createdByUserId);
}

export async function loadImportPage(request: Request, context: Context, actor: Actor) {
  const url = new URL(request.url);
  const { database, leadIntake } = await leadsServices(context);
  const [imports, staff] = await Promise.all([listImports(database.db), assignableStaff(database.db)]);
  const base = {
    imports: imports.map((batch) => ({
      ...batch,
      committed: formatDateTime(batch.committedAt),
      undone: batch.undoneAt ? formatDateTime(batch.undoneAt) : null,
    })),
    staff: staff.filter((member) => !member.disabled).map(({ id, username }) => ({ id, username })),
    done: positiveId(url.searchParams.get("done")),
    undone: positiveId(url.searchParams.get("undone")),
  };
  const draftId = positiveId(url.searchParams.get("draft"));
  if (draftId === null) return { ...base, draft: null };
  const loaded = await readDraftTable(context, draftId, actor);
  if (!loaded) return { ...base, draft: null, expired: true };
  const { draft, table } = loaded;
  // The selects show what was asked for (even a mapping refused, with its message), else the guess.
  const guessed = guessMapping(table.header);
  const selected: Record<string, string> = Object.fromEntries(
    IMPORT_FIELD_KEYS.map((field) => [field, guessed[field] === null ? "" : String(guessed[field])]),
  );
  const requested = mappingParams(url.searchParams);
  if (requested) for (const field of IMPORT_FIELD_KEYS) selected[field] = requested[field] ?? "";
  const read = readMapping(requested ?? guessed, table.header);
  const plan = read.ok ? await leadIntake.plan(table, read.mapping) : null;
  return {
    ...base,
    draft: {
      id: draft.id,
      fileName: draft.fileName,
      header: table.header,
      rowCount: table.rows.length,
      selected,
      mappingError: read.ok ? null : read.message,
      // As they will be stored: trimmed, formulas neutralised.
      preview: table.rows.slice(0, PREVIEW_ROWS).map((row) => ({
        row: row.line,
        cells: row.cells.map((cell, index) => {
          const field = IMPORT_FIELD_KEYS.find((key) => selected[key] === String(index));
          return field ? importCell(field, cell) : cell;
        }),
      })),
      counts: plan?.counts ?? null,
      errors: plan
        ? plan.rows.flatMap((row) => (row.kind === "error" ? [{ row: row.row, errors: row.errors }] : []))
        : [],
      merges: plan
        ? plan.rows.flatMap((row) =>
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
          )
        : [],
    },
  };
}

export async function importPageAction(request: Request, context: Context, actor: Actor) {
  // An upload or a commit takes a place in the imports' line before its body is read (issue 32).
  const slot = importSlots.reserve();
  if (!slot) {
    const upload = (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/");
    return data(
      upload
        ? { uploadError: IMPORT_BUSY_MESSAGE, error: null }
        : { uploadError: null, error: IMPORT_BUSY_MESSAGE },
      { status: 503, headers: { "Retry-After": String(IMPORT_RETRY_AFTER_SECONDS) } },
    );
  }
  try {
    return await importPageActionWithSlot(request, context, actor, slot.ready);
  } finally {
    slot.release();
  }
}

async function importPageActionWithSlot(
  request: Request,
  context: Context,
  actor: Actor,
  turn: Promise<void>,
) {
  const multipart = (request.headers.get("content-type") ?? "")
    .toLowerCase()
    .startsWith("multipart/form-data");
  if (multipart) {
    // The file is read in this import's turn: until then it waits in the connection.
    await turn;
    const body = await readMultipart(request, IMPORT_BODY_LIMIT);
    if (!body.ok) return data({ uploadError: body.message, error: null }, { status: body.status });
    const file = body.form.get("file");
    if (!(file instanceof File) || file.size === 0)
      return data({ uploadError: "Choose a CSV file to upload.", error: null }, { status: 400 });
    let parsed: Awaited<ReturnType<typeof parseCsvOffThread>>;
    try {
      parsed = await parseCsvOffThread(await file.bytes(), { withText: true });
    } catch (error) {
      if (error instanceof ImportBusyError)
        return data({ uploadError: error.message, error: null }, { status: 503 });
      throw error;
    }
    if (!parsed.ok || parsed.text === undefined)
      return data(
        { uploadError: parsed.ok ? "The file could not be read." : parsed.message, error: null },
        { status: 422 },
      );
    const { database } = await leadsServices(context);
    const id = await createDraft(database.db, {
      fileName: fileNameOf(file.name),
      content: parsed.text,
      rowCount: parsed.rows.length,
      actor,
    });
    throw redirect(`${IMPORT_PATH}?draft=${id}`);
  }

  const form = await readForm(request);
  await turn;
  const intent = form.get("intent");
  const { leadIntake } = await leadsServices(context);
  const clientAddress = context.get(clientAddressContext);
  if (intent === "undo") {
    const importId = positiveId(form.get("importId"));
    if (importId === null) return data({ uploadError: null, error: "Unknown import." }, { status: 400 });
    try {
      await leadIntake.undo(importId, { actor, clientAddress });
    } catch (error) {
      if (error instanceof ImportStateError)
        return data({ uploadError: null, error: error.message }, { status: 409 });
      throw error;
    }
    throw redirect(`${IMPORT_PATH}?undone=${importId}`);
  }
  if (intent !== "commit") return data({ uploadError: null, error: "Unknown action." }, { status: 400 });
  const draftId = positiveId(form.get("draft"));
  const loaded = draftId === null ? undefined : await readDraftTable(context, draftId, actor);
  if (!loaded || draftId === null)
    return data(
      { uploadError: null, error: "This upload expired or was already imported. Upload the file again." },
      { status: 409 },
    );
  const read = readMapping(mappingParams(form) ?? {}, loaded.table.header);
  if (!read.ok) return data({ uploadError: null, error: read.message }, { status: 400 });
  const source = form.get("source") ?? "";
  if (!isStaffSource(source))
    return data({ uploadError: null, error: "Choose where the leads came from." }, { status: 400 });
  const ownerId = positiveId(form.get("ownerId"));
  const plan = await leadIntake.plan(loaded.table, read.mapping);
  try {
    const result = await leadIntake.commit(plan, {
      fileName: loaded.draft.fileName,
      source,
      ownerId,
      actor,
      clientAddress,
      draftId,
    });
    throw redirect(`${IMPORT_PATH}?done=${result.importId}`);
  } catch (error) {
    if (error instanceof ImportStateError)
      return data({ uploadError: null, error: error.message }, { status: 409 });
    if (error instanceof UnknownOwnerError)
      return data({ uploadError: null, error: error.message }, { status: 400 });
    throw error;
  }
}
