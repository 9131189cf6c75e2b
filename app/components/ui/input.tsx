import type { ComponentProps } from "react";
import { cn } from "#app/lib/cn.ts";

/**
 * Shared by text inputs and text areas. The border (ink-muted on white, 7.6:1) meets the 3:1 that
 * WCAG asks of a control's boundary; an invalid control gets a thicker red border as well as its
 * message, so the state never rests on colour alone.
 */
export const textControlClass =
  "block w-full rounded-md border border-ink-muted bg-white px-3 text-base text-ink placeholder:text-slate-500 focus-visible:border-brand focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-brand aria-invalid:border-2 aria-invalid:border-danger disabled:cursor-not-allowed disabled:border-line disabled:bg-surface-muted";

/** A native input at the 44 px touch-target height. */
export function Input({ className, type = "text", ...props }: ComponentProps<"input">) {
  return <input type={type} className={cn(textControlClass, "h-11", className)} {...props} />;
}
