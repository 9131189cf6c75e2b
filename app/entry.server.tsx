import { Writable } from "node:stream";
import pageScripts from "virtual:page-scripts";
import { renderToPipeableStream } from "react-dom/server";
import type { EntryContext, RouterContextProvider } from "react-router";
import { isRouteErrorResponse, ServerRouter } from "react-router";
import stylesheet from "./app.css?inline";
import { noteDatabaseUnavailable } from "./lib/database-unavailable.server.ts";
import { type PublicDocumentAssets, PublicDocumentContext } from "./lib/public-document.tsx";
import { cspNonceContext } from "./lib/request-context.server.ts";

export const streamTimeout = 5_000;

/** The same stylesheet the back office links to, as text for the public pages (ADR 013). */
const publicDocument: PublicDocumentAssets = { stylesheet, scripts: pageScripts };

export { clientAddressContext, createServices, provideServices } from "../composition/services.server.ts";
// server.ts answers POST /api/demo-request itself, with the bundled handler (see http-server.ts).
export { answerLeadApi, leadApiFailure } from "./features/leads/lead-http.server.ts";
// NOTE: server.ts reads the context key from the build (build.entry.module) so that it sets the
// very object the bundled routes read; importing the source module there would create a second key.
export { cspNonceContext };

/**
 * Errors of loaders, actions and rendering. A database that cannot serve now is logged in one line
 * with its real cause and answered 503 (the root middleware); anything else is a bug, logged whole.
 */
export function handleError(error: unknown, { request }: { request: Request }) {
  if (request.signal.aborted) return;
  if (noteDatabaseUnavailable(error, request)) return;
  // A 4xx React Router answers itself (a method a route has no handler for, an unknown route) is the
  // client's mistake, not ours: no stack trace in the log for it.
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  // The nonce lets React Router's inline hydration scripts pass the CSP that server.ts sends.
  const nonce = loadContext.get(cspNonceContext) || undefined;

  return new Promise((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    // Every document is answered whole, in one write, once all of it is rendered. No page streams
    // deferred data, so waiting for all of it costs a browser nothing; and one buffer instead of a
    // stream of small chunks skips the per-chunk trip through Node and web streams, the compression
    // middleware and zlib: a third of the dashboard's CPU (issue 10, docs/performance.md).
    const { pipe, abort } = renderToPipeableStream(
      <PublicDocumentContext value={nonce ? { ...publicDocument, nonce } : publicDocument}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </PublicDocumentContext>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          const chunks: Buffer[] = [];
          const body = new Writable({
            write(chunk: Buffer | string, _encoding, callback) {
              chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
              callback();
            },
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              responseHeaders.set("Content-Type", "text/html; charset=utf-8");
              resolve(
                new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }),
              );
              callback();
            },
          });
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors before the shell is ready are logged by React Router itself.
          if (shellRendered) console.error(error);
        },
      },
    );
  });
}
