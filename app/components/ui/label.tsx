import type { ComponentProps } from "react";
import { cn } from "#app/lib/cn.ts";

export function Label({
  className,
  htmlFor,
  children,
  ...props
}: ComponentProps<"label"> & { htmlFor: string }) {
  return (
    <label htmlFor={htmlFor} className={cn("block font-semibold text-ink", className)} {...props}>
      {children}
    </label>
  );
}
