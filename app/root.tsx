import { type ReactNode, useEffect } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useMatches,
} from "react-router";
import { Toaster } from "#app/components/ui/toaster.tsx";
import { pageTitle } from "#app/features/content/meta.ts";
import { databaseUnavailableMiddleware } from "#app/lib/database-unavailable.server.ts";
import { islandsOf, wantsHydration } from "#app/lib/page-scripts.ts";
import { InlineStylesheet, PageScripts, usePublicDocumentAssets } from "#app/lib/public-document.tsx";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";

// Every route, pages and resource routes alike: a database that cannot serve answers 503, not 500.
export const middleware: Route.MiddlewareFunction[] = [databaseUnavailableMiddleware];

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
  { rel: "alternate", type: "application/rss+xml", title: "Blog", href: "/rss.xml" },
];

export function Layout({ children }: { children: ReactNode }) {
  // ADR 013: React Router hydrates only the pages whose route asks for it (the back office, whose
  // layout's handle says `hydrate`). Public pages are static HTML with their stylesheet inline, one
  // small enhancement script and, on the form pages, the form as an island. In the browser there is
  // no public document (only the back office is ever hydrated), so it always takes the first branch.
  const handles = useMatches().map((match) => match.handle);
  const publicDocument = usePublicDocumentAssets();
  const hydrate = wantsHydration(handles) || !publicDocument;
  return (
    <html lang="en-GB">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#12355b" />
        <Meta />
        <Links />
        {hydrate ? (
          <link rel="stylesheet" href={stylesheet} />
        ) : (
          <InlineStylesheet css={publicDocument.stylesheet} />
        )}
      </head>
      <body className="min-h-screen bg-surface font-sans text-ink antialiased">
        <a
          href="#main"
          className="sr-only z-200 rounded-md bg-brand px-4 py-2 font-semibold text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2"
        >
          Skip to main content
        </a>
        {children}
        {hydrate ? (
          <>
            <ScrollRestoration />
            <Scripts />
          </>
        ) : (
          <PageScripts
            scripts={publicDocument.scripts}
            islands={islandsOf(handles)}
            nonce={publicDocument.nonce}
          />
        )}
      </body>
    </html>
  );
}

export default function App() {
  // A marker for tests and monitoring: the page is interactive once React has hydrated it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  );
}

/** Last-resort boundary: a route's own boundary (404 page, unknown article) normally answers first. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const heading = notFound ? "404 Page Not Found" : "Something went wrong";
  // On the server, entry.server's handleError has logged the real error already (this one is sanitised).
  if (!notFound && !isRouteErrorResponse(error) && typeof document !== "undefined") console.error(error);
  return (
    <main id="main" className="mx-auto max-w-2xl px-6 py-24 text-center">
      <title>{pageTitle(heading)}</title>
      <h1 className="text-3xl font-bold">{heading}</h1>
      <p className="mt-4 text-ink-muted">
        {notFound
          ? "Did you forget to add the page to the router?"
          : "An unexpected error occurred. Please try again in a moment."}
      </p>
      <a className="mt-8 inline-block font-semibold text-brand underline" href="/">
        Return to Homepage
      </a>
    </main>
  );
}
