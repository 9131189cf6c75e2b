import { useEffect, useRef, useState } from "react";
import { Button } from "#app/components/ui/button.tsx";
import { useHydrated } from "#app/lib/use-hydrated.ts";

/**
 * The signing secret in the Standard Webhooks form (`whsec_` + base64 of the key), shown this once
 * (after creation or rotation): the page that answers the POST is the only place it ever appears.
 * Copy needs JavaScript; without it the text is selectable.
 */
export function SecretReveal({
  secret,
  reason,
  url,
}: {
  secret: string;
  reason: "created" | "rotated";
  url: string;
}) {
  const hydrated = useHydrated();
  const [copied, setCopied] = useState(false);
  const frame = useRef<HTMLElement>(null);
  // With JavaScript the post does not reload the page: bring the one-time secret into view (the
  // form that asked for it may be far below) and move focus there for screen readers.
  useEffect(() => {
    frame.current?.focus({ preventScroll: true });
    frame.current?.scrollIntoView({ block: "center" });
  }, []);
  return (
    <section
      ref={frame}
      tabIndex={-1}
      aria-labelledby="secret-heading"
      className="rounded-xl border-2 border-success bg-green-50 p-5 shadow-sm focus:outline-none"
    >
      <h2 id="secret-heading" className="text-lg font-semibold text-success">
        {reason === "created" ? "Webhook created" : "Secret rotated"}: copy the signing secret now
      </h2>
      <p className="mt-1 leading-6 break-words">
        For <span className="font-semibold">{url}</span>. It will not be shown again
        {reason === "rotated" ? "; the old secret no longer signs anything" : ""}. Your receiver uses it to
        verify each delivery: a Standard Webhooks library checks the{" "}
        <code className="text-sm">webhook-signature</code> header with the secret as shown, and the{" "}
        <code className="text-sm">X-Clausebridge-Signature</code> header is keyed with what follows{" "}
        <code className="text-sm">whsec_</code>, decoded from base64.
      </p>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <code
          data-testid="webhook-secret"
          className="min-w-0 basis-full rounded-md border border-line bg-white px-3 py-2 font-mono text-sm break-all select-all sm:flex-1 sm:basis-0"
        >
          {secret}
        </code>
        {hydrated ? (
          <Button
            type="button"
            variant="outline"
            size="sm"
            onClick={async () => {
              try {
                await navigator.clipboard.writeText(secret);
                setCopied(true);
              } catch {
                // Clipboard refused (permissions): the text stays selectable.
              }
            }}
          >
            {copied ? "Copied" : "Copy secret"}
          </Button>
        ) : null}
      </div>
    </section>
  );
}
