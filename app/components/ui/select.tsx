import type { ComponentProps } from "react";
import { cn } from "#app/lib/cn.ts";
import { textControlClass } from "./input.tsx";

/**
 * A native select: it posts with the form when JavaScript is off, and phones show their own picker.
 * `compact` fits a table row (36 px) instead of the 44 px touch-target height.
 *
 * `placeholder` puts a first option with an empty value ("Choose a source") that cannot be chosen
 * back. NOTE: HTML allows `required` on a single select only when its first option is such a
 * placeholder (the Nu HTML Checker's error otherwise, issue 32): a select that always holds one of
 * its options cannot be left empty. Without a placeholder, `required` (which Field hands every
 * control) is said to assistive technology as `aria-required` and the server's check is the word.
 */
export function NativeSelect({
  className,
  compact = false,
  placeholder,
  required,
  children,
  ...props
}: ComponentProps<"select"> & { compact?: boolean; placeholder?: string }) {
  return (
    <select
      className={cn(textControlClass, compact ? "h-9 text-sm" : "h-11", "pr-8", className)}
      required={placeholder !== undefined ? required : undefined}
      aria-required={placeholder === undefined && required ? true : undefined}
      {...props}
    >
      {placeholder !== undefined ? (
        <option value="" disabled>
          {placeholder}
        </option>
      ) : null}
      {children}
    </select>
  );
}
