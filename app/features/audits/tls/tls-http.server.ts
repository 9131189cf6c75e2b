import type { RouterContextProvider } from "react-router";
import { readJsonObject } from "#app/lib/http.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { retryAfterHeader } from "../audit-http.server.ts";
import { runTlsCheckForAdmin } from "./tls-service.server.ts";

/**
 * POST /api/admin/tls-check { url }: 200 with the result (`error`/`details` set when the target was
 * refused or could not be reached); 400 { message, error, details } for an address that is not an
 * https URL; 503 with Retry-After when the audits are busy. Staff with `audits.use`, same origin only.
 */
export async function handleTlsCheckApi(request: Request, context: Readonly<RouterContextProvider>) {
  await requireApiPermission(request, context, "audits.use");
  assertSameOrigin(request);
  const body = await readJsonObject(request, 4 * 1024);
  if (!body.ok) return body.response;
  const outcome = await runTlsCheckForAdmin(context, body.value.url);
  if (!outcome.ok) {
    const { status, message, error, details, retryAfter } = outcome;
    return Response.json({ message, error, details }, { status, headers: retryAfterHeader(retryAfter) });
  }
  return Response.json(outcome.result);
}
