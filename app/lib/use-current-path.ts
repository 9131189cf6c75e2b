import { useLocation } from "react-router";

/**
 * The current pathname without a trailing slash. NOTE: React Router prerenders `/features` by
 * requesting `/features/`, while visitors load `/features`; anything that renders differently per
 * page must compare normalised paths, or the static HTML and the hydrated page disagree.
 */
export function useCurrentPath(): string {
  const { pathname } = useLocation();
  return normalizePath(pathname);
}

export function normalizePath(pathname: string): string {
  return pathname.length > 1 ? pathname.replace(/\/+$/, "") || "/" : pathname;
}
