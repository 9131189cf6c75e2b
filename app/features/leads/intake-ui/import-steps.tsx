import { Form, Link } from "react-router";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { Field } from "#app/components/ui/field.tsx";
import { NativeSelect } from "#app/components/ui/select.tsx";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { usePendingIntent } from "#app/lib/use-pending-intent.ts";
import { IMPORT_FIELD_KEYS, IMPORT_FIELDS, type ImportField } from "../import/import-mapping.ts";
import type { FieldErrors } from "../lead-schema.ts";
import { STAFF_SOURCES, type StaffSource } from "../lead-sources.ts";

// The import page's three steps (upload, match the columns and check the rows, import) and the list
// of recent imports with their undo. Plain forms: each works without JavaScript.

export const IMPORT_PAGE = "/admin/leads/import";

const count = (n: number, one: string, many: string) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

export function UploadStep({ error }: { error: string | null }) {
  const uploading = usePendingIntent("upload");
  return (
    <SectionCard id="upload-heading" title="1. Upload a CSV file">
      <p className="mt-2 leading-7 text-ink-muted">
        An event's attendee list or a spreadsheet saved as{" "}
        <strong className="font-semibold">CSV UTF-8</strong>, at most 5 MB and 10,000 rows. The first row
        names the columns; you match them to fields next, and see every row's problems before anything is
        imported.
      </p>
      <Form method="post" action={IMPORT_PAGE} encType="multipart/form-data" className="mt-4 grid gap-4">
        <input type="hidden" name="intent" value="upload" />
        <Field id="import-file" name="file" label="CSV file" required error={error ?? undefined}>
          {(control) => (
            <input
              {...control}
              type="file"
              accept=".csv,text/csv"
              className="block w-full max-w-full rounded-md border border-ink-muted bg-white p-2 text-base file:mr-3 file:rounded file:border-0 file:bg-brand-soft file:px-3 file:py-1.5 file:font-semibold file:text-brand"
            />
          )}
        </Field>
        <div>
          <Button type="submit" disabled={uploading}>
            {uploading ? "Reading the file..." : "Upload and check"}
          </Button>
        </div>
      </Form>
    </SectionCard>
  );
}

export type DraftView = {
  id: number;
  fileName: string;
  header: string[];
  rowCount: number;
  selected: Record<string, string>;
  mappingError: string | null;
  preview: { row: number; cells: string[] }[];
  counts: { imported: number; merged: number; failed: number } | null;
  errors: { row: number; errors: FieldErrors }[];
  merges: { row: number; leadId: number; name: string; email: string; changes: string[] }[];
};

const FIELD_LABEL: Record<string, string> = { ...IMPORT_FIELDS };

