import type { RouterContextProvider } from "react-router";
import { readJsonObject } from "#app/lib/http.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { auditServices } from "./audit-context.server.ts";
import { listSecurityAudits, runPerformanceCheckForAdmin, runSecurityAudit } from "./audit-service.server.ts";

// SPEC section 7's audit calls, admin only; the two POSTs also refuse cross-site requests.

type Context = Readonly<RouterContextProvider>;

/** 503 busy answers say when to come back. */
export function retryAfterHeader(seconds: number | undefined): HeadersInit {
  return seconds === undefined ? {} : { "Retry-After": String(seconds) };
}

/**
 * POST /api/admin/security-audit { url }: 201 with the stored record; 400/422 { message, error,
 * details }; 503 with Retry-After when the audits are busy.
 */
export async function handleSecurityAuditApi(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "audits.use");
  assertSameOrigin(request);
  const body = await readJsonObject(request, 4 * 1024);
  if (!body.ok) return body.response;
  const outcome = await runSecurityAudit(context, body.value.url, user.username);
  if (!outcome.ok) {
    const { status, message, error, details, retryAfter } = outcome;
    return Response.json({ message, error, details }, { status, headers: retryAfterHeader(retryAfter) });
  }
  return Response.json(outcome.record, { status: 201 });
}

/** GET /api/admin/security-audits: the stored audits, newest first. */
export async function handleListSecurityAuditsApi(request: Request, context: Context): Promise<Response> {
  await requireApiPermission(request, context, "audits.use");
  const { database } = await auditServices(context);
  return Response.json(await listSecurityAudits(database.db, { limit: 100 }));
}

/** POST /api/admin/performance-check { url }: 200 with the result (error/details set on failure). */
export async function handlePerformanceCheckApi(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "audits.use");
  assertSameOrigin(request);
  const body = await readJsonObject(request, 4 * 1024);
  if (!body.ok) return body.response;
  const outcome = await runPerformanceCheckForAdmin(context, body.value.url, user.username);
  if (!outcome.ok)
    return Response.json(
      { message: outcome.message },
      { status: outcome.status, headers: retryAfterHeader(outcome.retryAfter) },
    );
  return Response.json(outcome.result);
}
