// Issue 23, roles enforced by the server (ADR 021): the one table that says what each role may do.
// Every back-office page, page action and /api/admin/* call asks it (guard.server.ts); the app shell
// asks it too, through `can` and BACK_OFFICE_SECTIONS, to show only what the person may open. No
// other code decides access by role. Shared with the browser: it holds no secret, only the rules.

export const ROLES = ["admin", "sales", "marketing"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  /** The lead list and a lead's page: personal data (names, emails, phones, messages). */
  "leads.read",
  /** Status, owner, spam, notes, bulk changes, deletion. */
  "leads.write",
  /** The CSV download. */
  "leads.export",
  /** How many leads, by status or channel: never who. */
  "leads.counts",
  /** The analytics report (aggregates only). */
  "analytics.read",
  /** Security audits and performance checks. */
  "audits.use",
  /** Publishing the site's content (the content studio). */
  "content.publish",
  /** Staff accounts and their roles. */
  "staff.manage",
  "apiKeys.manage",
  "webhooks.manage",
  "accessLog.read",
  /** Subject access and erasure on /admin/people. */
  "people.dataRequests",
  /** Your own account: sessions, two-factor sign-in. */
  "account.self",
  /** Your own availability for meetings (issue 34): the roles that host them. */
  "meetings.availability",
  /** Meeting types, and anyone's availability. */
  "meetings.manage",
  /** Issue 35: your own tasks on leads ("My tasks", the morning e-mail); given with leads.write. */
  "tasks.own",
  /** Everyone's tasks, by assignee (the team's lead). */
  "tasks.team",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const SALES: readonly Permission[] = [
  "leads.read",
  "leads.write",
  "leads.export",
  "leads.counts",
  "analytics.read",
  "account.self",
  "meetings.availability",
  "tasks.own",
];
const MARKETING: readonly Permission[] = [
  "leads.counts",
  "analytics.read",
  "audits.use",
  "content.publish",
  "account.self",
];

/** The table. An admin may do everything; the others what is listed. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  admin: new Set(PERMISSIONS),
  sales: new Set(SALES),
  marketing: new Set(MARKETING),
};

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  admin: "Admin",
  sales: "Sales",
  marketing: "Marketing",
};

/** What each role is for, as the staff page explains it next to the choice. */
export const ROLE_DESCRIPTIONS: Readonly<Record<Role, string>> = {
  admin:
    "Everything, including staff, API keys, webhooks, the access log, people's data requests and meeting types.",
  sales:
    "The leads: view, edit, notes, owner, bulk changes, export; their meetings and availability; and analytics.",
  marketing: "Analytics, audits and the site's content; leads only as counts, never who.",
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** May someone with `role` (null: no back-office role) do `permission`? */
export function can(role: Role | null | undefined, permission: Permission): boolean {
  return role ? ROLE_PERMISSIONS[role].has(permission) : false;
}

/**
 * The roles that have every one of `permissions`: for a query that asks the stored role (a person's
 * role may have changed since they chose an e-mail or were given a task).
 */
export function rolesWith(...permissions: Permission[]): Role[] {
  return ROLES.filter((role) => permissions.every((permission) => can(role, permission)));
}

/**
 * The SPEC's isAdmin (GET /api/user, the sign-in answer): true for the roles whose work is the lead
 * dashboard, which the SPEC calls admin-only.
 */
export function isAdminRole(role: Role | null | undefined): boolean {
  return can(role, "leads.read");
}

export type BackOfficeSection = {
  /** The page's path; `:id` marks a path parameter. */
  path: string;
  label: string;
  /** Needed to open the page at all (loader and every form post on it). */
  permission: Permission;
};

/**
 * Every back-office page and the permission it needs to open. The guarded layout checks this list on
 * every request below it; a form post that changes something also asks for its own permission (e.g.
 * leads.write) in its action. The shell lists these, filtered by `can`.
 */
export const BACK_OFFICE_SECTIONS: readonly BackOfficeSection[] = [
  { path: "/admin/dashboard", label: "Leads", permission: "leads.read" },
  // Before /admin/leads/:id, which would match them too (the first match decides).
  { path: "/admin/leads/new", label: "Add lead", permission: "leads.write" },
  { path: "/admin/leads/import", label: "Import leads", permission: "leads.write" },
  // Issue 35: the leads by status (moving a card also asks for leads.write, as the list's change).
  { path: "/admin/leads/board", label: "Leads (board)", permission: "leads.read" },
  { path: "/admin/leads/:id", label: "Lead", permission: "leads.read" },
  { path: "/admin/search", label: "Search", permission: "leads.read" },
  // Issue 35: the signed-in person's tasks (everyone's, for tasks.team).
  { path: "/admin/tasks", label: "My tasks", permission: "tasks.own" },
  // Issue 34: booked meetings with their leads (the attendee's details: the leads' permission).
  { path: "/admin/meetings", label: "Meetings", permission: "leads.read" },
  { path: "/admin/people", label: "People's data", permission: "people.dataRequests" },
  { path: "/admin/analytics", label: "Analytics", permission: "analytics.read" },
  { path: "/admin/audit", label: "Website audits", permission: "audits.use" },
  // Issue 25: watched sites, their runs and alerts.
  { path: "/admin/watches", label: "Watches", permission: "audits.use" },
  { path: "/admin/watches/:id", label: "Watch", permission: "audits.use" },
  // The content studio (issue 24): the list, a new post, a post's editor and its revisions.
  { path: "/admin/content", label: "Content", permission: "content.publish" },
  { path: "/admin/content/new", label: "New post", permission: "content.publish" },
  { path: "/admin/content/:id", label: "Post", permission: "content.publish" },
  { path: "/admin/content/:id/revisions", label: "Revisions", permission: "content.publish" },
  // Issue 34: hosts' working hours, and the kinds of meeting prospects book.
  { path: "/admin/availability", label: "Availability", permission: "meetings.availability" },
  { path: "/admin/meeting-types", label: "Meeting types", permission: "meetings.manage" },
  { path: "/admin/staff", label: "Staff accounts", permission: "staff.manage" },
  { path: "/admin/api-keys", label: "API keys", permission: "apiKeys.manage" },
  { path: "/admin/webhooks", label: "Webhooks", permission: "webhooks.manage" },
  { path: "/admin/access-log", label: "Access log", permission: "accessLog.read" },
  { path: "/admin/account", label: "Your account", permission: "account.self" },
  // Issue 35: the bell's list, each person's own.
  { path: "/admin/notifications", label: "Notifications", permission: "account.self" },
];

function matches(pattern: string, pathname: string): boolean {
  const want = pattern.split("/");
  const got = pathname.replace(/\/+$/, "").split("/");
  return want.length === got.length && want.every((part, i) => part.startsWith(":") || part === got[i]);
}

/** The section a back-office path belongs to, or undefined for a path the table does not list. */
export function sectionFor(pathname: string): BackOfficeSection | undefined {
  // NOTE: a client-side navigation asks for `<page>.data` (single fetch).
  const path = pathname.replace(/\.data$/, "");
  return BACK_OFFICE_SECTIONS.find((section) => matches(section.path, path));
}

/** Where a role starts after signing in: the lead dashboard when it may, else analytics. */
export function homePathFor(role: Role | null | undefined): string {
  return can(role, "leads.read") ? "/admin/dashboard" : "/admin/analytics";
}
