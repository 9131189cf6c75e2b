/** SPEC section 9: anchors stop 80 px below the top so the sticky header never covers them. */
export const ANCHOR_OFFSET_PX = 80;

function prefersReducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/**
 * Scrolls to the element with `id`, 80 px below the top, smoothly unless the visitor asked for
 * reduced motion, and moves keyboard focus there. Returns false when the page has no such element.
 */
export function scrollToAnchor(id: string): boolean {
  const target = document.getElementById(id);
  if (!target) return false;
  const top = target.getBoundingClientRect().top + window.scrollY - ANCHOR_OFFSET_PX;
  window.scrollTo({ top, behavior: prefersReducedMotion() ? "auto" : "smooth" });
  if (window.location.hash !== `#${id}`) window.history.replaceState(window.history.state, "", `#${id}`);
  // Focus follows the scroll so keyboard and screen-reader users land in the section too.
  if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
  target.focus({ preventScroll: true });
  return true;
}