/** Step 2: the columns matched to fields (a GET form: checking again changes nothing), the first rows, every error and merge. */
export function MappingStep({ draft }: { draft: DraftView }) {
  const previewFields = IMPORT_FIELD_KEYS.filter((field) => draft.selected[field] !== "");
  return (
    <SectionCard id="mapping-heading" title="2. Match the columns and check the rows">
      <p className="mt-2 leading-7 text-ink-muted">
        <strong className="font-semibold text-ink">{draft.fileName}</strong>:{" "}
        {count(draft.rowCount, "row", "rows")}. Rows merge by email with people already in the list.
      </p>
      <Form method="get" action={IMPORT_PAGE} className="mt-4 grid gap-4">
        <input type="hidden" name="draft" value={draft.id} />
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {IMPORT_FIELD_KEYS.map((field) => (
            <Field
              key={field}
              id={`map-${field}`}
              name={`map.${field}`}
              label={IMPORT_FIELDS[field]}
              required={field === "email"}
            >
              {(control) => (
                <NativeSelect {...control} required={undefined} defaultValue={draft.selected[field]}>
                  <option value="">Not imported</option>
                  {draft.header.map((name, index) => (
                    <option key={name} value={index}>
                      {name}
                    </option>
                  ))}
                </NativeSelect>
              )}
            </Field>
          ))}
        </div>
        <div>
          <Button type="submit" variant="outline">
            Check the rows again
          </Button>
        </div>
      </Form>
      {draft.mappingError ? (
        <p role="alert" className="mt-4 font-semibold text-danger">
          {draft.mappingError}
        </p>
      ) : null}

      <h3 className="mt-6 text-lg font-semibold">First rows, as they will be imported</h3>
      <div className="mt-2 max-w-full overflow-x-auto rounded-lg border border-line">
        <table className="w-full min-w-[36rem] text-left text-sm">
          <caption className="sr-only">The first rows of the file with the columns matched to fields</caption>
          <thead className="bg-surface-muted">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                Row
              </th>
              {previewFields.map((field) => (
                <th key={field} scope="col" className="px-3 py-2 font-semibold">
                  {IMPORT_FIELDS[field]}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {draft.preview.map((row) => (
              <tr key={row.row} className="border-t border-line">
                <td className="px-3 py-2 text-ink-muted tabular-nums">{row.row}</td>
                {previewFields.map((field) => (
                  <td
                    key={field}
                    className="max-w-56 truncate px-3 py-2"
                    title={row.cells[Number(draft.selected[field])] ?? ""}
                  >
                    {row.cells[Number(draft.selected[field])] ?? ""}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {draft.counts ? <PlanSummary draft={draft} /> : null}
    </SectionCard>
  );
}

function PlanSummary({ draft }: { draft: DraftView }) {
  const counts = draft.counts;
  if (!counts) return null;
  return (
    <div className="mt-6 grid gap-4">
      <ul className="flex flex-wrap gap-2" aria-label="What the import will do">
        <li className="rounded-full bg-green-50 px-3 py-1 font-semibold text-success">
          {count(counts.imported, "new lead", "new leads")}
        </li>
        <li className="rounded-full bg-brand-soft px-3 py-1 font-semibold text-brand">
          {count(counts.merged, "merge", "merges")} with people already there
        </li>
        <li
          className={`rounded-full px-3 py-1 font-semibold ${counts.failed > 0 ? "bg-red-50 text-danger" : "bg-surface-muted text-ink-muted"}`}
        >
          {count(counts.failed, "row", "rows")} with errors, skipped
        </li>
      </ul>
      {draft.errors.length > 0 ? (
        <details open className="rounded-lg border border-danger/40 bg-red-50/40 p-4">
          <summary className="cursor-pointer font-semibold text-danger">
            {count(draft.errors.length, "row is", "rows are")} not imported: fix{" "}
            {draft.errors.length === 1 ? "it" : "them"} in the file and upload it again, or import the rest
          </summary>
          <ol className="mt-3 grid max-h-96 gap-1 overflow-y-auto text-sm">
            {draft.errors.map((row) => (
              <li key={row.row} className="break-words">
                <span className="font-semibold">Row {row.row}</span>:{" "}
                {Object.entries(row.errors)
                  .map(([field, message]) => `${FIELD_LABEL[field] ?? field}: ${message}`)
                  .join("; ")}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
      {draft.merges.length > 0 ? (
        <details open className="rounded-lg border border-line p-4">
          <summary className="cursor-pointer font-semibold">
            {count(draft.merges.length, "row merges", "rows merge")} with people already in the list
          </summary>
          <ol className="mt-3 grid max-h-96 gap-1 overflow-y-auto text-sm">
            {draft.merges.map((merge) => (
              <li key={merge.row} className="break-words">
                <span className="font-semibold">Row {merge.row}</span> will merge with{" "}
                <Link to={`/admin/leads/${merge.leadId}`} className="font-semibold text-brand underline">
                  {merge.name}
                </Link>{" "}
                ({merge.email}):{" "}
                {merge.changes.length > 0
                  ? `changes ${merge.changes.map((field) => FIELD_LABEL[field]?.toLowerCase() ?? field).join(", ")}`
                  : "nothing new"}
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </div>
  );
}

/** Step 3: the previewed mapping, where the leads came from and who owns them; one batch, undoable. */
export function CommitStep({
  draft,
  staff,
}: {
  draft: DraftView;
  staff: { id: number; username: string }[];
}) {
  const importing = usePendingIntent("commit");
  const counts = draft.counts;
  const total = counts ? counts.imported + counts.merged : 0;
  return (
    <SectionCard id="commit-heading" title="3. Import">
      <Form method="post" action={IMPORT_PAGE} className="mt-4 grid gap-4">
        <input type="hidden" name="intent" value="commit" />
        <input type="hidden" name="draft" value={draft.id} />
        {IMPORT_FIELD_KEYS.map((field: ImportField) => (
          <input key={field} type="hidden" name={`map.${field}`} value={draft.selected[field] ?? ""} />
        ))}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="import-source" name="source" label="Source" required>
            {(control) => (
              <NativeSelect {...control} defaultValue="event">
                {(Object.entries(STAFF_SOURCES) as [StaffSource, string][]).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Field id="import-owner" name="ownerId" label="Owner of the new leads">
            {(control) => (
              <NativeSelect {...control} defaultValue="">
                <option value="">Unassigned</option>
                {staff.map((member) => (
                  <option key={member.id} value={member.id}>
                    {member.username}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" disabled={importing || total === 0 || draft.mappingError !== null}>
            {importing
              ? "Importing..."
              : counts && counts.merged > 0
                ? `Import ${count(counts.imported, "lead", "leads")} and merge ${counts.merged.toLocaleString("en")}`
                : `Import ${count(counts?.imported ?? 0, "lead", "leads")}`}
          </Button>
          <Link to={IMPORT_PAGE} className="font-semibold text-brand underline">
            Start again
          </Link>
        </div>
        <p className="text-sm text-ink-muted">
          One batch: you can undo it afterwards, which removes the leads it added and reverts its merges.
        </p>
      </Form>
    </SectionCard>
  );
}

export type ImportRow = {
  id: number;
  fileName: string;
  status: "committed" | "undone";
  imported: number;
  merged: number;
  failed: number;
  by: string;
  committed: string;
  undone: string | null;
  undoneBy: string | null;
};

/** The latest imports, each with its undo while it stands. */
export function RecentImports({ imports, highlight }: { imports: ImportRow[]; highlight: number | null }) {
  const undoing = usePendingIntent("undo");
  if (imports.length === 0) return null;
  return (
    <SectionCard id="recent-heading" title="Recent imports">
      <ul className="mt-4 grid gap-3">
        {imports.map((batch) => (
          <li
            key={batch.id}
            className={`flex flex-wrap items-center justify-between gap-3 rounded-lg border p-4 ${batch.id === highlight ? "border-brand bg-brand-soft/40" : "border-line"}`}
          >
            <div className="min-w-0">
              <p className="font-semibold break-words">{batch.fileName}</p>
              <p className="text-sm text-ink-muted">
                {batch.committed} by {batch.by} · {count(batch.imported, "lead added", "leads added")},{" "}
                {batch.merged.toLocaleString("en")} merged, {batch.failed.toLocaleString("en")} skipped
              </p>
              {batch.status === "undone" ? (
                <p className="text-sm font-semibold text-ink-muted">
                  Undone {batch.undone} by {batch.undoneBy}
                </p>
              ) : null}
            </div>
            {batch.status === "committed" ? (
              <Form method="post" action={IMPORT_PAGE}>
                <input type="hidden" name="intent" value="undo" />
                <input type="hidden" name="importId" value={batch.id} />
                <Button type="submit" variant="outline" size="sm" disabled={undoing}>
                  Undo this import<span className="sr-only"> ({batch.fileName})</span>
                </Button>
              </Form>
            ) : null}
          </li>
        ))}
      </ul>
      <p className="mt-3 text-sm text-ink-muted">
        Undo removes the leads an import added (with any notes added since) and puts back the fields it
        merged.{" "}
        <Link to={DASHBOARD_PATH} className="font-semibold text-brand underline">
          See the leads
        </Link>
      </p>
    </SectionCard>
  );
}
