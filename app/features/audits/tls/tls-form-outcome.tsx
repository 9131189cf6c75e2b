import { Banner } from "#app/components/back-office/banner.tsx";
import type { TlsActionData } from "./tls-form.server.ts";
import { TLS_TEXT, tlsSummaryText } from "./tls-texts.ts";

/** What a TLS form post without JavaScript came to (the script shows the same as a toast). */
export function TlsFormOutcome({ outcome }: { outcome: TlsActionData }) {
  const failure =
    "refused" in outcome ? outcome.refused : outcome.tls.error ? tlsSummaryText(outcome.tls) : null;
  if (failure !== null)
    return (
      <Banner tone="error">
        <strong className="font-semibold">{TLS_TEXT.failed}.</strong> {failure}
      </Banner>
    );
  return (
    <Banner tone="success">
      <strong className="font-semibold">{TLS_TEXT.complete}.</strong>{" "}
      {"tls" in outcome ? tlsSummaryText(outcome.tls) : null}{" "}
      <a href="#tls-check" className="font-semibold underline underline-offset-2">
        See the result
      </a>
    </Banner>
  );
}
