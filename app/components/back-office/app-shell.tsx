import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { Link, useLocation, useNavigation } from "react-router";
import { Logo } from "#app/components/site/logo.tsx";
import { ACCOUNT_PATH } from "#app/lib/admin-paths.ts";
import { cn } from "#app/lib/cn.ts";
import {
  currentNavTarget,
  type NavIcon,
  type NavItem,
  roleLabel,
  type ShellUser,
  SPAM_VIEW_PATH,
  visibleNavItems,
} from "./nav-items.ts";
import { sidebarCookie } from "./sidebar-state.ts";

// The back office's one frame (issues 23 and 35): from 1280 px a sidebar with every section the
// person's role opens, which collapses to icons (the choice kept in a cookie, so the server renders
// it as it was left); below that a top bar with a menu behind a disclosure (a <details>, so it opens
// without JavaScript). The bell and the person's avatar menu (their account and Logout) sit at the
// sidebar's foot and in the top bar, both <details> too. A pending state shows while the next page
// loads.

/** The lead counts next to Leads; null when they could not be counted (the nav still works). */
export type ShellCounts = { newLeads: number; spam: number } | null;

/** Marks the shell's <details> menus: closed on Escape, a click outside, and each navigation. */
const SHELL_MENU = "data-shell-menu";

type ShellProps = {
  user: ShellUser;
  counts: ShellCounts;
  /** The search box (rendered in the sidebar and in the phone menu). */
  search: ReactNode;
  /** The Logout control. */
  logout: ReactNode;
  /** The notifications bell, drawn where it sits (it comes from features/notifications). */
  bell?: (placement: "sidebar" | "top") => ReactNode;
  /** The sidebar collapsed to icons, as the person left it (cookie). */
  collapsed?: boolean;
  children: ReactNode;
};

