import { cn } from "#app/lib/cn.ts";
import type { Severity } from "../audit-types.ts";
import { SCORE_BAND_CLASS, SEVERITY_CLASS, scoreBand, severityLabel } from "./audit-format.ts";

/** The score as a number on its band's colour (SPEC section 9); the number carries the meaning. */
export function ScoreBadge({ score, className }: { score: number; className?: string }) {
  const band = scoreBand(score);
  return (
    <span
      data-band={band}
      className={cn(
        "inline-flex min-w-12 items-center justify-center rounded-full px-2.5 py-0.5 text-sm font-bold tabular-nums",
        SCORE_BAND_CLASS[band],
        className,
      )}
    >
      {score}
    </span>
  );
}

/** Critical and high in the destructive colour (SPEC section 9), the level always written out. */
export function SeverityBadge({ severity }: { severity: Severity }) {
  return (
    <span
      data-severity={severity}
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap",
        SEVERITY_CLASS[severity] ?? SEVERITY_CLASS.info,
      )}
    >
      {severityLabel(severity)}
    </span>
  );
}
