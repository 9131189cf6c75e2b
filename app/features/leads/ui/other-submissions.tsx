import { Link } from "react-router";
import { SectionCard } from "#app/components/back-office/section-card.tsx";
import type { OtherSubmission } from "../lead-contacts.server.ts";
import { LeadKindBadge, SpamLevelBadge } from "./lead-badges.tsx";
import { StatusBadge } from "./status-badge.tsx";

/** The person's other requests (the same email), each a link to its own page. */
export function OtherSubmissions({
  email,
  others,
}: {
  email: string;
  others: (OtherSubmission & { created: string })[];
}) {
  return (
    <SectionCard id="others-heading" title="Other submissions">
      {others.length === 0 ? (
        <p className="mt-2 text-ink-muted">None: this is the first request from {email}.</p>
      ) : (
        <ul className="mt-3 grid gap-3">
          {others.map((other) => (
            <li key={other.id} className="grid gap-1 border-t border-line pt-3 first:border-0 first:pt-0">
              <Link
                to={`/admin/leads/${other.id}`}
                className="font-semibold break-words text-brand underline underline-offset-2"
              >
                #{other.id} {other.fullName}
              </Link>
              <span className="text-sm text-ink-muted">
                {other.company} · {other.created}
              </span>
              <span className="flex flex-wrap gap-1">
                <LeadKindBadge type={other.type} origin={other.origin} />
                <StatusBadge status={other.status} />
                {other.isSpam ? <SpamLevelBadge level="held" reasons={[]} /> : null}
              </span>
            </li>
          ))}
        </ul>
      )}
    </SectionCard>
  );
}
