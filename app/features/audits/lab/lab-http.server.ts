import type { RouterContextProvider } from "react-router";
import { readJsonObject } from "#app/lib/http.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { retryAfterHeader } from "../audit-http.server.ts";
import { runLabCheckForAdmin } from "./lab-service.server.ts";

/**
 * POST /api/admin/lab-check { url, device? } (issue 25), `audits.use` only, same-origin only.
 * 200: the LabResult as the page shows it (with the stored `id`). 400 { message, error } bad input;
 * 422 the LabResult with `error`/`details` (refused, not loaded, too slow or too big); 503 with
 * Retry-After when the audits are busy, and 503 { error: "Chromium is not installed", message }
 * when there is no browser on the server.
 */
export async function handleLabCheckApi(request: Request, context: Readonly<RouterContextProvider>) {
  const user = await requireApiPermission(request, context, "audits.use");
  assertSameOrigin(request);
  const body = await readJsonObject(request, 4 * 1024);
  if (!body.ok) return body.response;
  const outcome = await runLabCheckForAdmin(
    context,
    { url: body.value.url, device: body.value.device },
    user.username,
  );
  if (outcome.ok) return Response.json(outcome.result);
  if ("result" in outcome)
    return Response.json({ ...outcome.result, message: outcome.message }, { status: outcome.status });
  const { status, message, error, retryAfter } = outcome;
  return Response.json({ message, error }, { status, headers: retryAfterHeader(retryAfter) });
}
