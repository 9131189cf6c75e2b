import { createContext, type RouterContext, type RouterContextProvider } from "react-router";

// How a request handler reaches what lives longer than a request (issue 23). Each feature declares
// the small set of services it needs and a key for them (e.g. features/leads/leads-context.server.ts);
// the composition root (composition/services.server.ts, beside server/) builds them once and puts
// them into every request's context. Features thus import downwards only: their own key, defined in
// their own folder, and this module. Nothing here knows any feature.

type Context = Readonly<RouterContextProvider>;

/** One feature's services in the request context, with a name for the error when they are missing. */
export type ServiceKey<T> = { readonly context: RouterContext<T | null>; readonly name: string };

export function createServiceKey<T>(name: string): ServiceKey<T> {
  return { context: createContext<T | null>(null), name };
}

/** A key with the value the composition root provides for it. */
export type ProvidedServices = readonly (readonly [ServiceKey<unknown>, unknown])[];

/** The client's address as the server sees it (after TRUST_PROXY), for rate limiting and the access log. */
export const clientAddressContext = createContext<string>("unknown");

let fallback: (() => Promise<ProvidedServices>) | undefined;

/**
 * Where services come from when no server put them into the context: under `react-router dev` there
 * is no server.ts, so the composition root registers a factory that creates them once.
 */
export function provideFallbackServices(create: () => Promise<ProvidedServices>): void {
  fallback = create;
}

/** Puts the services into a request's context: server.ts calls it (through the root) per request. */
export function provideServices(context: RouterContextProvider, provided: ProvidedServices): void {
  for (const [key, value] of provided) context.set(key.context, value);
}

/** The feature's services for this request. */
export async function servicesOf<T>(context: Context, key: ServiceKey<T>): Promise<T> {
  const provided = context.get(key.context);
  if (provided) return provided;
  if (!fallback) throw new Error(`No ${key.name} in the request context, and no composition root loaded.`);
  const entry = (await fallback()).find(([candidate]) => candidate === key);
  if (!entry) throw new Error(`The composition root provides no ${key.name}.`);
  return entry[1] as T;
}
