import { describe, expect, it } from "vitest";
import { landingPath } from "../features/auth/safe-admin-next.ts";
import {
  BACK_OFFICE_SECTIONS,
  can,
  homePathFor,
  isAdminRole,
  PERMISSIONS,
  type Permission,
  ROLES,
  rolesWith,
  sectionFor,
} from "./permissions.ts";

// The table itself, as issue 23 states the roles: what each may and may not do.

const allowed = (role: (typeof ROLES)[number]) => PERMISSIONS.filter((permission) => can(role, permission));

describe("the permission table", () => {
  it("gives an admin every permission", () => {
    expect(allowed("admin")).toEqual([...PERMISSIONS]);
  });

  it("gives sales the leads workspace, analytics and their own availability, nothing of staff, keys, webhooks, log or audits", () => {
    expect(allowed("sales").sort()).toEqual(
      (
        [
          "account.self",
          "analytics.read",
          "leads.counts",
          "leads.export",
          "leads.read",
          "leads.write",
          "meetings.availability",
          "tasks.own",
        ] satisfies Permission[]
      ).sort(),
    );
  });

  it("gives marketing analytics, audits, content and lead counts: no personal data, no export", () => {
    expect(allowed("marketing").sort()).toEqual(
      (
        [
          "account.self",
          "analytics.read",
          "audits.use",
          "content.publish",
          "leads.counts",
        ] satisfies Permission[]
      ).sort(),
    );
    for (const permission of ["leads.read", "leads.write", "leads.export", "people.dataRequests"] as const)
      expect(can("marketing", permission)).toBe(false);
  });

  it("gives an account without a role nothing", () => {
    for (const permission of PERMISSIONS) {
      expect(can(null, permission)).toBe(false);
      expect(can(undefined, permission)).toBe(false);
    }
  });

  it("calls admin and sales isAdmin (the SPEC's lead dashboard is theirs), marketing not", () => {
    expect(ROLES.map((role) => [role, isAdminRole(role)])).toEqual([
      ["admin", true],
      ["sales", true],
      ["marketing", false],
    ]);
    expect(isAdminRole(null)).toBe(false);
  });

  it("names the roles that have every permission asked for", () => {
    expect(rolesWith("leads.read")).toEqual(["admin", "sales"]);
    expect(rolesWith("tasks.own", "leads.read")).toEqual(["admin", "sales"]);
    expect(rolesWith("audits.use")).toEqual(["admin", "marketing"]);
    expect(rolesWith("audits.use", "leads.read")).toEqual(["admin"]);
  });
});

describe("sectionFor", () => {
  it.each([
    ["/admin/dashboard", "leads.read"],
    ["/admin/dashboard.data", "leads.read"],
    ["/admin/leads/42", "leads.read"],
    ["/admin/leads/42.data", "leads.read"],
    ["/admin/analytics", "analytics.read"],
    ["/admin/audit", "audits.use"],
    ["/admin/staff", "staff.manage"],
    ["/admin/api-keys", "apiKeys.manage"],
    ["/admin/webhooks", "webhooks.manage"],
    ["/admin/access-log", "accessLog.read"],
    ["/admin/people", "people.dataRequests"],
    ["/admin/account", "account.self"],
    ["/admin/content", "content.publish"],
    ["/admin/content/new", "content.publish"],
    ["/admin/content/12", "content.publish"],
    ["/admin/content/12/revisions", "content.publish"],
    ["/admin/availability", "meetings.availability"],
    ["/admin/meeting-types", "meetings.manage"],
  ])("%s needs %s", (path, permission) => {
    expect(sectionFor(path)?.permission).toBe(permission);
  });

  it("lists no page it cannot match, and matches nothing it does not list", () => {
    expect(sectionFor("/admin/leads/42/extra")).toBeUndefined();
    expect(sectionFor("/admin/unknown")).toBeUndefined();
    for (const section of BACK_OFFICE_SECTIONS)
      expect(sectionFor(section.path.replace(":id", "7"))).toBe(section);
  });
});

describe("where people land after signing in", () => {
  it("sends admin and sales to the dashboard and marketing to analytics", () => {
    expect(homePathFor("admin")).toBe("/admin/dashboard");
    expect(homePathFor("sales")).toBe("/admin/dashboard");
    expect(homePathFor("marketing")).toBe("/admin/analytics");
  });

  it("follows `next` only to a page the role may open", () => {
    expect(landingPath("marketing", "/admin/dashboard")).toBe("/admin/analytics");
    expect(landingPath("marketing", "/admin/audit")).toBe("/admin/audit");
    expect(landingPath("marketing", "/admin/content/3")).toBe("/admin/content/3");
    expect(landingPath("sales", "/admin/content")).toBe("/admin/dashboard");
    expect(landingPath("sales", "/admin/leads/3?tab=notes")).toBe("/admin/leads/3?tab=notes");
    expect(landingPath("sales", "/admin/staff")).toBe("/admin/dashboard");
    expect(landingPath("admin", "https://evil.example/admin/staff")).toBe("/admin/dashboard");
    expect(landingPath("admin", null)).toBe("/admin/dashboard");
  });
});
