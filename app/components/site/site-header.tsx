import { useEffect, useId, useState } from "react";
import { Link } from "react-router";
import { headerLinks } from "#app/features/content/navigation.ts";
import { cn } from "#app/lib/cn.ts";
import { useCurrentPath } from "#app/lib/use-current-path.ts";
import { Logo } from "./logo.tsx";
import { RequestDemoLink } from "./request-demo-link.tsx";

/** Matches the spec's 768 px mobile breakpoint and Tailwind's `md`. */
const DESKTOP_QUERY = "(min-width: 768px)";

type NavItem = { to: string; label: string };

function navItems(showAdminLink: boolean): NavItem[] {
  return showAdminLink ? [...headerLinks, { to: "/admin/dashboard", label: "Admin" }] : [...headerLinks];
}

/**
 * The sticky site header. The mobile menu is a native <details> element so it also opens with
 * JavaScript off; with JavaScript it closes on scroll, on link click, on Escape and when the
 * viewport widens past the breakpoint (SPEC section 1).
 */
export function SiteHeader({ showAdminLink = false }: { showAdminLink?: boolean }) {
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const items = navItems(showAdminLink);
  // Not NavLink: it compares raw paths, and prerendering sees `/features/` (see use-current-path.ts).
  const currentPath = useCurrentPath();

  useEffect(() => {
    if (!menuOpen) return;
    const close = () => setMenuOpen(false);
    const desktop = window.matchMedia(DESKTOP_QUERY);
    const onWiden = (event: MediaQueryListEvent) => {
      if (event.matches) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    window.addEventListener("scroll", close, { passive: true });
    window.addEventListener("keydown", onKey);
    desktop.addEventListener("change", onWiden);
    return () => {
      window.removeEventListener("scroll", close);
      window.removeEventListener("keydown", onKey);
      desktop.removeEventListener("change", onWiden);
    };
  }, [menuOpen]);

  const linkClass = (isActive: boolean) =>
    cn(
      "rounded-md px-3 py-2 text-sm font-medium transition-colors hover:bg-brand-soft hover:text-brand",
      isActive ? "text-brand underline decoration-accent decoration-2 underline-offset-8" : "text-ink",
    );

  return (
    <header className="sticky top-0 z-40 border-b border-line bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6">
        <Logo />
        <nav aria-label="Main" className="hidden md:block">
          <ul className="flex items-center gap-1">
            {items.map((item) => (
              <li key={item.to}>
                <Link
                  to={item.to}
                  aria-current={item.to === currentPath ? "page" : undefined}
                  className={linkClass(item.to === currentPath)}
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          <span className="hidden sm:block">
            <RequestDemoLink />
          </span>
          <details
            className="group md:hidden"
            open={menuOpen}
            onToggle={(event) => setMenuOpen(event.currentTarget.open)}
          >
            <summary
              aria-controls={menuId}
              className="flex size-11 cursor-pointer list-none items-center justify-center rounded-md text-brand hover:bg-brand-soft [&::-webkit-details-marker]:hidden"
            >
              <span className="sr-only">{menuOpen ? "Close menu" : "Open menu"}</span>
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
              id={menuId}
              aria-label="Mobile"
              className="absolute inset-x-0 top-16 border-b border-line bg-white shadow-lg"
            >
              <ul className="flex flex-col px-4 py-3">
                {items.map((item) => (
                  <li key={item.to}>
                    <Link
                      to={item.to}
                      aria-current={item.to === currentPath ? "page" : undefined}
                      className={cn(linkClass(item.to === currentPath), "block py-3 text-base")}
                      onClick={() => setMenuOpen(false)}
                    >
                      {item.label}
                    </Link>
                  </li>
                ))}
                <li className="pt-2">
                  <RequestDemoLink className="w-full" onNavigate={() => setMenuOpen(false)} />
                </li>
              </ul>
            </nav>
          </details>
        </div>
      </div>
    </header>
  );
}
