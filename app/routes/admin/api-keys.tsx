import { data, Form, Link, redirect, useNavigation } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { DataTable } from "#app/components/ui/data-table.tsx";
import { Input } from "#app/components/ui/input.tsx";
import { adminUser } from "#app/features/auth/admin-guard.server.ts";
import { assertSameOrigin } from "#app/features/auth/guard.server.ts";
import { BackOfficeBar } from "#app/features/auth/ui/back-office-bar.tsx";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import {
  ApiKeyInputError,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from "#app/features/leads/api-keys.server.ts";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { getServices } from "#app/services.server.ts";
import type { Route } from "./+types/api-keys";

// API keys for integrations (issue 10): a CRM sync or a partner's form sends leads to
// POST /api/demo-request with `Authorization: Bearer <key>`; the key's name becomes the lead's source.
// The key is shown once, on the page that answers its creation; only its hash is kept.

export const meta: Route.MetaFunction = () => adminMeta("API keys");

const PATH = "/admin/api-keys";
const CONFIRM_PARAM = "revoke";

export async function loader({ request, context }: Route.LoaderArgs) {
  const { database, env } = await getServices(context);
  const url = new URL(request.url);
  const keys = await listApiKeys(database.db);
  const confirmId = Number(url.searchParams.get(CONFIRM_PARAM));
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

/** `intent=create` (`name`): answers with the new key, shown once; `intent=revoke` (`id`). */
export async function action({ request, context }: Route.ActionArgs) {
  assertSameOrigin(request);
  const user = adminUser(context);
  const form = await readForm(request);
  const { database } = await getServices(context);
  if (form.get("intent") === "create") {
    try {
      const created = await createApiKey(database.db, form.get("name") ?? "", user);
      return { created: { name: created.name, key: created.key }, error: null, name: "" };
    } catch (error) {
      if (error instanceof ApiKeyInputError)
        return data({ created: null, error: error.message, name: form.get("name") ?? "" }, { status: 400 });
      throw error;
    }
  }
  if (form.get("intent") === "revoke") {
    const id = Number(form.get("id"));
    if (!Number.isSafeInteger(id) || !(await revokeApiKey(database.db, id, user)))
      throw data("API key not found", { status: 404 });
    throw redirect(`${PATH}?notice=revoked`);
  }
  return data({ created: null, error: "Unknown action.", name: "" }, { status: 400 });
}

export default function ApiKeys({ loaderData, actionData }: Route.ComponentProps) {
  const { keys, confirm, revokedNotice, limitPerMinute, apiUrl } = loaderData;
  const navigation = useNavigation();
  const creating = navigation.state === "submitting" && navigation.formData?.get("intent") === "create";

  return (
    <div className="mx-auto grid max-w-6xl gap-6 px-4 py-8 sm:px-6">
      <BackOfficeBar />
      <div>
        <h1 className="text-3xl font-bold tracking-tight">API keys</h1>
        <p className="mt-2 max-w-3xl leading-7 text-ink-muted">
          An integration sends leads to <code className="rounded bg-white px-1 break-all">{apiUrl}</code> with
          the header <code className="rounded bg-white px-1">Authorization: Bearer &lt;key&gt;</code>. Its
          leads show the key's name as their source, skip the page-cookie check and the per-address limit, and
          are limited to{" "}
          {limitPerMinute > 0
            ? `${limitPerMinute} a minute per key`
            : "no rate per key (API_KEY_RATE_LIMIT=0)"}
          . A revoked or unknown key is refused with 401.
        </p>
      </div>

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
      {confirm ? (
        <Banner tone="info">
          <p>
            Revoke “{confirm.name}” ({confirm.keyPrefix}…)? Integrations using it stop at once.
          </p>
          <Form method="post" action={PATH} className="mt-3 flex flex-wrap gap-2">
            <input type="hidden" name="intent" value="revoke" />
            <input type="hidden" name="id" value={confirm.id} />
            <Button type="submit" variant="danger" size="sm">
              Revoke key
            </Button>
            <Button asChild variant="outline" size="sm">
              <Link to={PATH}>Cancel</Link>
            </Button>
          </Form>
        </Banner>
      ) : null}

      <section
        aria-labelledby="create-heading"
        className="rounded-xl border border-line bg-white p-6 shadow-sm"
      >
        <h2 id="create-heading" className="text-xl font-semibold">
          Create a key
        </h2>
        <Form method="post" action={PATH} className="mt-4 flex flex-wrap items-end gap-3">
          <input type="hidden" name="intent" value="create" />
          <div className="grid min-w-64 flex-1 gap-1.5 sm:max-w-md">
            <label htmlFor="key-name" className="font-semibold">
              Name
            </label>
            <Input
              id="key-name"
              name="name"
              required
              minLength={2}
              maxLength={60}
              placeholder="e.g. HubSpot sync"
              defaultValue={actionData?.name ?? ""}
              key={actionData?.created ? "created" : "draft"}
            />
          </div>
          <Button type="submit" disabled={creating}>
            {creating ? "Creating..." : "Create key"}
          </Button>
        </Form>
      </section>

      <section aria-labelledby="keys-heading" className="grid gap-3">
        <h2 id="keys-heading" className="text-xl font-semibold">
          Keys
        </h2>
        {keys.length === 0 ? (
          <p className="rounded-xl border border-line bg-white px-6 py-10 text-center text-ink-muted">
            No API keys yet.
          </p>
        ) : (
          <DataTable columns={["Name", "Key", "Created", "Last used", "Status", "Actions"]}>
            {keys.map((key) => (
              <tr key={key.id} className="border-t border-line align-middle">
                <th scope="row" className="px-4 py-3 font-semibold break-words">
                  {key.name}
                </th>
                <td className="px-4 py-3 font-mono whitespace-nowrap">{key.keyPrefix}…</td>
                <td className="px-4 py-3">
                  {key.created}
                  <span className="block text-ink-muted">by {key.createdBy}</span>
                </td>
                <td className="px-4 py-3 whitespace-nowrap">
                  {key.lastUsed ?? <span className="text-ink-muted">Never</span>}
                </td>
                <td className="px-4 py-3">
                  {key.revoked ? (
                    <span className="text-ink-muted">
                      Revoked {key.revoked}
                      {key.revokedBy ? ` by ${key.revokedBy}` : ""}
                    </span>
                  ) : (
                    <span className="rounded bg-green-100 px-2 py-0.5 text-xs font-semibold text-green-900">
                      Active
                    </span>
                  )}
                </td>
                <td className="px-4 py-3">
                  {key.revoked ? null : (
                    <Button asChild variant="outline" size="sm">
                      <Link to={`?${CONFIRM_PARAM}=${key.id}`}>
                        Revoke<span className="sr-only"> {key.name}</span>
                      </Link>
                    </Button>
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </div>
  );
}
