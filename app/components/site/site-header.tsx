import { cn } from "#app/lib/cn.ts";
import { headerLinks } from "#app/lib/site/navigation.ts";
import { useCurrentPath } from "#app/lib/use-current-path.ts";
import { Logo } from "./logo.tsx";
import { RequestDemoLink } from "./request-demo-link.tsx";

const ADMIN_LINK = { to: "/admin/dashboard", label: "Admin" } as const;
/** One header per page, never hydrated: a fixed id is unique. */
const MENU_ID = "site-menu";

/**
 * The sticky site header. The mobile menu is a native <details> element, so it opens with JavaScript
 * off; site-header.enhance.ts closes it on scroll, link click, Escape and widening past the
 * breakpoint, and shows the Admin link to a signed-in admin (SPEC section 1).
 */
export function SiteHeader() {
  // Not NavLink: it compares raw paths, and prerendering sees `/features/` (see use-current-path.ts).
  const currentPath = useCurrentPath();

  const linkClass = (isActive: boolean) =>
    cn(
      "rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-brand-soft hover:text-brand",
      isActive ? "text-brand underline decoration-accent decoration-2 underline-offset-8" : "text-ink",
    );
  // The Admin link is in the HTML for everyone, hidden; only the server's answer reveals it.
  const items = (extraClass?: string) => (
    <>
      {headerLinks.map((item) => (
        <li key={item.to}>
          <a
            href={item.to}
            aria-current={item.to === currentPath ? "page" : undefined}
            className={cn(linkClass(item.to === currentPath), extraClass)}
          >
            {item.label}
          </a>
        </li>
      ))}
      <li hidden data-admin-link="">
        <a href={ADMIN_LINK.to} className={cn(linkClass(false), extraClass)}>
          {ADMIN_LINK.label}
        </a>
      </li>
    </>
  );

  return (
    <header className="sticky top-0 z-40 border-b border-line bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">{items()}</ul>
        </nav>
        <div className="flex items-center gap-2">
          <span className="hidden sm:block">
            <RequestDemoLink />
          </span>
          <details className="group md:hidden" data-mobile-menu="">
            <summary
              aria-controls={MENU_ID}
              className="flex size-11 cursor-pointer list-none items-center justify-center rounded-md text-brand hover:bg-brand-soft [&::-webkit-details-marker]:hidden"
            >
              {/* The label follows the menu's state in CSS, with or without JavaScript. */}
              <span className="sr-only group-open:hidden">Open menu</span>
              <span className="sr-only hidden group-open:inline">Close menu</span>
              <svg
                aria-hidden="true"
                viewBox="0 0 24 24"
                className="size-6"
                fill="none"
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              >
                <path className="group-open:hidden" d="M4 7h16M4 12h16M4 17h16" />
                <path className="hidden group-open:block" d="M6 6l12 12M18 6L6 18" />
              </svg>
            </summary>
            <nav
              id={MENU_ID}
              aria-label="Mobile"
              className="absolute inset-x-0 top-16 border-b border-line bg-white shadow-lg"
            >
              <ul className="flex flex-col px-4 py-3">
                {items("block py-3 text-base")}
                <li className="pt-2">
                  <RequestDemoLink className="w-full" />
                </li>
              </ul>
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}
