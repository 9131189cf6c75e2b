import { data, type RouterContextProvider } from "react-router";
import { formatDateTime } from "#app/lib/format-date.ts";
import { readForm } from "#app/lib/http.server.ts";
import { auditServices } from "./audit-context.server.ts";
import { retryAfterHeader } from "./audit-http.server.ts";
import { DETAILS_PARAM } from "./audit-paths.ts";
import { runPerformanceCheckForAdmin, runSecurityAudit } from "./audit-service.server.ts";
import { listPerformanceChecks, listSecurityAudits, type SecurityAuditRecord } from "./audit-store.server.ts";
import type { PerformanceResult } from "./audit-types.ts";
import { runLabCheckForAdmin } from "./lab/lab-service.server.ts";
import { latestLabCheck, listLabChecks } from "./lab/lab-store.server.ts";
import type { LabDevice, LabResult } from "./lab/lab-types.ts";
import { type TlsActionData, tlsFormAction } from "./tls/tls-form.server.ts";
import type { AuditIntent } from "./ui/audit-texts.ts";
import type { AuditRow } from "./ui/audit-view.ts";

// The /admin/audit page's server side (SPEC section 2): the stored history with the latest
// performance check, and the form that runs either without JavaScript through the same functions
// as the JSON API.

type Context = Readonly<RouterContextProvider>;

const HISTORY_LIMIT = 50;

function toRow(record: SecurityAuditRecord): AuditRow {
  return {
    id: record.id,
    date: formatDateTime(record.date),
    isoDate: record.date,
    url: record.url,
    score: record.score,
    uncappedScore: record.uncappedScore,
    algorithmVersion: record.algorithmVersion,
    grade: record.grade,
    issues: record.issues,
  };
}

/**
 * The page's data: the address to audit by default, the stored audits, the one `?details=` opens.
 * `siteUrl` is the product's own address, audited when the server was given no PUBLIC_URL.
 */
export async function loadAuditPage(request: Request, context: Context, siteUrl: string) {
  const { database, env } = await auditServices(context);
  // The product's own hosted address (SPEC section 2), PUBLIC_URL when the server was given one.
  const defaultUrl = env.PUBLIC_URL?.replace(/\/+$/, "") || siteUrl;
  const detailsId = new URL(request.url).searchParams.get(DETAILS_PARAM);
  try {
    const [records, checks, lab, labChecks] = await Promise.all([
      listSecurityAudits(database.db, { limit: HISTORY_LIMIT }),
      listPerformanceChecks(database.db, { limit: 1 }),
      latestLabCheck(database.db),
      listLabChecks(database.db, { limit: 10 }),
    ]);
    const audits = records.map(toRow);
    const latest = checks[0];
    return {
      defaultUrl,
      loadError: false,
      audits,
      details: detailsId === null ? null : (audits.find((audit) => String(audit.id) === detailsId) ?? null),
      latestCheck: latest ? { result: latest, date: formatDateTime(latest.date) } : null,
      latestLab: lab ? { result: withoutRecordFields(lab), date: formatDateTime(lab.date) } : null,
      labHistory: labChecks.map((row) => ({ ...row, date: formatDateTime(row.date) })),
    };
  } catch (error) {
    console.error("Admin audit page: loading the stored audits failed", error);
    return data(
      {
        defaultUrl,
        loadError: true,
        audits: [],
        details: null,
        latestCheck: null,
        latestLab: null,
        labHistory: [],
      },
      { status: 503 },
    );
  }
}

export type AuditActionData =
  | { intent: "unknown"; url: string }
  | { intent: AuditIntent; url: string; required: true }
  | {
      intent: "audit";
      url: string;
      audit:
        | { ok: true; id: number; score: number; grade: string; issues: unknown[] }
        | { ok: false; message: string };
    }
  | { intent: "check"; url: string; performance: PerformanceResult }
  | { intent: "check"; url: string; refused: string }
  | TlsActionData
  | { intent: "lab"; url: string; device: LabDevice; result?: LabResult; refused?: string };

/** The stored record's own fields are not part of the result the card shows. */
function withoutRecordFields<T extends LabResult>(
  record: T & { createdBy?: string; date?: string },
): LabResult {
  const { createdBy: _createdBy, date: _date, ...result } = record;
  return result;
}

/** Without JavaScript: `intent=audit`, `check` or `tls` with `url`; the page shows what came of it. */
export async function auditFormAction(request: Request, context: Context, actor: string) {
  const form = await readForm(request);
  const intent = form.get("intent");
  const rawUrl = form.get("url");
  const url = typeof rawUrl === "string" ? rawUrl.trim() : "";
  if (intent === "tls") {
    const { body, status, headers } = await tlsFormAction(context, url);
    return data<AuditActionData>(body, { status, headers });
  }
  if (intent === "lab") {
    const device = form.get("device") === "desktop" ? "desktop" : "mobile";
    const outcome = await runLabCheckForAdmin(
      context,
      { url, device: form.get("device") ?? undefined },
      actor,
    );
    if (outcome.ok) return data<AuditActionData>({ intent, url, device, result: outcome.result });
    return data<AuditActionData>(
      "result" in outcome
        ? { intent, url, device, result: outcome.result }
        : { intent, url, device, refused: outcome.message },
      {
        status: outcome.status,
        headers: retryAfterHeader("retryAfter" in outcome ? outcome.retryAfter : undefined),
      },
    );
  }
  if (intent !== "audit" && intent !== "check") {
    return data<AuditActionData>({ intent: "unknown", url }, { status: 400 });
  }
  if (!url) return data<AuditActionData>({ intent, url, required: true }, { status: 400 });
  if (intent === "audit") {
    const outcome = await runSecurityAudit(context, url, actor);
    if (!outcome.ok) {
      return data<AuditActionData>(
        { intent, url, audit: { ok: false, message: outcome.message } },
        { status: outcome.status, headers: retryAfterHeader(outcome.retryAfter) },
      );
    }
    const { id, score, grade, issues } = outcome.record;
    return data<AuditActionData>({ intent, url, audit: { ok: true, id, score, grade, issues } });
  }
  const outcome = await runPerformanceCheckForAdmin(context, url, actor);
  if (!outcome.ok)
    return data<AuditActionData>(
      { intent, url, refused: outcome.message },
      { status: outcome.status, headers: retryAfterHeader(outcome.retryAfter) },
    );
  return data<AuditActionData>({ intent, url, performance: outcome.result });
}
