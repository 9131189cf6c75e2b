import { Toast as ToastPrimitive } from "radix-ui";
import { cn } from "#app/lib/cn.ts";
import { removeToast, TOAST_DURATION_MS, TOAST_SWIPE_THRESHOLD_PX, type ToastItem } from "./toast-store.ts";

/** Radix toasts: z-index 100, viewport at most 420 px wide from medium screens up (SPEC section 9). */
export default function ToastView({ items }: { items: ToastItem[] }) {
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={TOAST_SWIPE_THRESHOLD_PX}
    >
      {items.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          defaultOpen
          onOpenChange={(open) => {
            if (!open) removeToast(item.id);
          }}
          className={cn(
            "pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border p-4 pr-10 shadow-lg",
            "data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=cancel]:translate-x-0 data-[swipe=end]:translate-x-(--radix-toast-swipe-end-x)",
            item.variant === "destructive"
              ? "border-danger bg-danger text-white"
              : "border-line bg-white text-ink",
          )}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{item.title}</ToastPrimitive.Title>
            {item.description ? (
              <ToastPrimitive.Description className="text-sm">{item.description}</ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close
            aria-label="Close notification"
            className="absolute top-2 right-2 rounded-md px-2 py-1 text-current"
          >
            <span aria-hidden="true">×</span>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      {/* At the bottom: a toast never covers the page header's Logout button (issue 10). */}
      <ToastPrimitive.Viewport className="fixed right-0 bottom-0 z-100 flex max-h-screen w-full flex-col gap-2 p-4 outline-none md:max-w-[420px]" />
    </ToastPrimitive.Provider>
  );
}
