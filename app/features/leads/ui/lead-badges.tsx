import { cn } from "#app/lib/cn.ts";
import type { LeadOrigin } from "#app/lib/lead-origin.ts";

// Small marks beside a lead's name: a returning person, a lead the spam filter asks staff to look
// at, a lead held as spam. Text, not colour alone, says what each means.

const base = "inline-flex items-center rounded px-1.5 py-0.5 text-xs font-semibold whitespace-nowrap";

export function ReturningBadge() {
  return (
    <span
      className={cn(base, "bg-indigo-100 text-indigo-900")}
      title="This person has sent an earlier request"
    >
      Returning
    </span>
  );
}

export function SpamLevelBadge({
  level,
  reasons,
}: {
  level: "clean" | "review" | "held";
  reasons: string[];
}) {
  if (level === "clean") return null;
  const title = reasons.length > 0 ? reasons.join("\n") : undefined;
  return level === "held" ? (
    <span className={cn(base, "bg-red-100 text-red-900")} title={title}>
      Spam
    </span>
  ) : (
    <span className={cn(base, "bg-amber-100 text-amber-900")} title={title}>
      Review
    </span>
  );
}

export function TypeBadge({ type }: { type: "demo" | "investor" }) {
  return type === "investor" ? (
    <span className={cn(base, "bg-violet-100 text-violet-900")}>Investor</span>
  ) : (
    <span className={cn(base, "bg-sky-100 text-sky-900")}>Demo</span>
  );
}

/**
 * The kind of lead (issue 32): "Demo" or "Investor" for a request the person sent, "Imported" or
 * "Added by staff" for a lead staff brought in (its stored type is only the default).
 */
export function LeadKindBadge({ type, origin }: { type: "demo" | "investor"; origin: LeadOrigin }) {
  if (origin === "imported") return <span className={cn(base, "bg-slate-200 text-slate-900")}>Imported</span>;
  if (origin === "added_by_staff")
    return <span className={cn(base, "bg-slate-200 text-slate-900")}>Added by staff</span>;
  return <TypeBadge type={type} />;
}
