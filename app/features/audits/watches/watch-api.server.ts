import type { RouterContextProvider } from "react-router";
import { readJsonObject } from "#app/lib/http.server.ts";
import { assertSameOrigin, requireApiPermission } from "#app/lib/staff-guard.server.ts";
import { AUDIT_RETRY_AFTER_SECONDS, AuditBusyError } from "../audit-slots.server.ts";
import { watchServices } from "./watch-context.server.ts";
import { WatchRunningError } from "./watch-run.server.ts";
import { changeWatch, createWatch } from "./watch-service.server.ts";
import { deleteWatch, findRun, findWatch } from "./watch-store.server.ts";
import { loadWatch, loadWatchList, parseId } from "./watch-view.server.ts";

// /api/admin/watches… (issue 25): staff with audits.use (401/403), state changes refused cross-site,
// small JSON bodies, answers as the pages show them.

type Context = Readonly<RouterContextProvider>;

/** A watch's fields in JSON: an address and ten recipients are far below this. */
const WATCH_BODY_LIMIT = 8 * 1024;

const notFound = () => Response.json({ message: "Watch not found." }, { status: 404 });

/** GET /api/admin/watches: { watches, openAlerts, checks }. */
export async function handleListWatches(request: Request, context: Context): Promise<Response> {
  await requireApiPermission(request, context, "audits.use");
  const { database, checks } = await watchServices(context);
  return Response.json(await loadWatchList(database.db, checks));
}

/** POST /api/admin/watches { url, checks, every, recipients? }: 201 with the watch. */
export async function handleCreateWatch(request: Request, context: Context): Promise<Response> {
  const user = await requireApiPermission(request, context, "audits.use");
  assertSameOrigin(request);
  const body = await readJsonObject(request, WATCH_BODY_LIMIT);
  if (!body.ok) return body.response;
  const { database, allowPrivate, checks } = await watchServices(context);
  const outcome = await createWatch(database.db, body.value, user.username, { allowPrivate, checks });
  if (!outcome.ok)
    return Response.json({ message: outcome.message, errors: outcome.errors }, { status: outcome.status });
  return Response.json(outcome.watch, { status: 201 });
}

/** GET /api/admin/watches/:id[?run=N]: { watch, latestRun, runs, alerts } (and `run` when asked). */
export async function handleGetWatch(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "audits.use");
  const id = parseId(rawId);
  if (id === null) return notFound();
  const { database } = await watchServices(context);
  const view = await loadWatch(database.db, id);
  if (!view) return notFound();
  const rawRun = new URL(request.url).searchParams.get("run");
  if (rawRun === null) return Response.json(view);
  const runId = parseId(rawRun);
  const run = runId === null ? undefined : await findRun(database.db, id, runId);
  if (!run) return Response.json({ message: "Run not found." }, { status: 404 });
  return Response.json({ ...view, run });
}

/** PATCH /api/admin/watches/:id { url?, checks?, every?, recipients?, paused? }: the watch. */
export async function handleUpdateWatch(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "audits.use");
  assertSameOrigin(request);
  const id = parseId(rawId);
  if (id === null) return notFound();
  const body = await readJsonObject(request, WATCH_BODY_LIMIT);
  if (!body.ok) return body.response;
  const { database, allowPrivate, checks } = await watchServices(context);
  const outcome = await changeWatch(database.db, id, body.value, { allowPrivate, checks });
  if (!outcome) return notFound();
  if (!outcome.ok)
    return Response.json({ message: outcome.message, errors: outcome.errors }, { status: outcome.status });
  return Response.json(outcome.watch);
}

/** DELETE /api/admin/watches/:id: 204; its runs and alerts go with it. */
export async function handleDeleteWatch(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "audits.use");
  assertSameOrigin(request);
  const id = parseId(rawId);
  if (id === null) return notFound();
  const { database } = await watchServices(context);
  return (await deleteWatch(database.db, id)) ? new Response(null, { status: 204 }) : notFound();
}

/** POST /api/admin/watches/:id/run: 201 with the run; 409 while it runs elsewhere; 503 when the audits are busy. */
export async function handleRunWatch(request: Request, context: Context, rawId: string | undefined) {
  await requireApiPermission(request, context, "audits.use");
  assertSameOrigin(request);
  const id = parseId(rawId);
  if (id === null) return notFound();
  const { database, runWatch } = await watchServices(context);
  if (!(await findWatch(database.db, id))) return notFound();
  const outcome = await runNow(runWatch, id);
  if (!outcome.ok)
    return Response.json(
      { message: outcome.message },
      {
        status: outcome.status,
        headers: outcome.status === 503 ? { "Retry-After": String(AUDIT_RETRY_AFTER_SECONDS) } : {},
      },
    );
  return Response.json(outcome.run, { status: 201 });
}

/** "Run now" for the API and the page: the run, or why not (404 gone, 409 running, 503 busy). */
export async function runNow(
  runWatch: Awaited<ReturnType<typeof watchServices>>["runWatch"],
  id: number,
): Promise<
  | { ok: true; run: NonNullable<Awaited<ReturnType<typeof findRun>>> }
  | { ok: false; status: number; message: string }
> {
  try {
    const run = await runWatch(id, "manual");
    return run ? { ok: true, run } : { ok: false, status: 404, message: "Watch not found." };
  } catch (error) {
    if (error instanceof WatchRunningError) return { ok: false, status: 409, message: error.message };
    if (error instanceof AuditBusyError) return { ok: false, status: 503, message: error.message };
    throw error;
  }
}
