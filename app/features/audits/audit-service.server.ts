import type { RouterContextProvider } from "react-router";
import { AuditChildError, runAuditInChild } from "./audit-child.server.ts";
import { auditServices } from "./audit-context.server.ts";
import type { AuditJobOutcome } from "./audit-job.server.ts";
import { type AuditRefusal, runTimedInSlot } from "./audit-slots.server.ts";
import {
  listSecurityAudits,
  type SecurityAuditRecord,
  savePerformanceCheck,
  saveSecurityAudit,
} from "./audit-store.server.ts";
import type { PerformanceResult } from "./audit-types.ts";
import { hstsPreloadFor } from "./hsts-preload-list.server.ts";
import { failureText } from "./observatory/context.ts";
import { runPerformanceCheck } from "./performance-check.server.ts";
import { parseTargetUrl } from "./target-policy.server.ts";

type Context = Readonly<RouterContextProvider>;

export type { AuditRefusal };

export type AuditOutcome = { ok: true; record: SecurityAuditRecord } | AuditRefusal;

function refusalOf(outcome: Exclude<AuditJobOutcome, { kind: "result" }>): AuditRefusal {
  // Refused targets and unreachable ones alike: nothing to analyse, nothing stored.
  if (outcome.kind === "unreachable")
    return { ok: false, status: 422, message: failureText(outcome.failure), ...outcome.failure };
  return {
    ok: false,
    status: 422,
    message: outcome.message,
    error: "Cannot grade this site",
    details: outcome.message,
  };
}

/**
 * POST /api/admin/security-audit and the audit page's form: wait for a free slot, audit in a child
 * process (fetching and grading never touch this process's event loop or memory), store, answer.
 */
export async function runSecurityAudit(
  context: Context,
  rawUrl: unknown,
  actor: string,
): Promise<AuditOutcome> {
  const target = parseTargetUrl(typeof rawUrl === "string" ? rawUrl : "");
  if (!target.ok)
    return { ok: false, status: 400, message: target.details, error: target.error, details: target.details };
  const { database, env, auditSlots } = await auditServices(context);
  let slot: Awaited<ReturnType<typeof runTimedInSlot<AuditJobOutcome>>>;
  try {
    slot = await runTimedInSlot(auditSlots, "security", () =>
      runAuditInChild({ url: target.url.href, allowPrivate: env.AUDIT_ALLOW_PRIVATE_TARGETS }, (hosts) =>
        hstsPreloadFor(database.db, hosts),
      ),
    );
  } catch (error) {
    if (error instanceof AuditChildError) {
      if (error.kind === "crash") console.error(`Security audit of ${target.url.host}: ${error.message}`);
      return {
        ok: false,
        status: 422,
        message: error.message,
        error: "Cannot grade this site",
        details: error.message,
      };
    }
    throw error;
  }
  if (!slot.ok) return slot;
  const outcome = slot.value;
  slot.done(outcome.kind === "result" ? "graded" : "refused");
  if (outcome.kind !== "result") return refusalOf(outcome);
  return { ok: true, record: await saveSecurityAudit(database.db, outcome.result, actor) };
}

/** POST /api/admin/performance-check and the page's form: always a result (with error on failure). */
export async function runPerformanceCheckForAdmin(
  context: Context,
  rawUrl: unknown,
  actor: string,
): Promise<{ ok: true; result: PerformanceResult } | AuditRefusal> {
  const target = parseTargetUrl(typeof rawUrl === "string" ? rawUrl : "");
  if (!target.ok) return { ok: false, status: 400, message: target.details };
  const { database, env, auditSlots } = await auditServices(context);
  // Only timings and sizes, no parsing: it runs here, but shares the audits' slots.
  const slot = await runTimedInSlot(auditSlots, "performance", () =>
    runPerformanceCheck(target.url.href, { allowPrivate: env.AUDIT_ALLOW_PRIVATE_TARGETS }),
  );
  if (!slot.ok) return slot;
  const result = slot.value;
  slot.done(result.error ? "failed" : "measured");
  await savePerformanceCheck(database.db, result, actor);
  return { ok: true, result };
}

export { listSecurityAudits };
