import { isPlainClick } from "#app/lib/plain-click.ts";

// SPEC section 2 (/investor-deck): the presentation opens in a new tab; when the browser blocks the
// new tab, it opens in this one. Links marked `data-new-tab` (with target="_blank", which is what
// they do without JavaScript).

export function enhanceNewTabLinks(root: ParentNode) {
  for (const link of root.querySelectorAll<HTMLAnchorElement>("a[data-new-tab]")) {
    link.addEventListener("click", (event) => {
      if (!isPlainClick(event)) return;
      event.preventDefault();
      // NOTE: window.open(url, "_blank", "noopener") always returns null (HTML spec), which would
      // make every click also navigate this tab; the opener link is cut on the new window instead.
      const opened = window.open(link.href, "_blank");
      if (opened) opened.opener = null;
      else window.location.assign(link.href);
    });
  }
}
