import { Link } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { importPageAction, loadImportPage } from "#app/features/leads/import/import-page.server.ts";
import {
  CommitStep,
  MappingStep,
  RecentImports,
  UploadStep,
} from "#app/features/leads/intake-ui/import-steps.tsx";
import { adminUser } from "#app/lib/admin-guard.server.ts";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/lead-import";

// Issue 23: leads from a CSV (an event's list, a spreadsheet): upload, match the columns, see every
// row's errors and merges, import as one batch that can be undone. Works without JavaScript.

export const meta: Route.MetaFunction = () => adminMeta("Import leads");

export async function loader({ request, context }: Route.LoaderArgs) {
  return loadImportPage(request, context, adminUser(context));
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  return importPageAction(request, context, adminUser(context));
}

export default function ImportLeads({ loaderData, actionData }: Route.ComponentProps) {
  const { draft, imports, staff, done, undone } = loaderData;
  const finished = imports.find((batch) => batch.id === done);
  return (
    <div className="mx-auto grid max-w-5xl grid-cols-1 gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title="Import leads"
        description={
          <>
            Bring in leads from outside the website. Each row follows the rules of the site's forms; formulas
            in cells are neutralised. Just one?{" "}
            <Link to="/admin/leads/new" className="font-semibold text-brand underline">
              Add a lead by hand
            </Link>
            .
          </>
        }
      />

      {finished ? (
        <Banner tone="success">
          <strong className="font-semibold">Import done.</strong> {finished.imported.toLocaleString("en")}{" "}
          added, {finished.merged.toLocaleString("en")} merged, {finished.failed.toLocaleString("en")}{" "}
          skipped.{" "}
          <Link to={DASHBOARD_PATH} className="font-semibold underline">
            See them in the dashboard
          </Link>
        </Banner>
      ) : null}
      {undone !== null ? (
        <Banner tone="success">
          <strong className="font-semibold">Import undone.</strong> The leads it added are gone and its merges
          are reverted.
        </Banner>
      ) : null}
      {"expired" in loaderData && loaderData.expired ? (
        <Banner tone="error">This upload expired or was already imported. Upload the file again.</Banner>
      ) : null}
      {actionData?.error ? <Banner tone="error">{actionData.error}</Banner> : null}

      {draft ? (
        <>
          <MappingStep draft={draft} />
          <CommitStep draft={draft} staff={staff} />
        </>
      ) : (
        <UploadStep error={actionData?.uploadError ?? null} />
      )}
      <RecentImports imports={imports} highlight={done} />
    </div>
  );
}
