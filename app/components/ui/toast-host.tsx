import { createRoot } from "react-dom/client";
import { type ToastInput, toast } from "./toast-store.ts";
import { Toaster } from "./toaster.tsx";

// Toasts on the public pages, which React Router does not hydrate (ADR 013): the same Toaster as
// the back office's root, in a React root of its own at the end of <body>. The form islands mount it
// when they hydrate; other pages load this module with their first toast.

let mounted = false;

export function mountToaster() {
  if (mounted) return;
  mounted = true;
  const container = document.createElement("div");
  document.body.append(container);
  createRoot(container).render(<Toaster />);
}

export function showToast(input: ToastInput) {
  mountToaster();
  toast(input);
}
