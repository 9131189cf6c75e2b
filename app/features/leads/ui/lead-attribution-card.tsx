import type { ReactNode } from "react";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import { DASHBOARD_PATH } from "#app/lib/admin-paths.ts";
import { channelSlug, type LeadAttribution } from "#app/lib/attribution.ts";
import { formatDuration, listHref } from "./lead-list-url.ts";

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 border-t border-line py-3 sm:grid-cols-3 sm:gap-4">
      <dt className="font-semibold">{label}</dt>
      <dd className="break-words sm:col-span-2">{children}</dd>
    </div>
  );
}

const none = <span className="text-ink-muted">—</span>;
const text = (value: string | null) => value ?? none;

/**
 * Where the lead's visit came from (issue 12): the visitor's first page view of that day, the UTM
 * values it carried and the channel they make, or "Unknown" when no visit could be linked.
 */
export function LeadAttributionCard({ attribution }: { attribution: LeadAttribution }) {
  if (attribution.status === "pending") {
    return (
      <SectionCard id="attribution-heading" title="Attribution">
        <p className="mt-4 text-ink-muted">
          Linking this lead to its visit: the page views of the last seconds are still being written. Reload
          in a few seconds.
        </p>
      </SectionCard>
    );
  }
  const { channel } = attribution;
  return (
    <SectionCard id="attribution-heading" title="Attribution">
      <dl className="mt-4">
        <Detail label="Channel">
          {channel ? (
            <a
              className="text-brand underline underline-offset-2"
              href={listHref(DASHBOARD_PATH, { channel: channelSlug(channel) })}
            >
              {channel}
            </a>
          ) : (
            none
          )}
          {attribution.status === "unknown" ? (
            <span className="mt-1 block text-sm text-ink-muted">
              No page view of this visitor could be linked to the lead (a visitor who opted out of counting,
              an integration, another day or network).
            </span>
          ) : null}
        </Detail>
        {attribution.status === "linked" ? (
          <>
            <Detail label="Landing page">{text(attribution.landingPage)}</Detail>
            <Detail label="Referrer">{text(attribution.referrer)}</Detail>
            <Detail label="Campaign">
              {attribution.utmCampaign ? (
                <a
                  className="text-brand underline underline-offset-2"
                  href={listHref(DASHBOARD_PATH, { campaign: attribution.utmCampaign })}
                >
                  {attribution.utmCampaign}
                </a>
              ) : (
                none
              )}
            </Detail>
            <Detail label="UTM source">{text(attribution.utmSource)}</Detail>
            <Detail label="UTM medium">{text(attribution.utmMedium)}</Detail>
            <Detail label="UTM term">{text(attribution.utmTerm)}</Detail>
            <Detail label="UTM content">{text(attribution.utmContent)}</Detail>
            <Detail label="Pages before submitting">{attribution.pagesBeforeSubmit ?? none}</Detail>
            <Detail label="Time from landing to submission">
              {attribution.secondsToSubmit === null
                ? none
                : formatDuration(attribution.secondsToSubmit * 1000)}
            </Detail>
          </>
        ) : null}
      </dl>
    </SectionCard>
  );
}
