import { Link } from "react-router";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { ManualLeadForm } from "#app/features/leads/intake-ui/manual-lead-form.tsx";
import { loadManualLeadPage, manualLeadAction } from "#app/features/leads/manual-lead-page.server.ts";
import { adminUser } from "#app/lib/admin-guard.server.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/lead-new";

// Issue 23: a lead that did not come through the website (a call, an event, a referral), added by
// hand. It enters the same pipeline as a website lead, without a spam verdict. Works without JavaScript.

export const meta: Route.MetaFunction = () => adminMeta("Add a lead");

export async function loader({ context }: Route.LoaderArgs) {
  const { id } = adminUser(context);
  return { ...(await loadManualLeadPage(context)), userId: id };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  return manualLeadAction(request, context, adminUser(context));
}

export default function NewLead({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <div className="mx-auto grid max-w-4xl grid-cols-1 gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title="Add a lead"
        description={
          <>
            For a lead that did not come through the website: a call, an event, a referral. The same rules as
            the site's forms apply. Several at once?{" "}
            <Link to="/admin/leads/import" className="font-semibold text-brand underline">
              Import a CSV
            </Link>
            .
          </>
        }
      />
      <ManualLeadForm
        staff={loaderData.staff}
        values={actionData?.values ?? {}}
        errors={actionData?.errors ?? {}}
        defaultOwnerId={loaderData.userId}
      />
    </div>
  );
}
