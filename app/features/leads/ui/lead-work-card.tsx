import { SectionCard } from "#app/components/back-office/section-card.tsx";
import type { StaffMember } from "../lead-admin.server.ts";
import type { Lead } from "../lead-repository.server.ts";
import { LeadNextStepForm, type NextStepView } from "./lead-next-step-form.tsx";
import { LeadOwnerForm } from "./lead-owner-form.tsx";
import { LeadSpamForm } from "./lead-spam-form.tsx";
import { LeadStatusControl } from "./lead-status-control.tsx";

/**
 * The controls sales use on a lead: its status, its owner, its next step and the spam verdict, each
 * posting to `action`. First on the page (at the top on a phone).
 */
export function LeadWorkCard({
  lead,
  staff,
  action,
  nextStep,
  nextStepError,
}: {
  lead: Pick<Lead, "id" | "fullName" | "status" | "ownerId" | "spamLevel" | "isSpam">;
  staff: StaffMember[];
  action: string;
  nextStep: NextStepView | null;
  nextStepError?: string;
}) {
  return (
    <SectionCard id="work-heading" title="Work this lead">
      <div className="mt-4 grid gap-5">
        <div className="grid gap-1.5">
          <p className="font-semibold">Status</p>
          <LeadStatusControl lead={lead} action={action} />
        </div>
        <LeadOwnerForm ownerId={lead.ownerId} staff={staff} action={action} />
        <LeadNextStepForm step={nextStep} action={action} error={nextStepError} />
        <LeadSpamForm lead={lead} action={action} />
      </div>
    </SectionCard>
  );
}
