import { type FormEvent, useState } from "react";
import { Form, useRevalidator } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { UrlInput } from "#app/components/ui/input.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { failureMessage, NETWORK_ERROR, sendJson } from "#app/lib/api-client.ts";
import { cn } from "#app/lib/cn.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { PerformanceResult } from "../audit-types.ts";
import { auditSummaryText, loadTimeText } from "./audit-format.ts";
import { AUDIT_TEXT, type AuditIntent, urlRequiredText } from "./audit-texts.ts";

export const SECURITY_AUDIT_API = "/api/admin/security-audit";
export const PERFORMANCE_CHECK_API = "/api/admin/performance-check";

type AuditRecordAnswer = { score: number; grade: string; issues: unknown[] };

function isAuditRecord(body: unknown): body is AuditRecordAnswer {
  return (
    !!body &&
    typeof body === "object" &&
    "score" in body &&
    typeof body.score === "number" &&
    "grade" in body &&
    "issues" in body &&
    Array.isArray(body.issues)
  );
}

function isPerformanceResult(body: unknown): body is PerformanceResult {
  return !!body && typeof body === "object" && "url" in body && "loadTime" in body;
}

const failed = (title: string, description: string) => toast({ title, description, variant: "destructive" });

/**
 * The URL and the two buttons (SPEC sections 2, 4, 5 and 8). One form whose buttons post
 * `intent=audit` or `intent=check` to the page's action without JavaScript; with it, each button
 * calls its JSON API, shows its busy label ('Running...' / 'Checking...') and ends with a toast.
 */
export function AuditRunner({
  defaultUrl,
  action,
  onPerformance,
}: {
  defaultUrl: string;
  /** The page's own path, whose action runs the checks without JavaScript. */
  action: string;
  /** A performance check finished (with or without an error) and this is its result. */
  onPerformance: (result: PerformanceResult) => void;
}) {
  const hydrated = useHydrated();
  const revalidator = useRevalidator();
  const [auditing, setAuditing] = useState(false);
  const [checking, setChecking] = useState(false);

  async function runAudit(url: string) {
    setAuditing(true);
    try {
      const response = await sendJson(SECURITY_AUDIT_API, "POST", { url });
      if (!response.ok) {
        failed(AUDIT_TEXT.auditFailed, await failureMessage(response));
        return;
      }
      const record: unknown = await response.json();
      toast({
        title: AUDIT_TEXT.auditComplete,
        description: isAuditRecord(record) ? auditSummaryText(record) : undefined,
      });
      // The loader reads the stored audits: the new one joins the history.
      await revalidator.revalidate();
    } catch {
      failed(AUDIT_TEXT.auditFailed, NETWORK_ERROR);
    } finally {
      setAuditing(false);
    }
  }

  async function runCheck(url: string) {
    setChecking(true);
    try {
      const response = await sendJson(PERFORMANCE_CHECK_API, "POST", { url });
      if (!response.ok) {
        failed(AUDIT_TEXT.checkFailed, await failureMessage(response));
        return;
      }
      const result: unknown = await response.json();
      if (!isPerformanceResult(result)) {
        failed(AUDIT_TEXT.checkFailed, `${response.status}: unexpected answer`);
        return;
      }
      onPerformance(result);
      if (result.error) failed(AUDIT_TEXT.checkFailed, result.error);
      else toast({ title: AUDIT_TEXT.checkComplete, description: loadTimeText(result) });
    } catch {
      failed(AUDIT_TEXT.checkFailed, NETWORK_ERROR);
    } finally {
      setChecking(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const intent: AuditIntent =
      submitter instanceof HTMLButtonElement && submitter.value === "check" ? "check" : "audit";
    const url = String(new FormData(event.currentTarget).get("url") ?? "").trim();
    if (intent === "audit" ? auditing : checking) return;
    if (!url) {
      failed(AUDIT_TEXT.urlRequired, urlRequiredText(intent));
      return;
    }
    if (intent === "audit") void runAudit(url);
    else void runCheck(url);
  }

  const busyClass = "aria-disabled:cursor-progress aria-disabled:opacity-70";

  return (
    <Form
      method="post"
      action={action}
      // The server checks the address (and says when it is missing); the browser's own bubble would
      // hide SPEC section 5's 'URL Required' toast.
      noValidate
      onSubmit={hydrated ? onSubmit : undefined}
      className="grid gap-4"
    >
      <div className="grid gap-1.5">
        <label htmlFor="audit-url" className="font-semibold">
          Website URL
        </label>
        <p id="audit-url-hint" className="text-sm text-ink-muted">
          The address to test, for example https://www.example.com. It starts as this site's own address.
        </p>
        <UrlInput id="audit-url" name="url" defaultValue={defaultUrl} aria-describedby="audit-url-hint" />
      </div>
      <div className="flex flex-wrap gap-3">
        <Button
          type="submit"
          name="intent"
          value="audit"
          aria-disabled={auditing || undefined}
          aria-busy={auditing || undefined}
          className={cn(busyClass)}
        >
          {auditing ? AUDIT_TEXT.running : AUDIT_TEXT.runAudit}
        </Button>
        <Button
          type="submit"
          name="intent"
          value="check"
          variant="outline"
          aria-disabled={checking || undefined}
          aria-busy={checking || undefined}
          className={cn(busyClass)}
        >
          {checking ? AUDIT_TEXT.checking : AUDIT_TEXT.checkNow}
        </Button>
      </div>
      <p className="text-sm text-ink-muted">
        <strong className="font-semibold text-ink">Run Audit</strong> checks the security headers, HTTPS and
        cookies of the address and stores the result below.{" "}
        <strong className="font-semibold text-ink">Check Now</strong> measures how fast the page loads.
      </p>
    </Form>
  );
}
