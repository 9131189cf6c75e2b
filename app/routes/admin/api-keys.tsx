import { Banner } from "#app/components/back-office/banner.tsx";
import { PageHeader } from "#app/components/back-office/page-header.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { CONFIRM_REVOKE_PARAM } from "#app/features/leads/api-key-paths.ts";
import { listApiKeys } from "#app/features/leads/api-keys.server.ts";
import { apiKeyFormAction } from "#app/features/leads/api-keys-forms.server.ts";
import { leadsServices } from "#app/features/leads/leads-context.server.ts";
import { ApiKeyList, RevokeApiKeyConfirmation } from "#app/features/leads/ui/api-key-list.tsx";
import { CreateApiKeyForm } from "#app/features/leads/ui/create-api-key-form.tsx";
import { adminUser } from "#app/lib/admin-guard.server.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { assertSameOrigin } from "#app/lib/staff-guard.server.ts";
import type { Route } from "./+types/api-keys";

// API keys for integrations (issue 10): a CRM sync or a partner's form sends leads to
// POST /api/demo-request with `Authorization: Bearer <key>`; the key's name becomes the lead's source.
// The key is shown once, on the page that answers its creation; only its hash is kept.

export const meta: Route.MetaFunction = () => adminMeta("API keys");

export async function loader({ request, context }: Route.LoaderArgs) {
  const { database, env } = await leadsServices(context);
  const url = new URL(request.url);
  const keys = await listApiKeys(database.db);
  const confirmId = Number(url.searchParams.get(CONFIRM_REVOKE_PARAM));
  return {
    keys: keys.map((key) => ({
      ...key,
      created: formatDateTime(key.createdAt),
      lastUsed: key.lastUsedAt ? formatDateTime(key.lastUsedAt) : null,
      revoked: key.revokedAt ? formatDateTime(key.revokedAt) : null,
    })),
    confirm: keys.find((key) => key.id === confirmId && !key.revokedAt) ?? null,
    revokedNotice: url.searchParams.get("notice") === "revoked",
    limitPerMinute: env.API_KEY_RATE_LIMIT,
    apiUrl: `${env.PUBLIC_URL ?? url.origin}/api/demo-request`,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  return apiKeyFormAction(request, context, adminUser(context));
}

export default function ApiKeys({ loaderData, actionData }: Route.ComponentProps) {
  const { keys, confirm, revokedNotice, limitPerMinute, apiUrl } = loaderData;

  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:px-6">
      <PageHeader
        title="API keys"
        description={
          <>
            An integration sends leads to <code className="rounded bg-white px-1 break-all">{apiUrl}</code>{" "}
            with the header <code className="rounded bg-white px-1">Authorization: Bearer &lt;key&gt;</code>.
            Its leads show the key's name as their source, skip the page-cookie check and the per-address
            limit, and are limited to{" "}
            {limitPerMinute > 0
              ? `${limitPerMinute} a minute per key`
              : "no rate per key (API_KEY_RATE_LIMIT=0)"}
            . A revoked or unknown key is refused with 401.
          </>
        }
      />

      {actionData?.created ? (
        <Banner tone="success">
          <strong className="font-semibold">Key “{actionData.created.name}” created.</strong> Copy it now: it
          is shown only this once.
          <code className="mt-2 block rounded-md border border-line bg-white px-3 py-2 font-mono text-sm break-all text-ink select-all">
            {actionData.created.key}
          </code>
        </Banner>
      ) : null}
      {actionData?.error ? <Banner tone="error">{actionData.error}</Banner> : null}
      {revokedNotice ? (
        <Banner tone="success">
          <strong className="font-semibold">Key revoked.</strong> Requests with it are refused from now on.
        </Banner>
      ) : null}
      {confirm ? <RevokeApiKeyConfirmation apiKey={confirm} /> : null}

      <CreateApiKeyForm defaultName={actionData?.name ?? ""} created={Boolean(actionData?.created)} />

      <section aria-labelledby="keys-heading" className="grid gap-3">
        <h2 id="keys-heading" className="text-xl font-semibold">
          Keys
        </h2>
        <ApiKeyList keys={keys} />
      </section>
    </div>
  );
}
