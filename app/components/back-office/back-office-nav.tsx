import { Link, useRouteLoaderData } from "react-router";
import { type ShellUser, visibleNavItems } from "./nav-items.ts";

/** The rest of the back office, one card each above the leads. */
const BACK_OFFICE_PAGES = [
  {
    to: "/admin/analytics",
    title: "Analytics",
    text: "Visitors, pages, channels and campaigns, and which of them bring leads.",
  },
  {
    to: "/admin/audit",
    title: "Website audits",
    text: "Run security and performance checks of the public site and review past results.",
  },
  {
    to: "/admin/api-keys",
    title: "API keys",
    text: "Let a CRM or a partner's form send leads to the API, each under its own name.",
  },
  {
    to: "/admin/staff",
    title: "Staff accounts",
    text: "Add colleagues, reset passwords, disable accounts and see who signed in when.",
  },
  {
    to: "/admin/webhooks",
    title: "Webhooks",
    text: "Send new and changed leads to your CRM or other tools, and see each delivery.",
  },
  {
    to: "/admin/people",
    title: "People's data",
    text: "Find, export or erase everything held on one person when they ask.",
  },
  {
    to: "/admin/access-log",
    title: "Access log",
    text: "See who signed in, exported or erased leads, and changed staff accounts.",
  },
] as const;

/**
 * The dashboard's way to every other back-office page the person's role opens (the shell's loader
 * says which; a card the server would refuse is not offered, as in the sidebar).
 */
export function BackOfficeNav() {
  const shell = useRouteLoaderData("routes/admin/guarded-layout") as { user?: ShellUser } | undefined;
  const open = shell?.user ? new Set(visibleNavItems(shell.user).map((item) => item.to)) : null;
  const cards = BACK_OFFICE_PAGES.filter((card) => !open || open.has(card.to));
  if (cards.length === 0) return null;
  return (
    <nav aria-label="Back office" className="grid gap-4 md:grid-cols-2 lg:grid-cols-3">
      {cards.map((card) => (
        <Link
          key={card.to}
          to={card.to}
          className="group block rounded-xl border border-line bg-white p-6 shadow-sm transition-shadow hover:shadow-md"
        >
          <span className="text-lg font-semibold text-brand group-hover:underline">{card.title}</span>
          <span className="mt-1 block leading-6 text-ink-muted">{card.text}</span>
        </Link>
      ))}
    </nav>
  );
}
