import { data, type RouterContextProvider, redirect } from "react-router";
import { readForm } from "#app/lib/http.server.ts";
import { REVOKED_NOTICE_HREF } from "./api-key-paths.ts";
import { ApiKeyInputError, createApiKey, revokeApiKey } from "./api-keys.server.ts";
import type { Actor } from "./lead-events.server.ts";
import { leadsServices } from "./leads-context.server.ts";

// The /admin/api-keys forms, with or without JavaScript. A new key is answered to the POST itself,
// shown once, never carried by a redirect (it would sit in the address bar and the history).

/** `intent=create` (`name`): answers with the new key, shown once; `intent=revoke` (`id`). */
export async function apiKeyFormAction(
  request: Request,
  context: Readonly<RouterContextProvider>,
  user: Actor,
) {
  const form = await readForm(request);
  const { database } = await leadsServices(context);
  const db = database.db;
  if (form.get("intent") === "create") {
    try {
      const created = await createApiKey(db, form.get("name") ?? "", user);
      return { created: { name: created.name, key: created.key }, error: null, name: "" };
    } catch (error) {
      if (error instanceof ApiKeyInputError)
        return data({ created: null, error: error.message, name: form.get("name") ?? "" }, { status: 400 });
      throw error;
    }
  }
  if (form.get("intent") === "revoke") {
    const id = Number(form.get("id"));
    if (!Number.isSafeInteger(id) || !(await revokeApiKey(db, id, user)))
      throw data("API key not found", { status: 404 });
    throw redirect(REVOKED_NOTICE_HREF);
  }
  return data({ created: null, error: "Unknown action.", name: "" }, { status: 400 });
}
