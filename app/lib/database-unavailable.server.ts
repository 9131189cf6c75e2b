import type { MiddlewareFunction } from "react-router";
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE_MESSAGE,
  describeDatabaseError,
  isDatabaseUnavailable,
} from "#app/db/unavailable.server.ts";

/**
 * Turns "the database cannot serve now" into 503 for every route that needs it (ADR 008): staff pages,
 * the staff API, sign-in. React Router catches a loader's or action's error itself and answers 500,
 * calling the entry's `handleError` first; that hook marks the request, and the root middleware below
 * turns the 500 it gets back into a 503 with a clear message. A resource route's error reaches the
 * middleware as a throw instead, and is answered the same way.
 */
const unavailableRequests = new WeakSet<Request>();

/** For entry.server's handleError: true when the error was the database being unavailable (logged briefly). */
export function noteDatabaseUnavailable(error: unknown, request: Request): boolean {
  if (!isDatabaseUnavailable(error)) return false;
  unavailableRequests.add(request);
  console.error(`Database unavailable (answered 503): ${describeDatabaseError(error)}`);
  return true;
}

function wantsJson(request: Request): boolean {
  const path = new URL(request.url).pathname;
  return path.startsWith("/api/") || (request.headers.get("accept") ?? "").includes("application/json");
}

export function databaseUnavailableResponse(request: Request): Response {
  const headers = { "Retry-After": String(DATABASE_RETRY_AFTER_SECONDS), "Cache-Control": "no-store" };
  if (wantsJson(request))
    return Response.json({ message: DATABASE_UNAVAILABLE_MESSAGE }, { status: 503, headers });
  const html = `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Temporarily unavailable | Clausebridge</title></head><body><main id="main"><h1>Temporarily unavailable</h1><p>${DATABASE_UNAVAILABLE_MESSAGE}</p><p><a href="/">Clausebridge home</a></p></main></body></html>`;
  return new Response(html, {
    status: 503,
    headers: { ...headers, "Content-Type": "text/html; charset=utf-8" },
  });
}

export const databaseUnavailableMiddleware: MiddlewareFunction<Response> = async ({ request }, next) => {
  let response: Response;
  try {
    response = await next();
  } catch (error) {
    if (noteDatabaseUnavailable(error, request)) return databaseUnavailableResponse(request);
    throw error;
  }
  if (response.status >= 500 && unavailableRequests.has(request)) {
    await response.body?.cancel();
    return databaseUnavailableResponse(request);
  }
  return response;
};
