import { type ReactNode, useEffect, useRef } from "react";
import { Link, useLocation, useNavigation } from "react-router";
import { Logo } from "#app/components/site/logo.tsx";
import { ACCOUNT_PATH } from "#app/lib/admin-paths.ts";
import { cn } from "#app/lib/cn.ts";
import {
  currentNavTarget,
  type NavItem,
  roleLabel,
  type ShellUser,
  SPAM_VIEW_PATH,
  visibleNavItems,
} from "./nav-items.ts";

// The back office's one frame (issue 23): a sidebar on wide screens, a top bar with a menu behind a
// disclosure below that (a <details>, so it opens without JavaScript), the search, the signed-in
// person with their account and Logout, and a pending state while the next page loads.
// NOTE: the sidebar starts at 1440 px, not 1280: the lead list's table needs the full 1280 px
// (its columns are SPEC section 2's) and must not scroll sideways (tests/e2e/lead-workspace.test.ts).
// Once the rows are slimmer, lowering the breakpoint is the `wide:` classes below (app.css).

/** The lead counts next to Leads; null when they could not be counted (the nav still works). */
export type ShellCounts = { newLeads: number; spam: number } | null;

type ShellProps = {
  user: ShellUser;
  counts: ShellCounts;
  /** The search box (rendered in the sidebar and in the phone menu). */
  search: ReactNode;
  /** The Log out control. */
  logout: ReactNode;
  children: ReactNode;
};

export function AppShell({ user, counts, search, logout, children }: ShellProps) {
  const navigation = useNavigation();
  const { key, pathname, search: query } = useLocation();
  const current = currentNavTarget(pathname, query);
  const menu = useRef<HTMLDetailsElement>(null);
  const pending = navigation.state !== "idle";

  // Following a link from the phone menu closes it, as a native app's drawer does.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on each navigation by design
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [key]);

  const nav = <ShellNav user={user} counts={counts} current={current} />;
  const person = <ShellPerson user={user} current={current} logout={logout} />;

  return (
    <div className="min-h-screen bg-surface-muted wide:flex">
      <aside
        data-search-host
        aria-label="Back office"
        className="sticky top-0 hidden h-screen w-64 shrink-0 flex-col border-r border-line bg-white wide:flex"
      >
        <div className="flex h-16 shrink-0 items-center px-5">
          <Logo />
        </div>
        <div className="px-3 pb-2">{search}</div>
        <div className="min-h-0 flex-1 overflow-y-auto px-3 py-2">{nav}</div>
        <div className="border-t border-line p-3">{person}</div>
      </aside>

      <header className="sticky top-0 z-30 border-b border-line bg-white wide:hidden">
        <div className="flex h-14 items-center justify-between gap-3 px-4 sm:px-6">
          <Logo />
          <TopBarSections user={user} counts={counts} current={current} />
          <div data-search-host className="ml-auto hidden w-60 md:block">
            {search}
          </div>
          <Link
            to={ACCOUNT_PATH}
            aria-label="Your account"
            aria-current={current === ACCOUNT_PATH ? "page" : undefined}
            title={`${user.username} (${roleLabel(user)}): your account`}
            className="hidden rounded-full md:block"
          >
            <Avatar user={user} />
          </Link>
          {/* SPEC: the dashboard's Logout stays in view from tablet width on; on phones it is in the menu. */}
          <div className="hidden md:block">{logout}</div>
          <details ref={menu} data-search-host className="group">
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
              <div className="mt-3 border-t border-line pt-3">
                <ShellPerson
                  user={user}
                  current={current}
                  logout={<div className="md:hidden">{logout}</div>}
                />
              </div>
            </div>
          </details>
        </div>
      </header>

      <div className="relative min-w-0 flex-1">
        {pending ? (
          <div role="status" className="fixed inset-x-0 top-0 z-50 h-1 animate-pulse bg-accent wide:left-64">
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

/** Between 1280 px and the sidebar, the daily sections stay in view in the top bar; all are in Menu. */
function TopBarSections({
  user,
  counts,
  current,
}: {
  user: ShellUser;
  counts: ShellCounts;
  current: string | null;
}) {
  const items = visibleNavItems(user).filter((item) => item.group === "work" && item.topBar !== false);
  return (
    <nav aria-label="Main sections" className="hidden xl:block">
      <ul className="flex items-center gap-1">
        {items.map((item) => (
          <li key={item.to}>
            <NavLink
              item={item}
              current={current === item.to}
              count={item.label === "Leads" ? counts?.newLeads : undefined}
              countLabel="new"
            />
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ShellNav({
  user,
  counts,
  current,
}: {
  user: ShellUser;
  counts: ShellCounts;
  current: string | null;
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
            />
            {item.label === "Leads" ? (
              <NavLink
                item={{ ...item, label: "Spam", to: SPAM_VIEW_PATH }}
                current={current === SPAM_VIEW_PATH}
                count={counts?.spam}
                countLabel="held"
                nested
              />
            ) : null}
          </li>
        ))}
      </ul>
      {admin.length > 0 ? (
        <>
          <p className="mt-5 mb-1 px-3 text-xs font-semibold tracking-wide text-ink-muted uppercase">Admin</p>
          <ul className="grid gap-0.5">
            {admin.map((item) => (
              <li key={item.to}>
                <NavLink item={item} current={current === item.to} />
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
}: {
  item: NavItem;
  current: boolean;
  count?: number;
  countLabel?: string;
  nested?: boolean;
}) {
  return (
    <Link
      to={item.to}
      aria-current={current ? "page" : undefined}
      className={cn(
        "flex min-h-10 items-center gap-2 rounded-md px-3 text-sm font-medium text-ink hover:bg-surface-muted",
        nested && "min-h-9 pl-7 text-ink-muted",
        current && "bg-brand-soft font-semibold text-brand hover:bg-brand-soft",
      )}
    >
      <span className="truncate">{item.label}</span>
      {count !== undefined && count > 0 ? (
        <span className="ml-auto rounded-full bg-white px-2 py-0.5 text-xs font-semibold tabular-nums text-ink ring-1 ring-line">
          {count.toLocaleString("en-GB")}
          <span className="sr-only"> {countLabel}</span>
        </span>
      ) : null}
    </Link>
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
