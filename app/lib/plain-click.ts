/**
 * A primary-button click without modifier keys. Scripts that take over a link's click leave the
 * others (new tab, new window, download) to the browser.
 */
export function isPlainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}
