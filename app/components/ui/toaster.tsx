import { lazy, Suspense, useEffect, useState, useSyncExternalStore } from "react";
import { getToasts, subscribeToToasts, type ToastItem } from "./toast-store.ts";

// The Radix toast code loads with the first toast, so pages that never raise one do not ship it.
const ToastView = lazy(() => import("./toast-view.tsx"));

const noToasts: ToastItem[] = [];

/** Mounted once in the root; renders what `toast()` raises. */
export function Toaster() {
  const items = useSyncExternalStore(subscribeToToasts, getToasts, () => noToasts);
  const [used, setUsed] = useState(false);
  useEffect(() => {
    if (items.length > 0) setUsed(true);
  }, [items.length]);
  if (!used && items.length === 0) return null;
  return (
    <Suspense fallback={null}>
      <ToastView items={items} />
    </Suspense>
  );
}
