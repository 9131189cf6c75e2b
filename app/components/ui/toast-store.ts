// SPEC section 9: one toast visible at a time, 5000 ms, swipe right past 50 px dismisses.
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;

export type ToastVariant = "default" | "destructive";
export type ToastInput = { title: string; description?: string; variant?: ToastVariant };
export type ToastItem = ToastInput & { id: number; open: boolean };

let toasts: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();

function emit(next: ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

/** Shows a toast; a newer toast replaces the one on screen (SPEC: one visible at a time). */
export function toast(input: ToastInput): number {
  const id = nextId++;
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return id;
}

export function dismissToast(id: number) {
  emit(toasts.map((item) => (item.id === id ? { ...item, open: false } : item)));
}

export function removeToast(id: number) {
  emit(toasts.filter((item) => item.id !== id));
}

export function subscribeToToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getToasts(): ToastItem[] {
  return toasts;
}
