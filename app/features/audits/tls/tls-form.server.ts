import type { RouterContextProvider } from "react-router";
import { retryAfterHeader } from "../audit-http.server.ts";
import { runTlsCheckForAdmin } from "./tls-service.server.ts";
import { TLS_TEXT } from "./tls-texts.ts";
import type { TlsCheckResult } from "./tls-types.ts";

// The audit page's TLS form without JavaScript (`intent=tls`): the same function as the API, the
// outcome handed back for the page to show.

export type TlsActionData =
  | { intent: "tls"; url: string; tls: TlsCheckResult }
  | { intent: "tls"; url: string; refused: string };

export async function tlsFormAction(
  context: Readonly<RouterContextProvider>,
  url: string,
): Promise<{ body: TlsActionData; status: number; headers?: HeadersInit }> {
  if (!url) return { body: { intent: "tls", url, refused: TLS_TEXT.urlRequired }, status: 400 };
  const outcome = await runTlsCheckForAdmin(context, url);
  if (!outcome.ok)
    return {
      body: { intent: "tls", url, refused: outcome.message },
      status: outcome.status,
      headers: retryAfterHeader(outcome.retryAfter),
    };
  return { body: { intent: "tls", url, tls: outcome.result }, status: 200 };
}
