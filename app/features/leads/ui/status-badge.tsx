import { cn } from "#app/lib/cn.ts";
import { statusBadgeClass, statusLabel } from "./lead-format.ts";

export function StatusBadge({ status }: { status: string }) {
  return (
    <span
      data-status={status}
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap",
        statusBadgeClass(status),
      )}
    >
      {statusLabel(status)}
    </span>
  );
}
