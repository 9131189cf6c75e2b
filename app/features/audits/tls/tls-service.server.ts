import type { RouterContextProvider } from "react-router";
import { auditServices } from "../audit-context.server.ts";
import { type AuditRefusal, runTimedInSlot } from "../audit-slots.server.ts";
import { parseTargetUrl } from "../target-policy.server.ts";
import { runTlsCheck } from "./tls-check.server.ts";
import type { TlsCheckResult } from "./tls-types.ts";

// POST /api/admin/tls-check and the audit page's TLS form: the same checks of the address, the
// audits' slots (a check is a few handshakes and parses a few certificates, light enough for this
// process, like the performance check), and the result as the page shows it. Not stored: see ADR 029.

type Context = Readonly<RouterContextProvider>;

export type TlsCheckOutcome = { ok: true; result: TlsCheckResult } | AuditRefusal;

export const NOT_HTTPS_MESSAGE = "The TLS check needs an https:// address.";

export async function runTlsCheckForAdmin(context: Context, rawUrl: unknown): Promise<TlsCheckOutcome> {
  const target = parseTargetUrl(typeof rawUrl === "string" ? rawUrl : "");
  if (!target.ok)
    return { ok: false, status: 400, message: target.details, error: target.error, details: target.details };
  if (target.url.protocol !== "https:")
    return {
      ok: false,
      status: 400,
      message: NOT_HTTPS_MESSAGE,
      error: "Not HTTPS",
      details: NOT_HTTPS_MESSAGE,
    };
  const { env, auditSlots } = await auditServices(context);
  const slot = await runTimedInSlot(auditSlots, "tls", () =>
    runTlsCheck(target.url.href, { allowPrivate: env.AUDIT_ALLOW_PRIVATE_TARGETS }),
  );
  if (!slot.ok) return slot;
  slot.done(slot.value.error ? "failed" : "checked");
  return { ok: true, result: slot.value };
}
