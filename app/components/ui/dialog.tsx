import { Dialog as DialogPrimitive } from "radix-ui";
import type { ComponentProps, ReactNode } from "react";
import { cn } from "#app/lib/cn.ts";

// A dialog that shows something (Radix Dialog): focus is trapped inside and returns to the button
// that opened it; Escape, a click outside, the × button and the Close button all close it. Tall
// content scrolls inside the dialog, which never grows past the viewport (a 375 px phone included).

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export function DialogContent({
  title,
  description,
  children,
  footer,
  className,
  ...props
}: Omit<ComponentProps<typeof DialogPrimitive.Content>, "title"> & {
  title: ReactNode;
  description: ReactNode;
  children: ReactNode;
  /** Buttons under the scrolling body (a Close button is added after them). */
  footer?: ReactNode;
}) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-ink/60" />
      <DialogPrimitive.Content
        className={cn(
          "fixed top-1/2 left-1/2 z-50 flex max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white shadow-xl focus:outline-none",
          className,
        )}
        {...props}
      >
        <div className="flex items-start justify-between gap-4 border-b border-line px-6 pt-5 pb-4">
          <div className="min-w-0">
            <DialogPrimitive.Title className="text-lg font-semibold text-ink">{title}</DialogPrimitive.Title>
            <DialogPrimitive.Description className="mt-1 text-sm leading-6 break-words text-ink-muted">
              {description}
            </DialogPrimitive.Description>
          </div>
          <DialogPrimitive.Close
            aria-label="Close dialog"
            className="-mt-1 -mr-2 inline-flex size-11 shrink-0 items-center justify-center rounded-md text-2xl leading-none text-ink-muted hover:bg-surface-muted hover:text-ink focus-visible:outline-3 focus-visible:outline-offset-2"
          >
            <span aria-hidden="true">×</span>
          </DialogPrimitive.Close>
        </div>
        <div className="min-h-0 flex-1 overflow-y-auto px-6 py-4">{children}</div>
        <div className="flex flex-wrap justify-end gap-3 border-t border-line px-6 py-4">
          {footer}
          <DialogPrimitive.Close className="inline-flex h-11 items-center justify-center rounded-md border border-brand bg-white px-5 font-semibold text-brand hover:bg-brand-soft focus-visible:outline-3 focus-visible:outline-offset-2">
            Close
          </DialogPrimitive.Close>
        </div>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}
