import type { StaffMember } from "../lead-admin.server.ts";
import type { Lead } from "../lead-repository.server.ts";
import { ReturningBadge, SpamLevelBadge, TypeBadge } from "./lead-badges.tsx";
import { StatusBadge } from "./status-badge.tsx";

/** The top of a lead's page: what kind of request, whose, and where it stands. */
export function LeadHeader({
  lead,
  owner,
}: {
  lead: Pick<Lead, "id" | "requestType" | "fullName" | "status" | "type" | "spamLevel" | "spamReasons"> & {
    returning: boolean;
  };
  owner: StaffMember | null;
}) {
  return (
    <div>
      <p className="text-sm font-semibold tracking-wider text-ink-muted uppercase">
        {lead.requestType === "investor" ? "Investor interest" : "Demo request"} #{lead.id}
      </p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight break-words">{lead.fullName}</h1>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <StatusBadge status={lead.status} />
        <TypeBadge type={lead.type} />
        {lead.returning ? <ReturningBadge /> : null}
        <SpamLevelBadge level={lead.spamLevel} reasons={lead.spamReasons} />
        <span className="text-sm text-ink-muted">
          Owner: {owner ? `${owner.username}${owner.disabled ? " (disabled)" : ""}` : "unassigned"}
        </span>
      </div>
    </div>
  );
}
