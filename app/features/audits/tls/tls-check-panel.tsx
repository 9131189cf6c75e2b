import { type FormEvent, useState } from "react";
import { Form } from "react-router";
import { Button } from "#app/components/ui/button.tsx";
import { UrlInput } from "#app/components/ui/input.tsx";
import { toast } from "#app/components/ui/toast-store.ts";
import { failureMessage, NETWORK_ERROR, sendJson } from "#app/lib/api-client.ts";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import { TlsResult } from "./tls-result.tsx";
import { TLS_CHECK_API, TLS_TEXT, tlsSummaryText } from "./tls-texts.ts";
import type { TlsCheckResult } from "./tls-types.ts";

// The audit page's TLS check (issue 25): an https address and 'Check TLS'. Without JavaScript the
// form posts `intent=tls` to the page's action and the page comes back with the result; with it, the
// button calls POST /api/admin/tls-check and the result replaces the card's content in place.

function isTlsResult(body: unknown): body is TlsCheckResult {
  return !!body && typeof body === "object" && "protocols" in body && "issues" in body && "url" in body;
}

const failed = (description: string) =>
  toast({ title: TLS_TEXT.failed, description, variant: "destructive" });

export function TlsCheckPanel({
  defaultUrl,
  action,
  posted,
}: {
  defaultUrl: string;
  /** The page's own path, whose action runs the check without JavaScript. */
  action: string;
  /** What a post without JavaScript came to: the address sent and its result, if it ran. */
  posted: { url: string; result: TlsCheckResult | null } | null;
}) {
  const hydrated = useHydrated();
  const [checking, setChecking] = useState(false);
  const [checked, setChecked] = useState<TlsCheckResult | null>(null);
  const result = checked ?? posted?.result ?? null;

  async function runCheck(url: string) {
    setChecking(true);
    try {
      const response = await sendJson(TLS_CHECK_API, "POST", { url });
      if (!response.ok) {
        failed(await failureMessage(response));
        return;
      }
      const body: unknown = await response.json();
      if (!isTlsResult(body)) {
        failed(`${response.status}: unexpected answer`);
        return;
      }
      setChecked(body);
      if (body.error) failed(tlsSummaryText(body));
      else toast({ title: TLS_TEXT.complete, description: tlsSummaryText(body) });
    } catch {
      failed(NETWORK_ERROR);
    } finally {
      setChecking(false);
    }
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (checking) return;
    const url = String(new FormData(event.currentTarget).get("url") ?? "").trim();
    if (!url) {
      failed(TLS_TEXT.urlRequired);
      return;
    }
    void runCheck(url);
  }

  return (
    <section
      id="tls-check"
      aria-labelledby="tls-heading"
      className="rounded-xl border border-line bg-white p-6 shadow-sm"
      data-testid="tls-card"
    >
      <h2 id="tls-heading" className="text-xl font-semibold">
        {TLS_TEXT.heading}
      </h2>
      <p className="mt-1 text-ink-muted">
        The certificate (names, issuer, dates, key, whether it is trusted) and the TLS versions the server
        accepts. Findings also join every security audit of an https site.
      </p>
      <Form
        method="post"
        action={action}
        noValidate
        onSubmit={hydrated ? onSubmit : undefined}
        className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end"
      >
        <div className="grid flex-1 gap-1.5">
          <label htmlFor="tls-url" className="font-semibold">
            {TLS_TEXT.urlLabel}
          </label>
          <UrlInput id="tls-url" name="url" defaultValue={posted?.url ?? defaultUrl} />
        </div>
        <Button
          type="submit"
          name="intent"
          value="tls"
          variant="outline"
          aria-disabled={checking || undefined}
          aria-busy={checking || undefined}
          className="aria-disabled:cursor-progress aria-disabled:opacity-70"
        >
          {checking ? TLS_TEXT.checkingTls : TLS_TEXT.checkTls}
        </Button>
      </Form>
      {result ? <TlsResult result={result} /> : null}
    </section>
  );
}