export function AppShell({ user, counts, search, logout, bell, collapsed = false, children }: ShellProps) {
  const navigation = useNavigation();
  const { key, pathname, search: query } = useLocation();
  const current = currentNavTarget(pathname, query);
  const shell = useRef<HTMLDivElement>(null);
  const pending = navigation.state !== "idle";
  const [narrow, setNarrow] = useState(collapsed);
  // A new server answer (another tab changed the choice, or the form without JavaScript) wins.
  useEffect(() => setNarrow(collapsed), [collapsed]);

  // Following a link from a menu closes it, as a native app's drawer does.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation by design
  useEffect(() => {
    for (const details of shell.current?.querySelectorAll<HTMLDetailsElement>(`details[${SHELL_MENU}]`) ?? [])
      details.open = false;
  }, [key]);
  useShellMenus(shell);

  function toggle(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const next = !narrow;
    // biome-ignore lint/suspicious/noDocumentCookie: one layout cookie; the Cookie Store API is not in every browser
    document.cookie = sidebarCookie(next, window.location.protocol === "https:");
    setNarrow(next);
  }

  const nav = <ShellNav user={user} counts={counts} current={current} />;
  const toggleForm = (
    <form method="post" action={ACCOUNT_PATH} onSubmit={toggle}>
      <input type="hidden" name="intent" value="sidebar" />
      <input type="hidden" name="sidebar" value={narrow ? "expanded" : "collapsed"} />
      <input type="hidden" name="next" value={pathname + query} />
      <button
        type="submit"
        aria-controls="sidebar-sections"
        aria-expanded={!narrow}
        aria-label={narrow ? "Expand sidebar" : "Collapse sidebar"}
        title={narrow ? "Expand sidebar" : "Collapse sidebar"}
        className="grid size-10 place-items-center rounded-md text-ink-muted hover:bg-surface-muted hover:text-ink"
      >
        <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor">
          <rect x="3" y="4" width="14" height="12" rx="2" strokeWidth="1.6" />
          <path d="M8 4v12" strokeWidth="1.6" />
          <path
            d={narrow ? "m11.5 8 2 2-2 2" : "m13.5 8-2 2 2 2"}
            strokeWidth="1.6"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
      </button>
    </form>
  );

  return (
    <div
      ref={shell}
      data-sidebar={narrow ? "collapsed" : "expanded"}
      className="min-h-screen bg-surface-muted wide:flex"
    >
      <aside
        data-search-host
        data-collapsed={narrow || undefined}
        aria-label="Back office"
        className={cn(
          "group/side sticky top-0 z-30 hidden h-screen shrink-0 flex-col border-r border-line bg-white wide:flex",
          narrow ? "w-16" : "w-64",
        )}
      >
        <div className={cn("flex h-16 shrink-0 items-center gap-2", narrow ? "justify-center px-2" : "px-4")}>
          {/* Collapsed, the mark alone (its name stays for screen readers). */}
          <div className={cn("min-w-0 flex-1", narrow && "flex-none [&_a>span]:sr-only")}>
            <Logo />
          </div>
          {narrow ? null : toggleForm}
        </div>
        {narrow ? (
          <div className="grid justify-items-center gap-1 px-2 pb-2">
            {toggleForm}
            {search ? (
              <Link
                to="/admin/search"
                title="Search"
                className="grid size-10 place-items-center rounded-md text-ink-muted hover:bg-surface-muted hover:text-ink"
              >
                <svg
                  aria-hidden="true"
                  viewBox="0 0 20 20"
                  className="size-5"
                  fill="none"
                  stroke="currentColor"
                >
                  <circle cx="9" cy="9" r="5.5" strokeWidth="1.6" />
                  <path d="m13 13 4 4" strokeWidth="1.6" strokeLinecap="round" />
                </svg>
                <span className="sr-only">Search</span>
              </Link>
            ) : null}
          </div>
        ) : null}
        {narrow ? null : <div className="px-3 pb-2">{search}</div>}
        <div
          id="sidebar-sections"
          className={cn("min-h-0 flex-1 overflow-y-auto py-2", narrow ? "px-2" : "px-3")}
        >
          {narrow ? <ShellNav user={user} counts={counts} current={current} iconsOnly /> : nav}
        </div>
        <div className={cn("grid gap-1 border-t border-line", narrow ? "justify-items-center p-2" : "p-3")}>
          {bell?.("sidebar")}
          <AccountMenu user={user} current={current} logout={logout} placement="sidebar" iconOnly={narrow} />
        </div>
      </aside>

      <header className="sticky top-0 z-30 border-b border-line bg-white wide:hidden">
        <div className="flex h-14 items-center justify-between gap-2 px-4 sm:px-6">
          <Logo />
          <div data-search-host className="ml-auto hidden w-60 md:block">
            {search}
          </div>
          <div className="ml-auto flex items-center gap-1 md:ml-0">
            {bell?.("top")}
            <div className="hidden md:block">
              <AccountMenu user={user} current={current} logout={logout} placement="top" iconOnly />
            </div>
          </div>
          <details {...{ [SHELL_MENU]: "" }} data-search-host className="group">
            <summary className="flex h-11 cursor-pointer list-none items-center gap-2 rounded-md border border-line px-3 font-semibold text-brand hover:bg-brand-soft [&::-webkit-details-marker]:hidden">
              <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5">
                <path
                  className="group-open:hidden"
                  d="M3 5h14M3 10h14M3 15h14"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
                <path
                  className="hidden group-open:block"
                  d="m5 5 10 10M15 5 5 15"
                  stroke="currentColor"
                  strokeWidth="2"
                  strokeLinecap="round"
                />
              </svg>
              Menu
            </summary>
            <div className="absolute inset-x-0 top-full max-h-[calc(100dvh-3.5rem)] overflow-y-auto border-b border-line bg-white px-4 pt-3 pb-4 shadow-lg md:right-4 md:left-auto md:w-80 md:rounded-b-lg md:border-x">
              <div className="md:hidden">{search}</div>
              <div className="mt-3 md:mt-0">{nav}</div>
              {/* On phones the person's account and Logout are here; from 768 px in the avatar menu. */}
              <div className="mt-3 border-t border-line pt-3 md:hidden">
                <ShellPerson user={user} current={current} logout={logout} />
              </div>
            </div>
          </details>
        </div>
      </header>

      <div className="relative min-w-0 flex-1">
        {pending ? (
          <div
            role="status"
            className={cn(
              "fixed inset-x-0 top-0 z-50 h-1 animate-pulse bg-accent",
              narrow ? "wide:left-16" : "wide:left-64",
            )}
          >
            <span className="sr-only">Loading…</span>
          </div>
        ) : null}
        <main
          id="main"
          tabIndex={-1}
          aria-busy={pending || undefined}
          className={cn(
            "focus:outline-none transition-opacity",
            // Dimmed only when the wait is noticeable, so quick pages do not flicker.
            pending && "opacity-60 delay-300",
          )}
        >
          {children}
        </main>
      </div>
    </div>
  );
}

