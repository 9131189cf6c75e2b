// Whether React runs the page in the browser yet: forms and controls render their no-JavaScript
// form first (server render and hydration), their scripted one after.
import { useSyncExternalStore } from "react";

const subscribeNever = () => () => {};

/** False in the server's render and during hydration, true once the script runs the page. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
