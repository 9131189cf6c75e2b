import type { ToastInput } from "#app/components/ui/toast-store.ts";
import { isPlainClick } from "#app/lib/plain-click.ts";

// What the article's share card (share-card.tsx) does in the browser.

/**
 * The popup of SPEC section 7 (sizes vary there; 550x400 is the one it names). NOTE: with `noopener`,
 * window.open always returns null.
 */
export const SHARE_POPUP_FEATURES = "width=550,height=400,noopener";

/** SPEC section 7: a plain click opens the network's share page in a 550x400 popup. */
function openPopup(this: HTMLAnchorElement, event: MouseEvent) {
  if (!isPlainClick(event)) return;
  event.preventDefault();
  window.open(this.href, "share", SHARE_POPUP_FEATURES);
}

const COPIED: ToastInput = {
  title: "Link copied",
  description: "The article's address is on your clipboard, ready to paste.",
};
const NOT_COPIED: ToastInput = {
  title: "Could not copy the link",
  description: "Your browser blocked the clipboard. Copy the address from the address bar instead.",
  variant: "destructive",
};

async function copyLink(url: string) {
  // Asked for before anything is awaited: the clipboard needs the click's user activation.
  const copied = navigator.clipboard?.writeText(url).then(
    () => true,
    () => false,
  );
  const ok = (await copied) ?? false;
  // The toasts are React (the same as the forms' and the back office's), loaded with the first one.
  const { showToast } = await import("#app/components/ui/toast-host.tsx");
  showToast(ok ? COPIED : NOT_COPIED);
}

export function enhanceShareCard(root: ParentNode) {
  for (const link of root.querySelectorAll<HTMLAnchorElement>("a[data-share-popup]"))
    link.addEventListener("click", openPopup);
  for (const item of root.querySelectorAll<HTMLElement>("[data-copy-link]")) {
    const url = item.dataset.copyLink ?? "";
    item.querySelector("button")?.addEventListener("click", () => void copyLink(url));
    item.hidden = false;
  }
}
