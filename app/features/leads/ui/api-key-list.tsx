import { Form, Link } from "react-router";
import { Banner } from "#app/components/back-office/banner.tsx";
import { Button } from "#app/components/ui/button.tsx";
import { DataTable } from "#app/components/ui/data-table.tsx";
import { API_KEYS_PATH, CONFIRM_REVOKE_PARAM } from "../api-key-paths.ts";
import type { ApiKeySummary } from "../api-keys.server.ts";

/** A key as the page lists it, its dates already formatted. */
export type ApiKeyRow = Pick<ApiKeySummary, "id" | "name" | "keyPrefix" | "createdBy" | "revokedBy"> & {
  created: string;
  lastUsed: string | null;
  revoked: string | null;
};

/** Every key, revoked ones included, with who made it, when it was last used, and a Revoke link. */
export function ApiKeyList({ keys }: { keys: ApiKeyRow[] }) {
  if (keys.length === 0) {
    return (
      <p className="rounded-xl border border-line bg-white px-6 py-10 text-center text-ink-muted">
        No API keys yet.
      </p>
    );
  }
  return (
    <DataTable label="API keys table" columns={["Name", "Key", "Created", "Last used", "Status", "Actions"]}>
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
                <Link to={`?${CONFIRM_REVOKE_PARAM}=${key.id}`}>
                  Revoke<span className="sr-only"> {key.name}</span>
                </Link>
              </Button>
            )}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** The step before revoking without JavaScript (`?revoke=<id>`): a form posting `intent=revoke`. */
export function RevokeApiKeyConfirmation({
  apiKey,
}: {
  apiKey: Pick<ApiKeySummary, "id" | "name" | "keyPrefix">;
}) {
  return (
    <Banner tone="info">
      <p>
        Revoke “{apiKey.name}” ({apiKey.keyPrefix}…)? Integrations using it stop at once.
      </p>
      <Form method="post" action={API_KEYS_PATH} className="mt-3 flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="revoke" />
        <input type="hidden" name="id" value={apiKey.id} />
        <Button type="submit" variant="danger" size="sm">
          Revoke key
        </Button>
        <Button asChild variant="outline" size="sm">
          <Link to={API_KEYS_PATH}>Cancel</Link>
        </Button>
      </Form>
    </Banner>
  );
}
