import { clearLocalAdminFlags, storeAdminFlags } from "#app/features/auth/admin-flags.ts";
import { adminMeta } from "#app/features/content/admin-meta.ts";
import { SimpleViewer } from "#app/features/leads/ui/simple-viewer.tsx";
import { useHydrated } from "#app/lib/use-hydrated.ts";
import type { Route } from "./+types/simple";

// SPEC section 2 /admin/simple. Rendered in the browser only: its data comes from the JSON API.

export const meta: Route.MetaFunction = () => adminMeta("Simple lead viewer");

// The viewer signs in by itself: the auth feature's localStorage hints, handed to the leads feature's viewer.
const ADMIN_HINTS = { store: storeAdminFlags, clear: clearLocalAdminFlags };

export default function SimpleAdmin() {
  const hydrated = useHydrated();
  return (
    <div className="mx-auto grid max-w-5xl gap-6 px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Simple lead viewer</h1>
      {/* Not <noscript>: this also covers the moment before the script has loaded, and a script that fails to. */}
      {hydrated ? (
        <SimpleViewer hints={ADMIN_HINTS} />
      ) : (
        <p className="rounded-lg border border-line bg-white px-4 py-3 leading-6">
          This viewer needs JavaScript and starts once it has loaded. Without JavaScript, sign in on the{" "}
          <a href="/admin/login" className="font-semibold text-brand underline">
            admin login page
          </a>{" "}
          to work with the leads.
        </p>
      )}
    </div>
  );
}
