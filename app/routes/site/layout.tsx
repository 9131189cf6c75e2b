import { Outlet } from "react-router";
import { SiteFooter } from "#app/components/site/site-footer.tsx";
import { SiteHeader } from "#app/components/site/site-header.tsx";
import { useSignedInAdmin } from "#app/lib/use-signed-in-admin.ts";

export default function SiteLayout() {
  // Decided by the server (GET /api/user), never by localStorage.
  const signedInAdmin = useSignedInAdmin();
  return (
    <div className="flex min-h-screen flex-col">
      <SiteHeader showAdminLink={signedInAdmin} />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        <Outlet />
      </main>
      <SiteFooter />
    </div>
  );
}
