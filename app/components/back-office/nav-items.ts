import { ACCOUNT_PATH, DASHBOARD_PATH } from "#app/lib/admin-paths.ts";

// The back office's sections, in one list: the shell's sidebar (from 1280 px, issue 35), its phone
// menu and the tests read it. Each names the permission of the role table (lib/permissions.ts, issue 23) that
// opens it; the guarded layout's loader hands the shell the signed-in person's permissions, so this
// module only compares names and needs nothing from the auth feature.

/** A permission's name in the role table (lib/permissions.ts). */
export type Permission =
  | "leads.read"
  | "people.dataRequests"
  | "analytics.read"
  | "audits.use"
  | "content.publish"
  | "staff.manage"
  | "apiKeys.manage"
  | "webhooks.manage"
  | "accessLog.read"
  | "meetings.availability"
  | "meetings.manage"
  | "tasks.own";

/** The sidebar's icon for a section (app-shell.tsx draws them; shown alone when it is collapsed). */
export type NavIcon =
  | "leads"
  | "spam"
  | "tasks"
  | "meetings"
  | "people"
  | "analytics"
  | "audits"
  | "watches"
  | "content"
  | "availability"
  | "meeting-types"
  | "staff"
  | "api-keys"
  | "webhooks"
  | "access-log";

export type NavItem = {
  label: string;
  icon?: NavIcon;
  to: string;
  permission: Permission;
  /** The admin-only sections sit in their own group below the daily work. */
  group: "work" | "admin";
  /** Other pathnames that belong to this section (a lead's page belongs to Leads). */
  alsoCurrentFor?: RegExp;
};

export const NAV_ITEMS: readonly NavItem[] = [
  {
    label: "Leads",
    icon: "leads",
    to: DASHBOARD_PATH,
    permission: "leads.read",
    group: "work",
    alsoCurrentFor: /^\/admin\/leads\//,
  },
  { label: "My tasks", icon: "tasks", to: "/admin/tasks", permission: "tasks.own", group: "work" },
  { label: "Meetings", icon: "meetings", to: "/admin/meetings", permission: "leads.read", group: "work" },
  {
    label: "People's data",
    icon: "people",
    to: "/admin/people",
    permission: "people.dataRequests",
    group: "work",
  },
  {
    label: "Analytics",
    icon: "analytics",
    to: "/admin/analytics",
    permission: "analytics.read",
    group: "work",
  },
  { label: "Website audits", icon: "audits", to: "/admin/audit", permission: "audits.use", group: "work" },
  {
    label: "Watches",
    icon: "watches",
    to: "/admin/watches",
    permission: "audits.use",
    group: "work",
    alsoCurrentFor: /^\/admin\/watches\//,
  },
  {
    label: "Content",
    icon: "content",
    to: "/admin/content",
    permission: "content.publish",
    group: "work",
    alsoCurrentFor: /^\/admin\/content\//,
  },
  {
    label: "Availability",
    icon: "availability",
    to: "/admin/availability",
    permission: "meetings.availability",
    group: "work",
  },
  {
    label: "Meeting types",
    icon: "meeting-types",
    to: "/admin/meeting-types",
    permission: "meetings.manage",
    group: "admin",
  },
  { label: "Staff accounts", icon: "staff", to: "/admin/staff", permission: "staff.manage", group: "admin" },
  {
    label: "API keys",
    icon: "api-keys",
    to: "/admin/api-keys",
    permission: "apiKeys.manage",
    group: "admin",
  },
  {
    label: "Webhooks",
    icon: "webhooks",
    to: "/admin/webhooks",
    permission: "webhooks.manage",
    group: "admin",
  },
  {
    label: "Access log",
    icon: "access-log",
    to: "/admin/access-log",
    permission: "accessLog.read",
    group: "admin",
  },
];

/** The signed-in person as the shell knows them: their role's label and what it may do. */
export type ShellUser = { username: string; roleLabel: string; permissions: readonly string[] };

/** Whether `user`'s role opens a section (the server decides; this only hides what it would refuse). */
export function mayUse(user: ShellUser, permission: Permission): boolean {
  return user.permissions.includes(permission);
}

/** The role shown under the person's name at the bottom of the shell. */
export function roleLabel(user: ShellUser): string {
  return user.roleLabel;
}

export function visibleNavItems(user: ShellUser): NavItem[] {
  return NAV_ITEMS.filter((item) => mayUse(user, item.permission));
}

/** The spam review: the lead list's held spam, counted next to Leads. */
export const SPAM_VIEW_PATH = `${DASHBOARD_PATH}?spam=only`;

/** Which entry is the current page: the spam view, a section, or none (the account, the search). */
export function currentNavTarget(pathname: string, search: string): string | null {
  if (pathname === DASHBOARD_PATH && new URLSearchParams(search).get("spam") === "only")
    return SPAM_VIEW_PATH;
  if (pathname === ACCOUNT_PATH) return ACCOUNT_PATH;
  const item = NAV_ITEMS.find((entry) => entry.to === pathname || entry.alsoCurrentFor?.test(pathname));
  return item ? item.to : null;
}
