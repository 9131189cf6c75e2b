import { createContext, type RouterContextProvider } from "react-router";

// What a request handler receives from the composition root (app/services.server.ts), defined here,
// low in the tree, so that features read their services from the request's context and import
// downwards only: they depend on this module, never on the root that imports them all. The root
// fills in the interface below (declaration merging) and puts the services into the context.

/** Everything a request handler needs that lives longer than a request: see app/services.server.ts. */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by app/services.server.ts (declaration merging).
export interface AppServices {}

// NOTE: server.ts reads these keys from the build (build.entry.module re-exports them) so that it
// sets the very objects the bundled routes read.
export const servicesContext = createContext<AppServices | null>(null);
/** The client's address as the server sees it (after TRUST_PROXY), for rate limiting. */
export const clientAddressContext = createContext<string>("unknown");

let fallback: (() => Promise<AppServices>) | undefined;

/**
 * Where services come from when no server put them into the context: under `react-router dev` there
 * is no server.ts, so the composition root registers a factory that creates them once.
 */
export function provideFallbackServices(create: () => Promise<AppServices>): void {
  fallback = create;
}

/** The services for this request. */
export function getServices(context: Readonly<RouterContextProvider>): Promise<AppServices> {
  const provided = context.get(servicesContext);
  if (provided) return Promise.resolve(provided);
  if (!fallback) throw new Error("No services in the request context, and no composition root loaded.");
  return fallback();
}