/** With JavaScript, the shell's menus close as menus do: on Escape (back to their summary) and a click outside. */
function useShellMenus(root: React.RefObject<HTMLDivElement | null>) {
  useEffect(() => {
    const open = () => [
      ...(root.current?.querySelectorAll<HTMLDetailsElement>(`details[${SHELL_MENU}][open]`) ?? []),
    ];
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== "Escape") return;
      for (const details of open()) {
        details.open = false;
        details.querySelector("summary")?.focus();
      }
    }
    function onClick(event: MouseEvent) {
      for (const details of open()) if (!details.contains(event.target as Node)) details.open = false;
    }
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.removeEventListener("click", onClick);
    };
  }, [root]);
}

function ShellNav({
  user,
  counts,
  current,
  iconsOnly = false,
}: {
  user: ShellUser;
  counts: ShellCounts;
  current: string | null;
  iconsOnly?: boolean;
}) {
  const items = visibleNavItems(user);
  const work = items.filter((item) => item.group === "work");
  const admin = items.filter((item) => item.group === "admin");
  return (
    <nav aria-label="Sections">
      <ul className="grid gap-0.5">
        {work.map((item) => (
          <li key={item.to}>
            <NavLink
              item={item}
              current={current === item.to}
              count={item.label === "Leads" ? counts?.newLeads : undefined}
              countLabel="new"
              iconOnly={iconsOnly}
            />
            {item.label === "Leads" ? (
              <NavLink
                item={{ ...item, label: "Spam", icon: "spam", to: SPAM_VIEW_PATH }}
                current={current === SPAM_VIEW_PATH}
                count={counts?.spam}
                countLabel="held"
                nested
                iconOnly={iconsOnly}
              />
            ) : null}
          </li>
        ))}
      </ul>
      {admin.length > 0 ? (
        <>
          {iconsOnly ? (
            <hr className="mx-2 my-3 border-line" />
          ) : (
            <p className="mt-5 mb-1 px-3 text-xs font-semibold tracking-wide text-ink-muted uppercase">
              Admin
            </p>
          )}
          <ul className="grid gap-0.5" aria-label={iconsOnly ? "Admin" : undefined}>
            {admin.map((item) => (
              <li key={item.to}>
                <NavLink item={item} current={current === item.to} iconOnly={iconsOnly} />
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </nav>
  );
}

function NavLink({
  item,
  current,
  count,
  countLabel,
  nested = false,
  iconOnly = false,
}: {
  item: NavItem;
  current: boolean;
  count?: number;
  countLabel?: string;
  nested?: boolean;
  iconOnly?: boolean;
}) {
  const shown = count !== undefined && count > 0;
  return (
    <Link
      to={item.to}
      aria-current={current ? "page" : undefined}
      title={iconOnly ? (shown ? `${item.label} (${count} ${countLabel})` : item.label) : undefined}
      className={cn(
        "relative flex min-h-9 items-center gap-3 rounded-md text-sm font-medium text-ink hover:bg-surface-muted",
        iconOnly ? "justify-center px-0" : "px-3",
        nested && !iconOnly && "min-h-8 pl-6 text-ink-muted",
        current && "bg-brand-soft font-semibold text-brand hover:bg-brand-soft",
      )}
    >
      <SectionIcon icon={item.icon} className={cn(nested && !iconOnly && "size-4")} />
      <span className={iconOnly ? "sr-only" : "truncate"}>{item.label}</span>
      {shown ? (
        iconOnly ? (
          <span className="absolute top-1 right-1 size-2 rounded-full bg-accent">
            <span className="sr-only">
              {" "}
              {count.toLocaleString("en-GB")} {countLabel}
            </span>
          </span>
        ) : (
          <span className="ml-auto rounded-full bg-white px-2 py-0.5 text-xs font-semibold tabular-nums text-ink ring-1 ring-line">
            {count.toLocaleString("en-GB")}
            <span className="sr-only"> {countLabel}</span>
          </span>
        )
      ) : null}
    </Link>
  );
}

/** The person's menu under their avatar: who they are, their account and Logout. */
function AccountMenu({
  user,
  current,
  logout,
  placement,
  iconOnly,
}: {
  user: ShellUser;
  current: string | null;
  logout: ReactNode;
  placement: "sidebar" | "top";
  iconOnly: boolean;
}) {
  return (
    <details {...{ [SHELL_MENU]: "" }} data-account-menu className="relative">
      <summary
        title={iconOnly ? `${user.username} (${roleLabel(user)})` : undefined}
        className={cn(
          "flex cursor-pointer list-none items-center gap-3 rounded-md hover:bg-surface-muted [&::-webkit-details-marker]:hidden",
          iconOnly ? "p-1" : "px-1 py-1.5",
        )}
      >
        <Avatar user={user} />
        {iconOnly ? (
          <span className="sr-only">Account menu of {user.username}</span>
        ) : (
          <>
            <span className="grid min-w-0 flex-1 text-left">
              <span className="truncate text-sm font-semibold text-ink">{user.username}</span>
              <span className="text-xs text-ink-muted">{roleLabel(user)}</span>
              <span className="sr-only">: account menu</span>
            </span>
            <svg
              aria-hidden="true"
              viewBox="0 0 20 20"
              className="size-4 shrink-0 text-ink-muted"
              fill="none"
            >
              <path d="m6 12 4-4 4 4" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" />
            </svg>
          </>
        )}
      </summary>
      <div
        className={cn(
          "absolute z-40 w-64 rounded-lg border border-line bg-white p-2 shadow-lg",
          placement === "sidebar" ? "bottom-full left-0 mb-2" : "top-full right-0 mt-2",
        )}
      >
        <div className="flex items-center gap-3 border-b border-line px-2 pt-1 pb-3">
          <Avatar user={user} />
          <div className="min-w-0">
            <p className="truncate text-sm font-semibold text-ink">{user.username}</p>
            <p className="text-xs text-ink-muted">{roleLabel(user)}</p>
          </div>
        </div>
        <Link
          to={ACCOUNT_PATH}
          aria-current={current === ACCOUNT_PATH ? "page" : undefined}
          className="mt-1 flex min-h-10 items-center gap-3 rounded-md px-2 text-sm font-medium text-ink hover:bg-surface-muted aria-[current=page]:font-semibold aria-[current=page]:text-brand"
        >
          <SectionIcon icon="people" className="size-4" />
          Your account
        </Link>
        <div className="mt-1 border-t border-line px-2 pt-2">{logout}</div>
      </div>
    </details>
  );
}

function ShellPerson({
  user,
  current,
  logout,
}: {
  user: ShellUser;
  current: string | null;
  logout: ReactNode;
}) {
  return (
    <div className="grid gap-2">
      <div className="flex min-w-0 items-center gap-3 px-1">
        <Avatar user={user} />
        <div className="min-w-0">
          <p className="truncate text-sm font-semibold text-ink">{user.username}</p>
          <p className="text-xs text-ink-muted">{roleLabel(user)}</p>
        </div>
      </div>
      <div className="flex items-center justify-between gap-2">
        <Link
          to={ACCOUNT_PATH}
          aria-current={current === ACCOUNT_PATH ? "page" : undefined}
          className="rounded-md px-1 py-2 text-sm font-semibold text-brand underline-offset-2 hover:underline aria-[current=page]:underline"
        >
          Your account
        </Link>
        {logout}
      </div>
    </div>
  );
}

function Avatar({ user }: { user: ShellUser }) {
  return (
    <span
      aria-hidden="true"
      className="grid size-9 shrink-0 place-items-center rounded-full bg-brand text-sm font-bold text-white uppercase"
    >
      {user.username.charAt(0)}
    </span>
  );
}

// The sections' icons: 20 px line drawings, inline so the shell needs no icon package.
const ICONS: Record<NavIcon | "default", ReactNode> = {
  leads: <path d="M3 5h14M3 10h14M3 15h9" />,
  spam: (
    <>
      <path d="M10 3 3 6v4c0 4 3 6.5 7 7.5 4-1 7-3.5 7-7.5V6l-7-3Z" />
      <path d="m7.5 8 5 5m0-5-5 5" />
    </>
  ),
  tasks: <path d="M4 6.5 6 8.5 9 5.5M4 13.5l2 2 3-3M12 7h5M12 14h5" />,
  meetings: <path d="M4 5h12v11H4zM4 9h12M7 3v4M13 3v4" />,
  people: <path d="M10 10a3.5 3.5 0 1 0 0-7 3.5 3.5 0 0 0 0 7Zm-6 7a6 6 0 0 1 12 0" />,
  analytics: <path d="M4 16V9M10 16V4M16 16v-5" />,
  audits: (
    <>
      <path d="M10 3 3 6v4c0 4 3 6.5 7 7.5 4-1 7-3.5 7-7.5V6l-7-3Z" />
      <path d="m7 10 2 2 4-4" />
    </>
  ),
  watches: (
    <>
      <path d="M2 10s3-5.5 8-5.5S18 10 18 10s-3 5.5-8 5.5S2 10 2 10Z" />
      <circle cx="10" cy="10" r="2.5" />
    </>
  ),
  content: <path d="M5 3h7l3 3v11H5zM8 9h5M8 12h5M8 15h3" />,
  availability: (
    <>
      <circle cx="10" cy="10" r="7" />
      <path d="M10 6v4l3 2" />
    </>
  ),
  "meeting-types": <path d="M4 5h12v11H4zM4 9h12M8 12h4" />,
  staff: (
    <path d="M7.5 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm-5 7.5a5 5 0 0 1 10 0M13.5 3.3a3 3 0 0 1 0 5.4M15 11.6a5 5 0 0 1 2.5 4.9" />
  ),
  "api-keys": (
    <>
      <circle cx="7" cy="13" r="3.5" />
      <path d="m9.5 10.5 7-7M14 6l2 2" />
    </>
  ),
  webhooks: <path d="M7 13a3 3 0 1 1-2.6-4.5M13 7a3 3 0 1 1 2.6 4.5M7 13h6l-3-5.5" />,
  "access-log": <path d="M5 3h10v14H5zM8 7h4M8 10h4M8 13h2" />,
  default: <circle cx="10" cy="10" r="6" />,
};

function SectionIcon({ icon, className }: { icon?: NavIcon; className?: string }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={cn("size-5 shrink-0", className)}
    >
      {ICONS[icon ?? "default"]}
    </svg>
  );
}
