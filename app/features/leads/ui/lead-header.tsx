import type { ReactNode } from "react";
import type { LeadOrigin } from "#app/lib/lead-origin.ts";
import type { StaffMember } from "../lead-admin.server.ts";
import type { Lead } from "../lead-repository.server.ts";
import { LeadKindBadge, ReturningBadge, SpamLevelBadge } from "./lead-badges.tsx";
import { leadKindLabel } from "./lead-format.ts";
import { StatusBadge } from "./status-badge.tsx";

/** The top of a lead's page: what kind of lead (a request, an import...), whose, and where it stands. */
export function LeadHeader({
  lead,
  owner,
  actions,
}: {
  lead: Pick<Lead, "id" | "requestType" | "fullName" | "status" | "type" | "spamLevel" | "spamReasons"> & {
    returning: boolean;
    origin: LeadOrigin;
  };
  owner: StaffMember | null;
  /** The lead's menu (issue 35: edit, delete), beside its name. */
  actions?: ReactNode;
}) {
  return (
    <div>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold tracking-wider text-ink-muted uppercase">
            {leadKindLabel(lead.origin, lead.requestType)} #{lead.id}
          </p>
          <h1 className="mt-1 text-3xl font-bold tracking-tight break-words">{lead.fullName}</h1>
        </div>
        {actions}
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <StatusBadge status={lead.status} />
        <LeadKindBadge type={lead.type} origin={lead.origin} />
        {lead.returning ? <ReturningBadge /> : null}
        <SpamLevelBadge level={lead.spamLevel} reasons={lead.spamReasons} />
        <span className="text-sm text-ink-muted">
          Owner: {owner ? `${owner.username}${owner.disabled ? " (disabled)" : ""}` : "unassigned"}
        </span>
      </div>
    </div>
  );
}
