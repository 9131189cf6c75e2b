import type { ComponentProps, ReactNode } from "react";
import { cn } from "#app/lib/cn.ts";

/**
 * A native checkbox inside its label, so the whole 44 px row is the touch target and the form posts
 * the usual name=value pairs without JavaScript.
 */
export function Checkbox({
  label,
  className,
  ...props
}: Omit<ComponentProps<"input">, "type"> & { label: ReactNode }) {
  return (
    <label className={cn("flex min-h-11 cursor-pointer items-center gap-3 text-ink", className)}>
      <input
        type="checkbox"
        className="size-5 shrink-0 cursor-pointer accent-brand focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand"
        {...props}
      />
      <span>{label}</span>
    </label>
  );
}
