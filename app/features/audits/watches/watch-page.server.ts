import { data, type RouterContextProvider, redirect } from "react-router";
import { readForm } from "#app/lib/http.server.ts";
import { runNow } from "./watch-api.server.ts";
import { watchServices } from "./watch-context.server.ts";
import { readNotice, WATCHES_PATH, watchPath } from "./watch-paths.ts";
import { isEmailAddress } from "./watch-schema.ts";
import { changeWatch, createWatch } from "./watch-service.server.ts";
import { deleteWatch, findRun, findWatch } from "./watch-store.server.ts";
import { loadWatch, loadWatchList, parseId } from "./watch-view.server.ts";

// The /admin/watches pages' server side: the same functions as the JSON API, reached by forms that
// work without JavaScript (a 400 with the entered values and the messages, redirect after success).

type Context = Readonly<RouterContextProvider>;

export type WatchFormValues = { url: string; checks: string[]; every: string; recipients: string };

function formValues(form: URLSearchParams): WatchFormValues {
  return {
    url: form.get("url") ?? "",
    checks: form.getAll("checks"),
    every: form.get("every") ?? "",
    recipients: form.get("recipients") ?? "",
  };
}

export async function loadWatchesPage(request: Request, context: Context, username: string) {
  const { database, checks } = await watchServices(context);
  const list = await loadWatchList(database.db, checks);
  return {
    ...list,
    notice: readNotice(new URL(request.url)),
    // Alerts go to the creator unless other addresses are given: only when the user name is one.
    defaultRecipients: isEmailAddress(username.toLowerCase()) ? username.toLowerCase() : "",
  };
}

export type WatchFormError = {
  kind: "error";
  message: string;
  errors: Record<string, string>;
  values: WatchFormValues;
};

export async function watchesFormAction(request: Request, context: Context, username: string) {
  const form = await readForm(request);
  const values = formValues(form);
  const { database, allowPrivate, checks } = await watchServices(context);
  const outcome = await createWatch(
    database.db,
    { ...values, recipients: values.recipients.trim() === "" ? undefined : values.recipients },
    username,
    { allowPrivate, checks },
  );
  if (!outcome.ok)
    return data<WatchFormError>(
      { kind: "error", message: outcome.message, errors: outcome.errors, values },
      { status: outcome.status },
    );
  throw redirect(`${watchPath(outcome.watch.id)}?notice=created`, 303);
}

export async function loadWatchPage(request: Request, context: Context, rawId: string | undefined) {
  const id = parseId(rawId);
  const { database, checks } = await watchServices(context);
  const view = id === null ? undefined : await loadWatch(database.db, id);
  if (!view) throw new Response("Watch not found", { status: 404 });
  const url = new URL(request.url);
  const runId = parseId(url.searchParams.get("run"));
  const opened = runId === null ? null : ((await findRun(database.db, view.watch.id, runId)) ?? null);
  return {
    ...view,
    // The run asked for, else the latest: the page shows one run's results at a time.
    shown: opened ?? view.latestRun,
    checks,
    notice: readNotice(url),
    confirmDelete: url.searchParams.get("delete") === "confirm",
  };
}

export type WatchActionData = WatchFormError | { kind: "refused"; status: number; message: string };

export async function watchFormAction(request: Request, context: Context, rawId: string | undefined) {
  const id = parseId(rawId);
  const { database, allowPrivate, checks, runWatch } = await watchServices(context);
  if (id === null || !(await findWatch(database.db, id)))
    throw new Response("Watch not found", { status: 404 });
  const form = await readForm(request);
  const intent = form.get("intent");
  const rules = { allowPrivate, checks };
  if (intent === "run") {
    const outcome = await runNow(runWatch, id);
    if (!outcome.ok)
      return data<WatchActionData>(
        { kind: "refused", status: outcome.status, message: outcome.message },
        { status: outcome.status, headers: outcome.status === 503 ? { "Retry-After": "30" } : {} },
      );
    throw redirect(`${watchPath(id)}?notice=ran`, 303);
  }
  if (intent === "pause" || intent === "resume") {
    await changeWatch(database.db, id, { paused: intent === "pause" }, rules);
    throw redirect(`${watchPath(id)}?notice=${intent === "pause" ? "paused" : "resumed"}`, 303);
  }
  if (intent === "delete") {
    await deleteWatch(database.db, id);
    throw redirect(`${WATCHES_PATH}?notice=deleted`, 303);
  }
  if (intent === "update") {
    const values = formValues(form);
    const outcome = await changeWatch(database.db, id, values, rules);
    if (!outcome) throw new Response("Watch not found", { status: 404 });
    if (!outcome.ok)
      return data<WatchActionData>(
        { kind: "error", message: outcome.message, errors: outcome.errors, values },
        { status: outcome.status },
      );
    throw redirect(`${watchPath(id)}?notice=saved`, 303);
  }
  return data<WatchActionData>({ kind: "refused", status: 400, message: "Unknown action." }, { status: 400 });
}
