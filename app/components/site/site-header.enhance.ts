import { backOfficeLinkFor, hasAdminHint } from "#app/lib/admin-hint.ts";

// What the site header does in the browser (SPEC section 1), on every public page: the markup is
// site-header.tsx.

/** The spec's 768 px mobile breakpoint, Tailwind's `md`. */
const DESKTOP_QUERY = "(min-width: 768px)";

/** The mobile menu closes on scroll, on a link click, on Escape and when the viewport widens. */
export function enhanceMobileMenu(root: ParentNode) {
  const menu = root.querySelector<HTMLDetailsElement>("details[data-mobile-menu]");
  if (!menu) return;
  const close = () => {
    menu.open = false;
  };
  const desktop = window.matchMedia(DESKTOP_QUERY);
  const onWiden = (event: MediaQueryListEvent) => {
    if (event.matches) close();
  };
  // Listened to all the time, not from the `toggle` event on: that event comes a task after the menu
  // opens, and an Escape pressed in between was lost.
  const onKey = (event: KeyboardEvent) => {
    if (event.key !== "Escape" || !menu.open) return;
    // Focus inside the menu would be lost with it: it goes back to the button that opened it.
    if (menu.contains(document.activeElement)) menu.querySelector("summary")?.focus();
    close();
  };
  window.addEventListener("keydown", onKey);
  menu.addEventListener("toggle", () => {
    if (menu.open) {
      window.addEventListener("scroll", close, { passive: true });
      desktop.addEventListener("change", onWiden);
    } else {
      window.removeEventListener("scroll", close);
      desktop.removeEventListener("change", onWiden);
    }
  });
  menu.addEventListener("click", (event) => {
    if (event.target instanceof Element && event.target.closest("a")) close();
  });
}

/**
 * A signed-in admin also sees an Admin link (and a marketer one to their part of the back office).
 * Decided by the server (GET /api/user), never by what the browser stores; only browsers with the
 * sign-in hint cookie ask.
 */
export function revealAdminLink(root: ParentNode) {
  const items = root.querySelectorAll<HTMLElement>("[data-admin-link]");
  if (items.length === 0 || !hasAdminHint(document.cookie)) return;
  void backOfficeLinkFor().then((href) => {
    if (!href) return;
    for (const item of items) {
      item.querySelector("a")?.setAttribute("href", href);
      item.hidden = false;
    }
  });
}
