import { Outlet } from "react-router";
import { SiteFooter } from "#app/components/site/site-footer.tsx";
import { SiteHeader } from "#app/components/site/site-header.tsx";

// Public pages are static HTML (ADR 013): what the header and the rest do in the browser comes from
// app/entry.enhance.ts, and the forms are islands.
export default function SiteLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
