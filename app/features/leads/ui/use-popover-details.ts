import { useEffect } from "react";

/** The attribute that marks a <details> shown as a floating panel (Filters, Save view). */
export const POPOVER_DETAILS = "data-popover";

/**
 * With JavaScript, a <details> panel marked POPOVER_DETAILS closes as a menu does: on Escape, and on
 * a click outside it. Without JavaScript it stays the browser's own disclosure (its summary closes it).
 */
export function usePopoverDetails() {
  useEffect(() => {
    const open = () => [
      ...document.querySelectorAll<HTMLDetailsElement>(`details[${POPOVER_DETAILS}][open]`),
    ];
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape") return;
      for (const details of open()) {
        details.open = false;
        details.querySelector("summary")?.focus();
      }
    }
    function onClick(event: MouseEvent) {
      for (const details of open()) if (!details.contains(event.target as Node)) details.open = false;
    }
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("click", onClick);
    };
  }, []);
}
