import { AlertDialog as AlertDialogPrimitive } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "#app/lib/cn.ts";

// A confirmation that must be answered (Radix AlertDialog): focus is trapped inside, Escape and the
// Cancel button close it, a click outside does not.

export const AlertDialog = AlertDialogPrimitive.Root;
export const AlertDialogTrigger = AlertDialogPrimitive.Trigger;
export const AlertDialogCancel = AlertDialogPrimitive.Cancel;

export function AlertDialogContent({
  title,
  description,
  children,
  className,
  ...props
}: Omit<ComponentProps<typeof AlertDialogPrimitive.Content>, "title"> & {
  title: ReactNode;
  description: ReactNode;
  /** The buttons, Cancel first. */
  children: ReactNode;
}) {
  return (
    <AlertDialogPrimitive.Portal>
      <AlertDialogPrimitive.Overlay className="fixed inset-0 z-50 bg-ink/60" />
      <AlertDialogPrimitive.Content
        className={cn(
          "fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none",
          className,
        )}
        {...props}
      >
        <AlertDialogPrimitive.Title className="text-lg font-semibold text-ink">
          {title}
        </AlertDialogPrimitive.Title>
        <AlertDialogPrimitive.Description className="mt-2 leading-6 text-ink-muted">
          {description}
        </AlertDialogPrimitive.Description>
        <div className="mt-6 flex flex-wrap justify-end gap-3">{children}</div>
      </AlertDialogPrimitive.Content>
    </AlertDialogPrimitive.Portal>
  );
}
