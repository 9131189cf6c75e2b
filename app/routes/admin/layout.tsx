import { Outlet, useMatches, useNavigation } from "react-router";
import { Logo } from "#app/components/site/logo.tsx";
import type { DocumentHandle } from "#app/lib/page-scripts.ts";

// The back office stays a React Router app, hydrated on every page (ADR 013).
export const handle: DocumentHandle = { hydrate: true };

/** Signed-in pages get their frame from the guarded layout's app shell (issue 23). */
const SHELL_ROUTE_ID = "routes/admin/guarded-layout";

/**
 * The frame of the pages before signing in (login, set password, the simple viewer): a slim header,
 * and a loading bar while the next page's data comes.
 */
export default function AdminLayout() {
  const navigation = useNavigation();
  const inShell = useMatches().some((match) => match.id === SHELL_ROUTE_ID);
  if (inShell) return <Outlet />;
  return (
    <div className="flex min-h-screen flex-col bg-surface-muted">
      <header className="border-b border-line bg-white">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
          <Logo />
          <p className="text-sm font-semibold text-ink-muted">Back office</p>
        </div>
      </header>
      {navigation.state === "loading" ? (
        <div role="status" className="fixed inset-x-0 top-0 z-50 h-1 animate-pulse bg-accent">
          <span className="sr-only">Loading…</span>
        </div>
      ) : null}
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
    </div>
  );
}
