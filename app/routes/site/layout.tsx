import { Outlet } from "react-router";
import { SiteFooter } from "#app/components/site/site-footer.tsx";
import { SiteHeader } from "#app/components/site/site-header.tsx";

export default function SiteLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      {/* NOTE: the Admin link seam — the admin issue passes the server-checked session here. */}
      <SiteHeader showAdminLink={false} />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
