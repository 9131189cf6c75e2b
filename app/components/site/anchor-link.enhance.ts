import { isPlainClick } from "#app/lib/plain-click.ts";

// SPEC section 1: 'Request Demo' scrolls to the demo section on the current page when it has one
// (the /demo page), or else goes to the home page's. On the home page a `/#id` link is the same
// document and CSS does the scrolling (app.css); this covers the one case CSS cannot.

export function enhanceAnchorLinks(root: Document) {
  root.addEventListener("click", (event) => {
    if (event.defaultPrevented || !isPlainClick(event) || !(event.target instanceof Element)) return;
    const link = event.target.closest<HTMLAnchorElement>('a[href^="/#"]');
    if (!link) return;
    const url = new URL(link.href);
    if (url.pathname === window.location.pathname) return;
    const target = document.getElementById(decodeURIComponent(url.hash.slice(1)));
    if (!target) return;
    event.preventDefault();
    // A fragment navigation within this page: the browser scrolls as for any anchor (smoothly,
    // 80 px below the top) and keyboard navigation continues from the section.
    if (window.location.hash === url.hash) target.scrollIntoView();
    else window.location.hash = url.hash;
  });
}
