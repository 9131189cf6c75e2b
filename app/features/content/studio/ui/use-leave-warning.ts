import { type RefObject, useEffect } from "react";
import { useBlocker } from "react-router";

// Leaving the editor with unsaved changes asks first (issue 24): closing or reloading the tab (the
// browser's own question, on beforeunload) and following a link inside the back office (React
// Router's blocker, answered by the page's dialog). The editor's own posts stay on its address, so
// they are never stopped; `allow` lets the editor move itself (a new draft taking its address).

export function useLeaveWarning(dirty: boolean, allow: RefObject<boolean>) {
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the question only when a value is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [dirty]);

  return useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !allow.current && currentLocation.pathname !== nextLocation.pathname,
  );
}
