import type { ComponentProps } from "react";
import { cn } from "#app/lib/cn.ts";
import { textControlClass } from "./input.tsx";

/**
 * A native select: it posts with the form when JavaScript is off, and phones show their own picker.
 * `compact` fits a table row (36 px) instead of the 44 px touch-target height.
 */
export function NativeSelect({
  className,
  compact = false,
  ...props
}: ComponentProps<"select"> & { compact?: boolean }) {
  return (
    <select
      className={cn(textControlClass, compact ? "h-9 text-sm" : "h-11", "pr-8", className)}
      {...props}
    />
  );
}
